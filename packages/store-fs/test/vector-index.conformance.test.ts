// Why: vectors are kept with the memory as documents under `.repomem/vectors/`; the directory
// store must round-trip their binary shards and compare-and-swap merges like any document.
import type { MemoryStore } from '@repomem/core';
import { runVectorIndexConformance } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDirectoryStore } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

const roots = new Map<MemoryStore, string>();

runVectorIndexConformance({
  name: 'vector index on the directory store',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => {
    const root = await freshDirectory('repomem-vectors-');
    const store = await openDirectoryStore({ root });
    roots.set(store, root);
    return store;
  },
  teardown: async (store) => {
    const root = roots.get(store);
    roots.delete(store);
    if (root !== undefined) await removeDirectory(root);
  },
});
