import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDirectoryStore } from '../../src/index.js';
import { runStoreConformance } from '../../src/testing/index.js';
import { freshDirectory, listRaw, readRaw, removeDirectory } from './support.js';

runStoreConformance({
  name: 'directory store conformance',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => openDirectoryStore({ root: await freshDirectory() }),
  teardown: (store) => removeDirectory(store.root),
  rawRead: (store, path) => readRaw(store.root, path),
  rawList: (store) => listRaw(store.root),
});
