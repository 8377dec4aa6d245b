// Why: task memory on the memory branch: the seed's contradiction scenarios (Jest then Vitest,
// scoped module rules) and its error-handling table, row by row, on a real git repository.
import { runTaskMemoryScenarios } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GitStore, openGitStore } from '../src/index.js';
import { freshRepository, fsckStrict, removeDirectory } from './support.js';

runTaskMemoryScenarios<GitStore>({
  name: 'task memory scenarios on the git store',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => openGitStore({ dir: await freshRepository() }),
  teardown: async (store) => {
    fsckStrict(store.dir);
    await removeDirectory(store.dir);
  },
});
