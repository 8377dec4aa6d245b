// Why: a document that matches only by its path gets Sepo's one snippet
// `{ lineNumber: 0, text: "(matched by filename)" }` on every search path (the engine over
// documents and searchStore over a store), never an empty snippet list.
import { describe, expect, it } from 'vitest';
import { SearchEngine } from '../../src/search/engine.js';
import { FILENAME_MATCH_TEXT } from '../../src/search/index.js';
import { searchStore } from '../../src/search/search-store.js';
import { createInMemoryStore } from '../../src/store/memory-store.js';

const DOCUMENTS = [
  { path: 'github/pull-209.json', content: '{"title": "Fix the flaky test", "body": "nothing else"}' },
  { path: 'notes/pull-requests.md', content: '- Open a pull request after tests pass\n' },
];

describe('filename-only matches', () => {
  it('get the filename snippet from the engine', () => {
    const response = new SearchEngine().searchDocuments(DOCUMENTS, 'pull');
    const hit = response.results.find((result) => result.path === 'github/pull-209.json');
    expect(hit?.snippets).toEqual([{ lineNumber: 0, text: FILENAME_MATCH_TEXT, score: hit?.score, matchCount: 1 }]);
    expect(FILENAME_MATCH_TEXT).toBe('(matched by filename)');
    // A body match keeps its real lines.
    const body = response.results.find((result) => result.path === 'notes/pull-requests.md');
    expect(body?.snippets[0]?.lineNumber).toBe(1);
  });

  it('get the filename snippet through searchStore, and none when snippets are off', async () => {
    const store = createInMemoryStore();
    await store.write(
      DOCUMENTS.map((document) => ({
        kind: 'put' as const,
        path: document.path,
        content: new TextEncoder().encode(document.content),
      })),
    );
    const response = await searchStore(store, 'pull');
    const hit = response.results.find((result) => result.path === 'github/pull-209.json');
    expect(hit?.snippets.map((snippet) => [snippet.lineNumber, snippet.text])).toEqual([[0, FILENAME_MATCH_TEXT]]);
    const none = await searchStore(store, 'pull', { snippets: 0 });
    expect(none.results.every((result) => result.snippets.length === 0)).toBe(true);
  });
});
