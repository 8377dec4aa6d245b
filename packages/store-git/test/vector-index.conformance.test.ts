// Why: on the memory branch, vectors travel with the memory (a CI runner that fetches the branch
// re-embeds nothing): shards are blobs committed like any document, in batches of one commit.
import { runVectorIndexConformance } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GitStore, openGitStore } from '../src/index.js';
import { freshRepository, fsckStrict, removeDirectory } from './support.js';

runVectorIndexConformance<GitStore>({
  name: 'vector index on the git store',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => openGitStore({ dir: await freshRepository() }),
  teardown: async (store) => {
    fsckStrict(store.dir);
    await removeDirectory(store.dir);
  },
});
