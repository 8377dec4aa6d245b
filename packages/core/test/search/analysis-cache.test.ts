// Why: the one-shot search's on-disk analysis cache must never change an answer. These tests run
// the same queries with and without a cache (in memory here; store-fs tests the file) over a
// store whose readAll offers stamps, across edits and deletions, and check that a corrupted or
// truncated cache is ignored, that an unchanged tree does not rewrite it, and that documents
// known from the cache are not read again.
import { describe, expect, it } from 'vitest';
import {
  AnalysisCacheBuilder,
  type AnalysisCacheStorage,
  deserializeAnalysisCache,
} from '../../src/search/analysis-cache.js';
import { SearchEngine } from '../../src/search/engine.js';
import { searchStore } from '../../src/search/search-store.js';
import type { MemoryStore, ReadAllOptions } from '../../src/store/contract.js';
import { createInMemoryStore } from '../../src/store/memory-store.js';
import { SEARCH_PARITY_DOCUMENTS, SEARCH_PARITY_QUERIES } from '../../src/testing/conformance-search.js';

/** An in-memory store whose readAll streams and offers each document's version as its stamp. */
function stampedStore(inner: MemoryStore): MemoryStore & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    specificationVersion: inner.specificationVersion,
    name: inner.name,
    capabilities: inner.capabilities,
    state: inner.state,
    get: (path) => inner.get(path),
    list: (prefix) => inner.list(prefix),
    write: (operations) => inner.write(operations),
    revision: () => inner.revision(),
    close: () => inner.close(),
    readAll: async (options: ReadAllOptions = {}) => {
      for (const entry of await inner.list(options.prefix)) {
        if (options.accept !== undefined && !options.accept(entry.path, entry.size)) continue;
        if (options.known?.(entry.path, entry.version) === true) continue;
        const document = await inner.get(entry.path);
        if (document === undefined) continue;
        reads.push(entry.path);
        options.each?.(document, document.version);
      }
      return [];
    },
  };
}

function memoryStorage(): AnalysisCacheStorage & { bytes: Uint8Array | undefined; saves: number } {
  const storage = {
    bytes: undefined as Uint8Array | undefined,
    saves: 0,
    load: async () => storage.bytes,
    save: async (bytes: Uint8Array) => {
      storage.bytes = bytes;
      storage.saves++;
    },
  };
  return storage;
}

const QUERIES = [...SEARCH_PARITY_QUERIES.map(([query]) => query), 'pull request 209', 'test guide', '東京 タワー'];

describe('the one-shot search analysis cache', () => {
  it('answers every query exactly as without a cache, first and later, and reads only changed documents', async () => {
    const inner = createInMemoryStore({ initialDocuments: SEARCH_PARITY_DOCUMENTS });
    const store = stampedStore(inner);
    const storage = memoryStorage();
    const engine = new SearchEngine();
    const check = async () => {
      for (const query of QUERIES) {
        for (const options of [{}, { limit: 20, snippets: 10 }]) {
          const expected = await engine.searchNaive(inner, query, options);
          expect(await searchStore(store, query, { ...options, analysisCache: storage }), query).toEqual(expected);
        }
      }
    };
    // The first query only marks the tree as seen (an empty cache): a single search builds nothing.
    await searchStore(store, 'pnpm test', { analysisCache: storage });
    expect(storage.saves).toBe(1);
    expect(deserializeAnalysisCache(storage.bytes as Uint8Array)?.documents).toEqual([]);
    await check();
    expect(storage.saves).toBe(2);
    await check();
    expect(storage.saves).toBe(2); // unchanged: not rewritten
    // Word queries over the whole store read nothing in a pass (only a phrase candidate is read
    // to check the phrase); substring and prefix queries read the documents as without a cache.
    store.reads.length = 0;
    for (const query of ['test', 'pnpm', 'release workflow', '東京', 'testing guide']) {
      await searchStore(store, query, { analysisCache: storage });
    }
    expect(store.reads).toEqual([]);
    await inner.write([
      { kind: 'put', path: 'knowledge/deploy.md', content: new TextEncoder().encode('Deploy tests need pnpm test\n') },
      { kind: 'delete', path: 'notes/testing-guide.md' },
      { kind: 'put', path: 'notes/new.md', content: new TextEncoder().encode('A new guide to testing\n') },
    ]);
    store.reads.length = 0;
    await searchStore(store, 'test', { analysisCache: storage });
    expect(new Set(store.reads)).toEqual(new Set(['knowledge/deploy.md', 'notes/new.md']));
    expect(storage.saves).toBe(3);
    await check();
  });

  it('ignores a corrupted, truncated or foreign cache and replaces it', async () => {
    const inner = createInMemoryStore({ initialDocuments: SEARCH_PARITY_DOCUMENTS });
    const store = stampedStore(inner);
    const storage = memoryStorage();
    await searchStore(store, 'test', { analysisCache: storage });
    const good = storage.bytes as Uint8Array;
    const expected = await new SearchEngine().searchNaive(inner, 'pnpm test');
    const corruptions = [
      good.slice(0, good.byteLength - 3),
      good.slice(0, 20),
      new Uint8Array(0),
      new TextEncoder().encode('not a cache at all'),
      (() => {
        const flipped = good.slice();
        flipped[good.byteLength - 1] = 0xff; // a posting or filter value out of range
        flipped[40] = 0x7b;
        return flipped;
      })(),
    ];
    for (const bytes of corruptions) {
      storage.bytes = bytes;
      expect(await searchStore(store, 'pnpm test', { analysisCache: storage })).toEqual(expected);
      expect(deserializeAnalysisCache(storage.bytes as Uint8Array)).toBeDefined();
    }
    const failing: AnalysisCacheStorage = {
      load: async () => {
        throw new Error('unreadable');
      },
      save: async () => {
        throw new Error('read-only');
      },
    };
    expect(await searchStore(store, 'pnpm test', { analysisCache: failing })).toEqual(expected);
  });

  it('round-trips what it is built from', () => {
    const builder = new AnalysisCacheBuilder();
    builder.add('a.md', 's1', {
      text: { path: 'a.md', lines: '', lineNumbers: [], fields: undefined },
      length: 3,
      words: new Map([
        ['beta', 2],
        ['alpha', 1],
      ]),
      pathWords: new Map(),
      pairFilter: new Uint32Array([7, 9]),
    });
    builder.add('bin.dat', 's2', undefined);
    const data = deserializeAnalysisCache(builder.serialize());
    expect(data?.documents).toEqual([
      { path: 'a.md', stamp: 's1', length: 3 },
      { path: 'bin.dat', stamp: 's2', length: -1 },
    ]);
    expect(data?.words).toEqual(['alpha', 'beta']);
    expect([...(data?.postings ?? [])]).toEqual([0, 1, 0, 2]);
    expect([...(data?.filters ?? [])]).toEqual([7, 9]);
  });
});
