import { runStoreConformance } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDirectoryStore } from '../src/index.js';
import { freshDirectory, listRaw, readRaw, removeDirectory } from './support.js';

runStoreConformance({
  name: 'directory store conformance',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => openDirectoryStore({ root: await freshDirectory() }),
  openAnother: (store) => openDirectoryStore({ root: store.root, stateDir: store.stateDir }),
  teardown: async (store) => {
    await removeDirectory(store.root);
    await removeDirectory(store.stateDir);
  },
  rawRead: (store, path) => readRaw(store.root, path),
  rawList: (store) => listRaw(store.root),
});
