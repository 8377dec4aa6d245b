// Why: a large document's words are looked up (exact word, then the words a prefix term starts,
// by binary search) instead of scanned; the figures must equal the scan's exactly, or rankings
// would change between a small and a large document or between searches.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wordFrequency } from '../../src/search/naive-ranking.js';
import type { QueryTerm } from '../../src/search/query-plan.js';

function scanned(term: QueryTerm, words: ReadonlyMap<string, number>): number {
  let frequency = 0;
  for (const [word, count] of words) {
    if (word === term.text) frequency += count;
    else if (term.prefix && word.length > term.text.length && word.startsWith(term.text)) frequency += 0.5 * count;
  }
  return frequency;
}

const word = fc.stringMatching(/^[a-dé漢]{1,6}$/);

describe('wordFrequency', () => {
  it('equals a scan of every word, for small and large documents, exact and prefix terms', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(word, fc.integer({ min: 1, max: 9 })), { minLength: 0, maxLength: 200 }),
        word,
        fc.boolean(),
        (entries, text, prefix) => {
          const words = new Map(entries);
          const term: QueryTerm = { text, kind: 'word', prefix, pattern: undefined };
          expect(wordFrequency(term, words)).toBe(scanned(term, words));
          // Asked twice: the second answer comes from the cached sorted words.
          expect(wordFrequency(term, words)).toBe(scanned(term, words));
        },
      ),
      { numRuns: 300 },
    );
  });
});
