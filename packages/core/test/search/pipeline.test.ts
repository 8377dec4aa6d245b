// Why: the engine's one pipeline must do only the work a query needs: a first query reads only
// the documents a store's candidate index names, the index is completed by one listing once it
// holds half the corpus, and from then on a query on an unchanged store asks only the revision
// (no candidates, no listing, no reads); a write costs one listing and one read. Results equal
// the naive reference scan throughout. A real in-memory store with a real (substring) candidate
// index around it observes the calls.
import { describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/index.js';
import { SearchEngine } from '../../src/search/engine.js';
import { searchableLength } from '../../src/search/search-store.js';
import type { MemoryStore, StoredDocument } from '../../src/store/contract.js';
import type { SearchCandidateQuery, SearchCandidates } from '../../src/store/search-contract.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface Calls {
  candidates: number;
  lists: number;
  reads: string[];
}

/** The in-memory store with a complete candidate index: every document holding a term's text. */
function withCandidates(inner: MemoryStore, calls: Calls): MemoryStore {
  return {
    specificationVersion: inner.specificationVersion,
    name: 'candidates',
    capabilities: inner.capabilities,
    state: inner.state,
    get: async (path): Promise<StoredDocument | undefined> => {
      calls.reads.push(path);
      return inner.get(path);
    },
    list: async (prefix) => {
      calls.lists++;
      return inner.list(prefix);
    },
    write: (operations, metadata) => inner.write(operations, metadata),
    revision: () => inner.revision(),
    close: () => inner.close(),
    searchCandidates: async (query: SearchCandidateQuery): Promise<SearchCandidates> => {
      calls.candidates++;
      const candidates = [];
      let documentCount = 0;
      let totalLength = 0;
      for (const entry of await inner.list(query.prefix)) {
        const document = await inner.get(entry.path);
        if (document === undefined) continue;
        const length = searchableLength(entry.path, document.content);
        if (length === undefined) continue;
        documentCount++;
        totalLength += length;
        const text = `${entry.path}\n${decoder.decode(document.content)}`.toLowerCase();
        if (query.terms.some((term) => text.includes(term.text))) {
          candidates.push({ path: entry.path, score: 1, version: entry.version });
        }
      }
      return {
        status: 'candidates',
        candidates,
        complete: true,
        corpus: { documentCount, totalLength },
        oversized: [],
      };
    },
  };
}

const documents: Record<string, string> = {};
for (let index = 0; index < 40; index++) {
  documents[`notes/note-${index}.md`] = `- note ${index} about ${index % 2 === 0 ? 'deploy policies' : 'cache keys'}\n`;
}
documents['MEMORY.md'] = '- The release policy: deploying needs a review.\n';

describe('the engine pipeline', () => {
  it('reads only candidates first, completes its index once, then answers from it alone', async () => {
    const inner = createInMemoryStore({ initialDocuments: documents });
    const reference = createInMemoryStore({ initialDocuments: documents });
    const calls: Calls = { candidates: 0, lists: 0, reads: [] };
    const store = withCandidates(inner, calls);
    const engine = new SearchEngine();
    const naive = new SearchEngine();

    expect(await engine.search(store, 'release')).toEqual(await naive.searchNaive(reference, 'release'));
    expect(calls).toEqual({ candidates: 1, lists: 0, reads: ['MEMORY.md'] });

    // Half the corpus is read by this query (the deploy notes and MEMORY.md).
    expect(await engine.search(store, 'deployed policy')).toEqual(
      await naive.searchNaive(reference, 'deployed policy'),
    );
    expect(calls.candidates).toBe(2);
    expect(calls.lists).toBe(0);
    expect(calls.reads).toHaveLength(21);

    // The index holds half the corpus: one listing completes it (reading only the rest).
    expect(await engine.search(store, 'cached key')).toEqual(await naive.searchNaive(reference, 'cached key'));
    expect(calls.candidates).toBe(2);
    expect(calls.lists).toBe(1);
    expect(new Set(calls.reads).size).toBe(41);
    expect(calls.reads).toHaveLength(41);

    // Unchanged store: the index answers alone.
    for (const query of ['policy', 'deploying reviews', 'note 7', 'cache']) {
      expect(await engine.search(store, query)).toEqual(await naive.searchNaive(reference, query));
    }
    expect(calls.candidates).toBe(2);
    expect(calls.lists).toBe(1);
    expect(calls.reads).toHaveLength(41);

    // A write: one listing, one read.
    const edit = '- The release policy: deploying needs two reviews.\n';
    await inner.write([{ kind: 'put', path: 'MEMORY.md', content: encoder.encode(edit) }]);
    await reference.write([{ kind: 'put', path: 'MEMORY.md', content: encoder.encode(edit) }]);
    expect(await engine.search(store, 'reviewed')).toEqual(await naive.searchNaive(reference, 'reviewed'));
    expect(calls.lists).toBe(2);
    expect(calls.reads.slice(41)).toEqual(['MEMORY.md']);
    expect(calls.candidates).toBe(2);
  });
});
