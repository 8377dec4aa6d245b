// Why: vectors are kept with the memory as documents under `.repomem/vectors/`; the SQLite store
// must keep their binary shards beside the memory and never index them for search.
import { join } from 'node:path';
import type { MemoryStore } from '@repomem/core';
import { runVectorIndexConformance } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

const dirs = new Map<MemoryStore, string>();

runVectorIndexConformance({
  name: 'vector index on the SQLite store',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => {
    const dir = await freshDirectory('repomem-sqlite-vectors-');
    const store = await openSqliteStore({ path: join(dir, 'memory.db'), repo: 'acme/app' });
    dirs.set(store, dir);
    return store;
  },
  teardown: async (store) => {
    const dir = dirs.get(store);
    dirs.delete(store);
    if (dir !== undefined) await removeDirectory(dir);
  },
});
