// Why: task memory can live as documents of any store (core's document task-record backend);
// the directory store must hold it exactly as the contract says: escaped, case-distinct file
// names, batches, compare-and-swap.
import { createDocumentTaskRecordBackend, type MemoryStore, type TaskRecordBackend } from '@repomem/core';
import { runTaskRecordBackendConformance } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDirectoryStore } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

const open = new Map<TaskRecordBackend, { store: MemoryStore; root: string }>();

runTaskRecordBackendConformance({
  name: 'document task-record backend on the directory store',
  runner: { describe, it, expect, beforeEach, afterEach },
  createBackend: async () => {
    const root = await freshDirectory('repomem-tasks-');
    const store = await openDirectoryStore({ root });
    const backend = createDocumentTaskRecordBackend(store);
    open.set(backend, { store, root });
    return backend;
  },
  teardown: async (backend) => {
    const entry = open.get(backend);
    open.delete(backend);
    if (entry === undefined) return;
    await entry.store.close();
    await removeDirectory(entry.root);
  },
});
