// Why: task memory (episodes, rules, preferences, knowledge, receipts) runs on the default
// store as JSON documents (core's document task-record backend); the SQLite store must hold them
// exactly as the contract says, alongside ordinary documents in the same file.
import { join } from 'node:path';
import { createDocumentTaskRecordBackend, type MemoryStore, type TaskRecordBackend } from '@repomem/core';
import { runTaskRecordBackendConformance } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

const open = new Map<TaskRecordBackend, { store: MemoryStore; dir: string }>();

runTaskRecordBackendConformance({
  name: 'document task-record backend on the SQLite store',
  runner: { describe, it, expect, beforeEach, afterEach },
  createBackend: async () => {
    const dir = await freshDirectory('repomem-sqlite-tasks-');
    const store = await openSqliteStore({ path: join(dir, 'memory.db'), repo: 'acme/app' });
    // Ordinary documents holding the words the searches use must never come back as records.
    await store.write([
      { kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode('- vitest flaky config\n') },
    ]);
    const backend = createDocumentTaskRecordBackend(store);
    open.set(backend, { store, dir });
    return backend;
  },
  teardown: async (backend) => {
    const entry = open.get(backend);
    open.delete(backend);
    if (entry === undefined) return;
    await entry.store.close();
    await removeDirectory(entry.dir);
  },
});
