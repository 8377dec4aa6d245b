// Why: verified memories can live on the memory branch (core's document record backend over the
// git store); the record suite, branch scope and the learned-on fields included, must pass there
// as on every store, and leave a repository the git CLI accepts.
import { createDocumentRecordBackend, type VerifiedMemoryBackend } from '@repomem/core';
import { runRecordBackendConformance } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GitStore, openGitStore } from '../src/index.js';
import { freshRepository, fsckStrict, removeDirectory } from './support.js';

const open = new Map<VerifiedMemoryBackend, GitStore>();

runRecordBackendConformance({
  name: 'document record backend on the git store',
  runner: { describe, it, expect, beforeEach, afterEach },
  createBackend: async () => {
    const store = await openGitStore({ dir: await freshRepository() });
    const backend = createDocumentRecordBackend(store);
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
  timeoutMs: 60_000,
});
