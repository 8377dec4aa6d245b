// Why: the ranking properties that fix Sepo's substring scoring: word boundaries, prefix
// matches at reduced weight, IDF, saturation, the path boost, the phrase bonus, no double
// counting of single-term queries, deterministic ties, and the response shape.
import { describe, expect, it } from 'vitest';
import { isRepomemError } from '../../src/errors.js';
import { type SearchableDocument, SearchEngine } from '../../src/search/engine.js';

const engine = new SearchEngine();
const paths = (documents: SearchableDocument[], query: string, limit = 10) =>
  engine.searchDocuments(documents, query, { limit }).results.map((hit) => hit.path);
const filler = (count: number) =>
  Array.from({ length: count }, (_, index) => `- unrelated note number ${index}`).join('\n');

describe('ranking', () => {
  it('matches whole words: cat does not match concatenate', () => {
    const documents = [
      { path: 'a.md', content: 'We concatenate strings.' },
      { path: 'b.md', content: 'The cat sat.' },
    ];
    expect(paths(documents, 'cat')).toEqual(['b.md']);
  });

  it('matches word prefixes at a reduced weight (test -> tests), exact words first', () => {
    const documents = [
      { path: 'a.md', content: 'Run the tests before merging.' },
      { path: 'b.md', content: 'Run the test before merging.' },
      { path: 'c.md', content: 'A contest of wills.' },
    ];
    const response = engine.searchDocuments(documents, 'test');
    expect(response.results.map((hit) => hit.path)).toEqual(['b.md', 'a.md']);
    expect((response.results[0]?.score ?? 0) > (response.results[1]?.score ?? 0)).toBe(true);
  });

  it('does not prefix-match two-letter terms or numbers', () => {
    const documents = [
      { path: 'a.md', content: 'circle city' },
      { path: 'b.md', content: 'issue 123' },
      { path: 'c.md', content: 'issue 12 and ci' },
    ];
    expect(paths(documents, 'ci')).toEqual(['c.md']);
    expect(paths(documents, '12')).toEqual(['c.md']);
  });

  it('weighs rare terms above common ones (IDF)', () => {
    const documents = [
      { path: 'common.md', content: 'memory memory memory notes' },
      { path: 'rare.md', content: 'zeppelin notes' },
      ...Array.from({ length: 8 }, (_, index) => ({ path: `other-${index}.md`, content: 'memory is everywhere' })),
    ];
    expect(paths(documents, 'memory zeppelin')[0]).toBe('rare.md');
  });

  it('saturates repeats: 500 copies of one term lose to a document matching every term', () => {
    const documents = [
      { path: 'spam.md', content: 'alpha '.repeat(500) },
      { path: 'both.md', content: 'alpha and beta together' },
      { path: 'beta-only.md', content: 'just beta' },
      { path: 'other.md', content: 'nothing relevant' },
    ];
    expect(paths(documents, 'alpha beta')[0]).toBe('both.md');
  });

  it('boosts documents whose path holds a term', () => {
    const documents = [
      { path: 'notes/general.md', content: 'the orchestrator plans work' },
      { path: 'notes/orchestrator.md', content: 'the orchestrator plans work' },
      { path: 'notes/other.md', content: 'unrelated' },
    ];
    expect(paths(documents, 'orchestrator')).toEqual(['notes/orchestrator.md', 'notes/general.md']);
    expect(paths(documents, 'plans orchestrator')).toEqual(['notes/orchestrator.md', 'notes/general.md']);
  });

  it('finds documents by path alone, e.g. an issue number', () => {
    const documents = [
      { path: 'github/acme/rocket/issue-42.json', content: JSON.stringify({ title: 'Flaky upload' }) },
      { path: 'github/acme/rocket/issue-43.json', content: JSON.stringify({ title: 'Flaky download' }) },
    ];
    const response = engine.searchDocuments(documents, 'issue 42');
    expect(response.results[0]?.path).toBe('github/acme/rocket/issue-42.json');
    expect(response.results[0]?.matchedTerms).toEqual(['issue', '42']);
  });

  it('gives a bonus to a line holding the whole phrase', () => {
    const documents = [
      { path: 'a.md', content: `- the branch of memory\n${filler(3)}` },
      { path: 'b.md', content: `- the memory branch\n${filler(3)}` },
      { path: 'c.md', content: filler(3) },
    ];
    const response = engine.searchDocuments(documents, 'Memory   Branch');
    expect(response.results.map((hit) => hit.path)).toEqual(['b.md', 'a.md']);
    expect(response.results[0]?.snippets[0]?.score ?? 0).toBeGreaterThan(response.results[1]?.snippets[0]?.score ?? 0);
  });

  it('does not double-count single-term queries (no phrase bonus)', () => {
    const documents = [
      { path: 'a.md', content: 'memory' },
      { path: 'b.md', content: 'other words' },
    ];
    const single = engine.searchDocuments(documents, 'memory');
    const snippet = single.results[0]?.snippets[0];
    // One term: the line score is exactly that term's IDF, ln(1 + (2 - 1 + 0.5) / (1 + 0.5)).
    expect(snippet?.score).toBeCloseTo(Math.log(2), 3);
  });

  it('breaks score ties by path and is deterministic', () => {
    const documents = ['c.md', 'a.md', 'b.md'].map((path) => ({ path, content: 'same words here' }));
    expect(paths(documents, 'words')).toEqual(['a.md', 'b.md', 'c.md']);
    expect(paths([...documents].reverse(), 'words')).toEqual(['a.md', 'b.md', 'c.md']);
  });

  it('matches the CJK fallback and CJK terms as substrings', () => {
    const documents = [
      { path: 'a.md', content: '我们的记忆检索系统' },
      { path: 'b.md', content: '記 憶 のテスト' },
      { path: 'c.md', content: 'plain english' },
    ];
    expect(paths(documents, '记忆')).toEqual(['a.md']);
    expect(paths(documents, '記 憶')).toEqual(['b.md']);
  });

  it('applies limit (default 5) and snippets (default 3, best lines first)', () => {
    const documents = Array.from({ length: 8 }, (_, index) => ({
      path: `doc-${index}.md`,
      content: '- needle one\n- needle two\n- needle three\n- needle four',
    }));
    const response = engine.searchDocuments(documents, 'needle');
    expect(response.results).toHaveLength(5);
    expect(response.results[0]?.snippets.map((snippet) => snippet.lineNumber)).toEqual([1, 2, 3]);
    expect(engine.searchDocuments(documents, 'needle', { limit: 2, snippets: 0 }).results).toEqual([
      expect.objectContaining({ path: 'doc-0.md', snippets: [] }),
      expect.objectContaining({ path: 'doc-1.md', snippets: [] }),
    ]);
  });

  it('returns the Sepo-like response shape', () => {
    const response = engine.searchDocuments(
      [{ path: 'MEMORY.md', content: '# Memory\n\n## Durable\n- Keep memory lean.\n' }],
      'memory lean',
    );
    expect(response).toEqual({
      query: 'memory lean',
      terms: ['memory', 'lean'],
      documentCount: 1,
      results: [
        {
          path: 'MEMORY.md',
          score: expect.any(Number),
          matchCount: 2,
          matchedTerms: ['memory', 'lean'],
          snippets: [
            { lineNumber: 4, text: '- Keep memory lean.', score: expect.any(Number), matchCount: 2 },
            { lineNumber: 1, text: '# Memory', score: expect.any(Number), matchCount: 1 },
          ],
        },
      ],
    });
  });

  it('answers an empty result for a query without terms', () => {
    expect(engine.searchDocuments([{ path: 'a.md', content: 'a' }], ' x ')).toEqual({
      query: ' x ',
      terms: [],
      documentCount: 1,
      results: [],
    });
  });

  it('restricts to a path prefix, IDF computed over that scope', () => {
    const documents = [
      { path: 'daily/2026-05-01.md', content: 'deploy' },
      { path: 'notes/deploy.md', content: 'deploy' },
    ];
    const response = engine.searchDocuments(documents, 'deploy', { prefix: 'daily/' });
    expect(response.documentCount).toBe(1);
    expect(response.results.map((hit) => hit.path)).toEqual(['daily/2026-05-01.md']);
  });

  it('rejects bad options with a clear error', () => {
    const attempt = (options: object) => () => engine.searchDocuments([], 'x y', options);
    for (const options of [{ limit: 0 }, { limit: 1.5 }, { snippets: -1 }, { limit: '5' }]) {
      expect(attempt(options)).toThrow(/invalid search option (limit|snippets)/);
      try {
        attempt(options)();
      } catch (error) {
        expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
      }
    }
    expect(attempt({ prefix: '../outside' })).toThrow(/escapes the memory root/);
  });
});
