// Why: the git branch as a kit driver keeps the kit's promises (exact bytes, ordered scans,
// namespaces apart, compare-and-swap races with one winner, atomic batches, a revision token, a
// native twin lookup), with its own versions (blob and commit ids) read through the suite's label
// view; then every store and record suite runs on `createStore(driver)` over a real repository.
import { runDriverConformance } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitDriver, type GitDriver } from '../src/index.js';
import { freshRepository, fsckStrict, removeDirectory } from './support.js';

runDriverConformance<GitDriver>({
  name: 'git driver',
  runner: { describe, it, expect, beforeEach, afterEach },
  createDriver: async () => createGitDriver({ dir: await freshRepository() }),
  openAnother: (driver) => createGitDriver({ dir: driver.dir, branch: driver.branch }),
  teardown: async (driver) => {
    fsckStrict(driver.dir);
    await removeDirectory(driver.dir);
  },
});
