// Why: task memory can live on the memory branch (core's document task-record backend over the
// git store): every record a commit, batches one commit, compare-and-swap on the branch ref,
// and a repository the git CLI still accepts as-is afterwards.
import { createDocumentTaskRecordBackend, type TaskRecordBackend } from '@repomem/core';
import { runTaskRecordBackendConformance } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GitStore, openGitStore } from '../src/index.js';
import { freshRepository, fsckStrict, removeDirectory } from './support.js';

const open = new Map<TaskRecordBackend, GitStore>();

runTaskRecordBackendConformance({
  name: 'document task-record backend on the git store',
  runner: { describe, it, expect, beforeEach, afterEach },
  createBackend: async () => {
    const store = await openGitStore({ dir: await freshRepository() });
    const backend = createDocumentTaskRecordBackend(store);
    open.set(backend, store);
    return backend;
  },
  teardown: async (backend) => {
    const store = open.get(backend);
    open.delete(backend);
    if (store === undefined) return;
    await store.close();
    fsckStrict(store.dir);
    await removeDirectory(store.dir);
  },
});
