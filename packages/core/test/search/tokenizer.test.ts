// Why: the tokenizer is the compatibility surface with Sepo's search: case, separators, short
// tokens, digits, dedup and the whole-query fallback for CJK and symbol queries.
import { describe, expect, it } from 'vitest';
import { planQuery } from '../../src/search/query-plan.js';
import { splitWords, tokenizeQuery } from '../../src/search/tokenizer.js';

describe('tokenizeQuery', () => {
  it('lowercases and splits on non-alphanumerics', () => {
    expect(tokenizeQuery('Fix the CI: agent/memory-branch')).toEqual(['fix', 'the', 'ci', 'agent', 'memory', 'branch']);
  });

  it('drops one-letter tokens but keeps all-digit tokens of any length', () => {
    expect(tokenizeQuery('a b issue 7 x 42')).toEqual(['issue', '7', '42']);
  });

  it('deduplicates in order of first appearance', () => {
    expect(tokenizeQuery('Memory memory MEMORY search memory')).toEqual(['memory', 'search']);
  });

  it('keeps letters of every script as words', () => {
    expect(tokenizeQuery('Grüße, café! Привет мир')).toEqual(['grüße', 'café', 'привет', 'мир']);
    expect(tokenizeQuery('記憶 検索')).toEqual(['記憶', '検索']);
  });

  it('falls back to the whole trimmed query when no token qualifies (CJK, symbols)', () => {
    expect(tokenizeQuery('  記 憶  ')).toEqual(['記 憶']);
    expect(tokenizeQuery('C++')).toEqual(['c++']);
    expect(tokenizeQuery('a   b')).toEqual(['a b']);
  });

  it('returns nothing for blank or single-character queries', () => {
    expect(tokenizeQuery('')).toEqual([]);
    expect(tokenizeQuery('   ')).toEqual([]);
    expect(tokenizeQuery(' x ')).toEqual([]);
    expect(tokenizeQuery('記')).toEqual([]);
  });

  it('splits words the same way for documents, keeping one-letter words', () => {
    expect(splitWords('A tests/CI_run #12')).toEqual(['a', 'tests', 'ci', 'run', '12']);
  });
});

describe('planQuery', () => {
  it('marks fallback tokens as substrings, CJK words as infix, others as words with prefix from 3 letters', () => {
    const kinds = (query: string) => planQuery(query).terms.map((term) => [term.text, term.kind, term.prefix]);
    expect(kinds('c++')).toEqual([['c++', 'substring', false]]);
    expect(kinds('記憶 test ci 123')).toEqual([
      ['記憶', 'infix', false],
      ['test', 'word', true],
      ['ci', 'word', false],
      ['123', 'word', false],
    ]);
  });

  it('has a phrase only for queries of two or more terms', () => {
    expect(planQuery('memory').phrase).toBeUndefined();
    expect(planQuery('a memory').phrase).toBeUndefined();
    expect(planQuery('memory   Branch').phrase?.test('the Memory branch is')).toBe(true);
    expect(planQuery('memory branch').phrase?.test('memory branches')).toBe(false);
  });
});
