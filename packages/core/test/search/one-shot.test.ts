// Why: the one-shot search (`searchOnce`, and `searchDocuments`, which share the query-focused
// analysis) skips work the query cannot need; these tests pin that it still answers exactly like
// the naive full scan, on hand-picked edge cases (prefixes, words matching several terms, astral
// and unspaced scripts, JSON escapes, invalid JSON, over-long words, phrases) and on random trees.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SearchEngine } from '../../src/search/engine.js';
import { createInMemoryStore } from '../../src/store/memory-store.js';

const engine = new SearchEngine();

const DOCUMENTS: Record<string, string> = {
  'MEMORY.md': '# Memory\n\n## Durable\n- Tests run with `pnpm test`; testing needs Node 24.\n- CI: ci-only flags.\n',
  'notes/tests.md': 'tests tests TESTS test-suite\nretest pretest attest\n',
  'daily/2026-03-01.md': '- Fixed the flaky test in memory branch\n- memory   branch handoff\n',
  'github/issue-87.json': JSON.stringify({
    title: 'Issue 87: memory branch',
    body: 'caf\u00e9 \u4e2d\u6587\u8a18\u61b6 test',
  }),
  'github/escaped.json': '{"title": "T\\u0045ST escaped \\u0074ests", "body": "line\\nsecond\\ttab", "n": 1.5e3}',
  'github/invalid.json': '{"title": "broken test", ',
  'astral.md': 'word\u{1d400}test \u{1d400}\u{1d401} test\u{1f600}tests\nΣίσυφος ΣΊΣΥΦΟΣ İstanbul\n',
  'long.md': `${'x'.repeat(150)} test ${'t'.repeat(120)}\nrocket launch rocket\n`,
  'cjk.md': '記憶の仕組み 中文記憶測試\n',
  'empty.md': '',
  'binary.bin': '\u0000\u0001',
};

const QUERIES = [
  'test',
  'tests',
  'test tests testing',
  'ci',
  'memory branch',
  'Memory   Branch handoff',
  'issue 87',
  '87',
  'tested',
  'escaped tests',
  'TEST',
  'broken',
  '記憶',
  '中文',
  'σίσυφος',
  'istanbul',
  'xxx',
  'tttt',
  'rocket launch',
  'c++',
  '記 憶',
  'nothing-matches-this',
  '',
];

describe('one-shot search', () => {
  it('answers exactly like the naive scan and the index on edge cases', async () => {
    const store = createInMemoryStore({ initialDocuments: DOCUMENTS });
    const documents = Object.entries(DOCUMENTS).map(([path, content]) => ({ path, content }));
    for (const query of QUERIES) {
      for (const options of [{ limit: 20, snippets: 5 }, { limit: 2 }, { prefix: 'github/' }]) {
        const naive = await engine.searchNaive(store, query, options);
        expect(await engine.searchOnce(store, query, options), query).toEqual(naive);
        expect(engine.searchDocuments(documents, query, options), query).toEqual(naive);
        expect(await engine.search(store, query, options), query).toEqual(naive);
      }
    }
  });

  it('still finds matches and counts every document', async () => {
    const store = createInMemoryStore({ initialDocuments: DOCUMENTS });
    const response = await engine.searchOnce(store, 'test', { limit: 50 });
    expect(response.documentCount).toBe(10);
    expect(response.results.map((hit) => hit.path)).toContain('notes/tests.md');
    expect(response.results.map((hit) => hit.path)).not.toContain('cjk.md');
  });

  it('rejects bad options like search', async () => {
    const store = createInMemoryStore({ initialDocuments: DOCUMENTS });
    await expect(engine.searchOnce(store, 'test', { limit: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('agrees with the naive scan on random trees and queries', async () => {
    const piece = fc.constantFrom(
      'test',
      'tests',
      'Test',
      'te',
      'st',
      'a',
      '1',
      '42',
      'memory',
      'Memóry',
      'σ',
      'Σ',
      'ς',
      '記憶',
      '\u{1d400}',
      '\u0301',
      'İ',
      ' ',
      ' ',
      '-',
      '\n',
      '\\n',
      '"',
      '{',
      '}',
      ':',
    );
    const text = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));
    const tree = fc.dictionary(fc.constantFrom('a.md', 'b.md', 'Tests.md', 'c.json', 'd.json', 'x/test-1.json'), text, {
      minKeys: 1,
    });
    const query = fc.array(piece, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(''));
    await fc.assert(
      fc.asyncProperty(tree, query, async (files, q) => {
        const documents = { ...files };
        // Some JSON documents are valid JSON with the random text as a value.
        if (documents['d.json'] !== undefined) documents['d.json'] = JSON.stringify({ body: documents['d.json'] });
        const store = createInMemoryStore({ initialDocuments: documents });
        const naive = await engine.searchNaive(store, q, { limit: 10 });
        expect(await engine.searchOnce(store, q, { limit: 10 })).toEqual(naive);
      }),
      { numRuns: 300, seed: 20260301 },
    );
  });
});
