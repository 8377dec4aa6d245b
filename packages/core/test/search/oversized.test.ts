// Why: a document over 512 KiB is not searched, and search must say so rather than drop it
// silently (one large bullet used to hide a whole file). These tests pin the `skipped` list on
// every search path core has (one-shot, cached, naive, a store's candidates, a store that returns
// readAll's documents instead of streaming them), and that results are otherwise unchanged.
import { describe, expect, it } from 'vitest';
import { SearchEngine } from '../../src/search/engine.js';
import { searchStore } from '../../src/search/search-store.js';
import type { MemoryStore, ReadAllOptions, StoredDocument } from '../../src/store/contract.js';
import { createInMemoryStore } from '../../src/store/memory-store.js';

const BIG = `- ${'needle '.repeat(100_000)}\n`;
const DOCUMENTS: Record<string, string> = {
  'MEMORY.md': '# Memory\n- the needle is here\n',
  'daily/2026-05-01.md': '- another needle\n',
  'knowledge/huge.md': BIG,
  'daily/huge.md': BIG,
};
const SMALL: Record<string, string> = Object.fromEntries(
  Object.entries(DOCUMENTS).filter(([path]) => !path.endsWith('huge.md')),
);

/** The in-memory store with a readAll that returns every document (it ignores `each`). */
function withArrayReadAll(inner: MemoryStore): MemoryStore {
  return {
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
      const documents: StoredDocument[] = [];
      for (const entry of await inner.list(options.prefix)) {
        if (options.accept !== undefined && !options.accept(entry.path, entry.size)) continue;
        const document = await inner.get(entry.path);
        if (document !== undefined) documents.push(document);
      }
      return documents;
    },
  };
}

const skipped = [
  { path: 'daily/huge.md', reason: 'too-large', bytes: BIG.length },
  { path: 'knowledge/huge.md', reason: 'too-large', bytes: BIG.length },
];

describe('documents over 512 KiB', () => {
  it('are listed in `skipped` by every search path, sorted by path, and the rest ranks as without them', async () => {
    const store = createInMemoryStore({ initialDocuments: DOCUMENTS });
    const small = createInMemoryStore({ initialDocuments: SMALL });
    const engine = new SearchEngine();
    const cached = new SearchEngine();
    const { skipped: _none, ...expected } = await engine.searchNaive(small, 'needle');
    for (const [label, response] of [
      ['one-shot', await engine.searchOnce(store, 'needle')],
      ['one-shot, readAll returning documents', await engine.searchOnce(withArrayReadAll(store), 'needle')],
      ['naive', await engine.searchNaive(store, 'needle')],
      ['cached', await searchStore(store, 'needle', { engine: cached })],
      ['cached again', await searchStore(store, 'needle', { engine: cached })],
      ['searchStore', await searchStore(store, 'needle')],
    ] as const) {
      expect(response.skipped, label).toEqual(skipped);
      const { skipped: _skipped, ...rest } = response;
      expect(rest, label).toEqual(expected);
    }
  });

  it('are listed only within the prefix, and not at all when none is in scope', async () => {
    const store = createInMemoryStore({ initialDocuments: DOCUMENTS });
    expect((await searchStore(store, 'needle', { prefix: 'daily/' })).skipped).toEqual([skipped[0]]);
    expect((await searchStore(store, 'needle', { prefix: 'MEMORY' })).skipped).toBeUndefined();
    expect('skipped' in (await searchStore(createInMemoryStore({ initialDocuments: SMALL }), 'needle'))).toBe(false);
  });

  it('leave the cached engine’s list when they shrink or are deleted', async () => {
    const store = createInMemoryStore({ initialDocuments: DOCUMENTS });
    const engine = new SearchEngine();
    expect((await engine.search(store, 'needle')).skipped).toEqual(skipped);
    await store.write([
      { kind: 'put', path: 'daily/huge.md', content: new TextEncoder().encode('- small needle\n') },
      { kind: 'delete', path: 'knowledge/huge.md' },
    ]);
    const after = await engine.search(store, 'needle');
    expect(after.skipped).toBeUndefined();
    expect(after.results.map((hit) => hit.path)).toContain('daily/huge.md');
  });

  it('are reported for a store answering candidates from its own index', async () => {
    const inner = createInMemoryStore({ initialDocuments: DOCUMENTS });
    const withIndex: MemoryStore = {
      ...withArrayReadAll(inner),
      searchCandidates: async () => {
        const candidates = [];
        let totalLength = 0;
        let documentCount = 0;
        for (const entry of await inner.list()) {
          if (entry.size > 512 * 1024) continue;
          documentCount++;
          const document = await inner.get(entry.path);
          const text = new TextDecoder().decode(document?.content);
          totalLength += text.split(/[^\p{L}\p{N}\p{M}]+/u).filter(Boolean).length;
          if (text.includes('needle')) candidates.push({ path: entry.path, score: 1 });
        }
        return { status: 'candidates', candidates, complete: true, corpus: { documentCount, totalLength } };
      },
    };
    const response = await searchStore(withIndex, 'needle');
    expect(response.skipped).toEqual(skipped);
    expect(response.results.map((hit) => hit.path).sort()).toEqual(['MEMORY.md', 'daily/2026-05-01.md']);
  });
});
