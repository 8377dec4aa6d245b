import { runStoreConformance } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openGitStore } from '../src/index.js';
import { freshRepository, fsckStrict, rawAccess, removeDirectory } from './support.js';

runStoreConformance({
  name: 'git store conformance (object mode)',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => openGitStore({ dir: await freshRepository() }),
  openAnother: (store) => openGitStore({ dir: store.dir, branch: store.branch }),
  teardown: async (store) => {
    // Every conformance test must leave a repository the git CLI accepts as-is.
    fsckStrict(store.dir);
    await removeDirectory(store.dir);
  },
  ...rawAccess(),
});
