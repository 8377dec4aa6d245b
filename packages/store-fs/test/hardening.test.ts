// Why: the directory store runs core's hardening suite (paths git refuses, verified records kept
// out of document search, bounded queries, bullet text rules) on real files.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { searchStore } from '@repomem/core';
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

describe('files under names core refuses, put there by hand', () => {
  it('are not listed (so never searched or read back), and ordinary files still are', async () => {
    const root = await freshDirectory();
    try {
      for (const path of ['.gitattributes', '.GIT/config', 'notes/git~1/x.md', 'Node_Modules/y.md', 'notes/ok.md']) {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), 'zebra\n');
      }
      const store = await openDirectoryStore({ root });
      expect((await store.list()).map((entry) => entry.path)).toEqual(['notes/ok.md']);
      expect((await searchStore(store, 'zebra')).results.map((hit) => hit.path)).toEqual(['notes/ok.md']);
      await store.close();
    } finally {
      await removeDirectory(root);
    }
  });
});
