// Why: `repomem search --dir` keeps an analysis cache between processes. It must live outside
// the memory tree, give byte-identical answers with or without it (also after edits), survive a
// corrupted file, and be written atomically so concurrent searches never see half of it.
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SearchEngine, searchStore } from '@repomem/core';
import { SEARCH_PARITY_DOCUMENTS, SEARCH_PARITY_QUERIES } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type DirectoryStore,
  MAX_CACHE_FILES,
  openDirectoryStore,
  searchCacheDirectory,
  searchCacheFile,
} from '../src/index.js';
import { freshDirectory, removeDirectory, writeTree } from './support.js';

let workspace: string;
let root: string;
let store: DirectoryStore;
let env: { XDG_CACHE_HOME: string };

beforeEach(async () => {
  workspace = await freshDirectory('repomem-search-cache-');
  root = join(workspace, 'memory');
  await writeTree(root, SEARCH_PARITY_DOCUMENTS);
  env = { XDG_CACHE_HOME: join(workspace, 'cache-home') };
  store = await openDirectoryStore({ root });
});

afterEach(async () => {
  await store.close();
  await removeDirectory(workspace);
});

/** Every query, with the file cache and through core's reference scan. */
async function expectSameAnswers(): Promise<void> {
  const engine = new SearchEngine();
  const analysisCache = searchCacheFile(store.root, env);
  for (const [query, options] of SEARCH_PARITY_QUERIES) {
    const expected = await engine.searchNaive(store, query, options);
    expect(await searchStore(store, query, { ...options, analysisCache }), query).toEqual(expected);
  }
}

describe('the directory search cache file', () => {
  it('lives in $XDG_CACHE_HOME/repomem/search, never in the tree, and is off with REPOMEM_SEARCH_CACHE=off', async () => {
    expect(searchCacheDirectory(env)).toBe(join(env.XDG_CACHE_HOME, 'repomem', 'search'));
    expect(searchCacheFile(store.root, { ...env, REPOMEM_SEARCH_CACHE: 'off' })).toBeUndefined();
    await searchStore(store, 'test', { analysisCache: searchCacheFile(store.root, env) });
    expect((await store.list()).map((entry) => entry.path)).toEqual(Object.keys(SEARCH_PARITY_DOCUMENTS).sort());
    expect(searchCacheDirectory(env).startsWith(root)).toBe(false);
  });

  it('keeps at most MAX_CACHE_FILES caches, removing the least recently written', async () => {
    const directory = searchCacheDirectory(env);
    for (let index = 0; index < MAX_CACHE_FILES + 3; index++) {
      await searchCacheFile(`/nowhere/tree-${index}`, env)?.save(new Uint8Array([index]));
    }
    const names = await readdir(directory);
    expect(names).toHaveLength(MAX_CACHE_FILES);
    expect(await searchCacheFile(`/nowhere/tree-${MAX_CACHE_FILES + 2}`, env)?.load()).toEqual(
      new Uint8Array([MAX_CACHE_FILES + 2]),
    );
  });

  it('gives the same answers with or without it, before and after files age past the stamp window and change', async () => {
    await expectSameAnswers();
    // Stamps are trusted once a file is older than the timestamp granularity (2 s).
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await expectSameAnswers(); // writes the cache (files just written are never cached)
    const [name, ...others] = await readdir(searchCacheDirectory(env));
    expect(others).toEqual([]);
    const cacheFile = join(searchCacheDirectory(env), name as string);
    const written = await readFile(cacheFile);
    await expectSameAnswers(); // from the cache
    expect(await readFile(cacheFile)).toEqual(written); // unchanged tree: not rewritten
    await writeFile(join(root, 'knowledge', 'deploy.md'), 'Deploys need pnpm test first\n');
    await utimes(join(root, 'PROJECT.md'), new Date(), new Date());
    await expectSameAnswers();
    // A corrupted cache is ignored (and replaced).
    await writeFile(cacheFile, written.subarray(0, written.byteLength >> 1));
    await expectSameAnswers();
    // Concurrent searches write atomically: no temp file is left, and the cache stays valid.
    await writeFile(cacheFile, 'garbage');
    const analysisCache = searchCacheFile(store.root, env);
    await Promise.all(Array.from({ length: 6 }, () => searchStore(store, 'pnpm test', { analysisCache })));
    expect(await readdir(searchCacheDirectory(env))).toEqual([name]);
    await expectSameAnswers();
  }, 20_000);
});
