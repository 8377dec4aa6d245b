// Why: a one-shot search (the `repomem search` process) asks one question, so analysing every
// document fully (every word counted, every word pair hashed) is mostly wasted. This analysis
// keeps only what ranking that one query reads, found with native substring search, and still
// ranks exactly like a full analysis.
import {
  analyzeExtracted,
  countWords,
  type DocumentAnalysis,
  extractDocumentText,
  isIndexableWord,
  matchesAnyTerm,
  scanWords,
  wordCharWidth,
  wordCharWidthBefore,
} from './document-text.js';
import { buildPairFilter } from './phrase-filter.js';
import type { QueryPlan, QueryTerm } from './query-plan.js';

const NO_WORDS: ReadonlyMap<string, number> = new Map();
const NO_PAIRS = new Uint32Array(0);
/** Stands in for the pair filter when the plan has no phrase pairs (any non-empty filter answers alike). */
const ANY_PAIRS = new Uint32Array(2);

/** End of the word that has a word character at `index`. */
function wordEnd(lower: string, index: number): number {
  let end = index;
  for (let width = wordCharWidth(lower, end); width > 0; width = wordCharWidth(lower, end)) end += width;
  return end;
}

/** Start of the word that has a word character at `index`. */
function wordStart(lower: string, index: number): number {
  let start = index;
  for (let width = wordCharWidthBefore(lower, start); width > 0; width = wordCharWidthBefore(lower, start)) {
    start -= width;
  }
  return start;
}

/**
 * Count into `counts` the words of `lower` that match a term, each occurrence once. Every
 * matching word holds its term's text (at its start for word terms), so only the places where
 * `indexOf` finds a term's text are examined; the word around each is cut with the same word
 * characters as `scanWords`, and kept only when it is indexable and matches a term.
 */
function countMatchingWords(lower: string, terms: readonly QueryTerm[], counts: Map<string, number>): void {
  const counted = terms.length > 1 ? new Set<number>() : undefined;
  for (const term of terms) {
    const text = term.text;
    if (text === '' || term.kind === 'substring') continue;
    let from = 0;
    for (;;) {
      const at = lower.indexOf(text, from);
      if (at < 0) break;
      const end = wordEnd(lower, at);
      from = Math.max(end, at + 1);
      if (end === at) continue; // not at a word character (cannot happen for word-character terms)
      let start = at;
      if (term.kind === 'word') {
        if (wordCharWidthBefore(lower, at) > 0) continue; // inside a word: not its start
      } else {
        start = wordStart(lower, at);
      }
      if (counted?.has(start)) continue;
      const word = lower.slice(start, end);
      if (!isIndexableWord(word) || !matchesAnyTerm(terms, word)) continue;
      counted?.add(start);
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
}

function mayMatchAnyTerm(terms: readonly QueryTerm[], lowerLines: string, lowerPath: string): boolean {
  for (const term of terms) if (lowerLines.includes(term.text) || lowerPath.includes(term.text)) return true;
  return false;
}

/**
 * Analyse a document for one query only. Every way a word-based term matches (whole word, word
 * prefix, inside a word) needs the term's text inside the lowercased lines or path, so:
 * - a document holding none of the terms' texts cannot match and gets only its length (the BM25
 *   average needs it);
 * - any other document gets its length, only the words matching a term (the others weigh 0),
 *   and its pair filter built lazily (ranking reads it only for documents matching every term).
 *
 * A plan with a substring term (the whole-query fallback) gets the full analysis. Ranking these
 * analyses gives exactly what ranking full analyses (`analyzeDocument`) gives.
 */
export function analyzeDocumentForQuery(path: string, text: string, plan: QueryPlan): DocumentAnalysis {
  const extracted = extractDocumentText(path, text);
  const lowerLines = extracted.lines.toLowerCase();
  const terms = plan.terms;
  if (terms.some((term) => term.kind === 'substring')) return analyzeExtracted(extracted, lowerLines);
  const length = countWords(lowerLines);
  const lowerPath = path.toLowerCase();
  if (!mayMatchAnyTerm(terms, lowerLines, lowerPath)) {
    return { text: extracted, length, words: NO_WORDS, pathWords: NO_WORDS, pairFilter: NO_PAIRS };
  }
  const words = new Map<string, number>();
  countMatchingWords(lowerLines, terms, words);
  const pathWords = new Map<string, number>();
  scanWords(lowerPath, pathWords, undefined, terms);
  let pairFilter: Uint32Array | undefined;
  return {
    text: extracted,
    length,
    words,
    pathWords,
    get pairFilter(): Uint32Array {
      if (pairFilter === undefined) {
        if (plan.phrasePairs.length === 0) {
          pairFilter = ANY_PAIRS;
        } else {
          const pairs: number[] = [];
          scanWords(lowerLines, undefined, pairs);
          pairFilter = buildPairFilter(pairs);
        }
      }
      return pairFilter;
    },
  };
}
