// Why: the directory store runs core's hardening suite (paths git refuses, verified records kept
// out of document search, bounded queries, bullet text rules) on real files.
import { runStoreHardening } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDirectoryStore } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

runStoreHardening({
  name: 'directory store hardening',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => openDirectoryStore({ root: await freshDirectory() }),
  teardown: async (store) => {
    await removeDirectory(store.root);
    await removeDirectory(store.stateDir);
  },
});
