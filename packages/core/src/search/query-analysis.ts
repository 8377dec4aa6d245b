// Why: a one-shot search (the `repomem search` process) asks one question, so analysing every
// document fully (every word counted, every word pair hashed) is mostly wasted. This analysis
// keeps only what ranking that one query reads, found with native substring search, and still
// ranks exactly like a full analysis.
import {
  analyzeExtracted,
  countDocumentWords,
  countWords,
  type DocumentAnalysis,
  type DocumentText,
  extractDocumentText,
  extractDocumentTextLazily,
  isIndexableWord,
  isJsonPath,
  matchesAnyTerm,
  scanWords,
  wordCharWidth,
  wordCharWidthBefore,
} from './document-text.js';
import { buildPairFilter } from './phrase-filter.js';
import { type QueryPlan, type QueryTerm, termNeedle } from './query-plan.js';

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
    const text = termNeedle(term);
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
  for (const term of terms)
    if (lowerLines.includes(termNeedle(term)) || lowerPath.includes(termNeedle(term))) return true;
  return false;
}

/** Letters whose lowercase depends on context (final sigma), so a raw text may lowercase them differently. */
const CONTEXTUAL_LOWERCASE = /[σς]/;
/** The only non-ASCII characters whose lowercase holds ASCII letters (`İ` -> `i̇`, Kelvin sign -> `k`). */
const LOWERCASES_TO_ASCII = /[\u0130\u212a]/;
const ASCII_WORD = /^[a-z0-9]+$/;
/** Per plan: a case-insensitive pattern finding any of its terms in raw text (see `rawTermPattern`). */
const rawTermPatterns = new WeakMap<QueryPlan, RegExp | null>();

/**
 * Whether the raw text of a document can stand in for its searchable lines when testing that no
 * term's text occurs in them. Every searchable character comes unchanged from the raw text,
 * except JSON escapes: `\uXXXX` may hide a letter (documents holding one are analysed fully),
 * the others decode to separators no term holds. Substring terms are always analysed fully.
 */
function rawTextCoversLines(path: string, text: string, terms: readonly QueryTerm[]): boolean {
  for (const term of terms) if (term.kind === 'substring') return false;
  return !(isJsonPath(path) && text.includes('\\u'));
}

/**
 * For a plan whose terms are all ASCII words: one case-insensitive pattern of their texts. In a
 * text without `İ` or the Kelvin sign, a term's text occurs in the lowercased text exactly where
 * this pattern matches (only ASCII letters lowercase to ASCII letters), so the raw text need not
 * be lowercased to rule a document out.
 */
function rawTermPattern(plan: QueryPlan): RegExp | undefined {
  let pattern = rawTermPatterns.get(plan);
  if (pattern === undefined) {
    const asciiWords = plan.terms.every((term) => term.kind === 'word' && ASCII_WORD.test(termNeedle(term)));
    pattern = asciiWords ? new RegExp(plan.terms.map((term) => termNeedle(term)).join('|'), 'i') : null;
    rawTermPatterns.set(plan, pattern);
  }
  return pattern ?? undefined;
}

/**
 * True when no term's text can occur in the document's lowercased searchable lines or path
 * (false when unsure). Lowercasing is per character except for sigma, so terms holding one are
 * never ruled out this way.
 */
function holdsNoTerm(path: string, text: string, plan: QueryPlan, lowerPath: string): boolean {
  const terms = plan.terms;
  if (terms.length === 0 || !rawTextCoversLines(path, text, terms)) return false;
  for (const term of terms) if (termNeedle(term) !== '' && lowerPath.includes(termNeedle(term))) return false;
  const pattern = rawTermPattern(plan);
  if (pattern !== undefined && !LOWERCASES_TO_ASCII.test(text)) return !pattern.test(text);
  for (const term of terms) if (CONTEXTUAL_LOWERCASE.test(termNeedle(term))) return false;
  const lowerText = text.toLowerCase();
  for (const term of terms) if (lowerText.includes(termNeedle(term))) return false;
  return true;
}

/** Analysis of a document matching no term: its length only, its text extracted when asked. */
function nonMatchingAnalysis(path: string, text: string): DocumentAnalysis {
  let extracted: DocumentText | undefined;
  return {
    get text(): DocumentText {
      extracted ??= extractDocumentText(path, text);
      return extracted;
    },
    length: countDocumentWords(path, text),
    words: NO_WORDS,
    pathWords: NO_WORDS,
    pairFilter: NO_PAIRS,
  };
}

/**
 * Analyse a document for one query only. Every way a word-based term matches (whole word, word
 * prefix, inside a word) needs the term's text inside the lowercased lines or path, so:
 * - a document whose raw text (or path) holds none of the terms' texts cannot match and gets only
 *   its length (the BM25 average needs it), counted without extracting its lines (see
 *   `holdsNoTerm` for when the raw text may be tested instead of the lines);
 * - likewise a document whose extracted lines and path hold none of the terms' texts;
 * - any other document gets its length, only the words matching a term (the others weigh 0),
 *   and its pair filter built lazily (ranking reads it only for documents matching every term).
 *
 * A plan with a substring term (the whole-query fallback) gets the full analysis. Ranking these
 * analyses gives exactly what ranking full analyses (`analyzeDocument`) gives.
 */
export function analyzeDocumentForQuery(path: string, text: string, plan: QueryPlan): DocumentAnalysis {
  const terms = plan.terms;
  const lowerPath = path.toLowerCase();
  if (holdsNoTerm(path, text, plan, lowerPath)) return nonMatchingAnalysis(path, text);
  const extracted = extractDocumentTextLazily(path, text);
  const lowerLines = extracted.lines.toLowerCase();
  if (terms.some((term) => term.kind === 'substring')) return analyzeExtracted(extracted, lowerLines);
  const length = countWords(lowerLines);
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
