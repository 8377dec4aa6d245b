// Why: a query is compiled once into terms that know how they match (whole word, word prefix,
// inside words for unspaced scripts, raw substring for the fallback) and into the phrase pattern
// of the whole-phrase bonus, so the index, the naive scan and the snippet picker agree exactly.
import type { DocumentText } from './document-text.js';
import { pairsOfWords } from './phrase-filter.js';
import { assertQueryLength, assertQueryTerms } from './query-limits.js';
import { RANKING } from './scoring.js';
import { sharesStem, type TermStem, termStem } from './stemming.js';
import {
  codePointLength,
  isAllDigits,
  isUnspacedScriptTerm,
  normalizePhrase,
  splitWords,
  tokenizeQueryDetailed,
} from './tokenizer.js';

/**
 * How a term matches:
 * - `word`: equal to a document word, or (when `prefix`) the start of a longer word at reduced
 *   weight, or (when `stem`) a word with the same stem (an inflection) at reduced weight;
 * - `infix`: inside a document word (terms in scripts written without spaces, e.g. CJK);
 * - `substring`: anywhere in a line, case-insensitively (the whole-query fallback).
 */
export type TermKind = 'word' | 'infix' | 'substring';

/** One compiled query term. */
export interface QueryTerm {
  readonly text: string;
  readonly kind: TermKind;
  /** Word terms only: also matches as the prefix of a longer word. */
  readonly prefix: boolean;
  /** Substring terms only: global case-insensitive pattern counting occurrences. */
  readonly pattern: RegExp | undefined;
  /** Word terms only: the stem its inflections share (see stemming.ts), when it has one. */
  readonly stem?: TermStem | undefined;
}

/**
 * Text every word a term matches holds (at the word's start for word terms): its stem's needle
 * when it has a stem, else its text. Prefilters and store indexes narrow by it.
 */
export function termNeedle(term: QueryTerm): string {
  return term.stem?.needle ?? term.text;
}

/** A compiled query. */
export interface QueryPlan {
  readonly query: string;
  readonly terms: readonly QueryTerm[];
  /** Pattern of the whole normalised query at word boundaries; only for queries of 2+ terms. */
  readonly phrase: RegExp | undefined;
  /** Hashes of the phrase's adjacent word pairs (a document lacking one cannot hold the phrase). */
  readonly phrasePairs: readonly number[];
}

/** Prefix matching starts at this many characters (`ci` stays exact, `test` matches `tests`). */
export const MIN_PREFIX_TERM_LENGTH = 3;

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/]/g;
const WORD_CHARACTER = /[\p{L}\p{N}\p{M}]/u;

function escapeRegex(text: string): string {
  return text.replace(REGEX_SPECIAL, '\\$&');
}

/** Pattern for a normalised phrase: single spaces match any run of non-newline whitespace. */
function phrasePattern(phrase: string, boundaries: boolean, flags: string): RegExp {
  let source = phrase.split(' ').map(escapeRegex).join('[^\\S\\n]+');
  if (boundaries) {
    const first = Array.from(phrase)[0] ?? '';
    const last = Array.from(phrase).at(-1) ?? '';
    if (WORD_CHARACTER.test(first)) source = `(?<![\\p{L}\\p{N}\\p{M}])${source}`;
    if (WORD_CHARACTER.test(last)) source = `${source}(?![\\p{L}\\p{N}\\p{M}])`;
  }
  return new RegExp(source, flags);
}

function compileTerm(text: string, fallback: boolean): QueryTerm {
  if (fallback) {
    return {
      text,
      kind: 'substring',
      prefix: false,
      pattern: phrasePattern(text, false, 'giu'),
    };
  }
  if (isUnspacedScriptTerm(text)) {
    return { text, kind: 'infix', prefix: false, pattern: undefined };
  }
  const prefix = !isAllDigits(text) && codePointLength(text) >= MIN_PREFIX_TERM_LENGTH;
  const stem = termStem(text);
  return stem === undefined
    ? { text, kind: 'word', prefix, pattern: undefined }
    : { text, kind: 'word', prefix, pattern: undefined, stem };
}

/**
 * Compile a query. A query without terms yields a plan with no terms (and matches nothing).
 * Throws `INVALID_ARGUMENT` for a query over `MAX_QUERY_CHARS` characters or `MAX_QUERY_TERMS`
 * distinct terms (see query-limits.ts).
 */
export function planQuery(query: string): QueryPlan {
  assertQueryLength(query);
  const { tokens, fallback } = tokenizeQueryDetailed(query);
  assertQueryTerms(tokens);
  const terms = tokens.map((token) => compileTerm(token, fallback));
  if (terms.length < 2) return { query, terms, phrase: undefined, phrasePairs: [] };
  const phrase = normalizePhrase(query);
  return { query, terms, phrase: phrasePattern(phrase, true, 'iu'), phrasePairs: pairsOfWords(splitWords(phrase)) };
}

/**
 * Weight with which a word-based term matches one document word: 1 for an exact (or, for infix
 * terms, inner) match, the prefix weight for a word the term starts, the stem weight for an
 * inflection (same stem; the larger weight when both hold), 0 otherwise. Substring terms do not
 * match words (see {@link countSubstringMatches}).
 */
export function wordMatchWeight(
  term: QueryTerm,
  word: string,
  prefixWeight: number,
  stemWeight: number = RANKING.stemWeight,
): number {
  if (term.kind === 'word') {
    if (word === term.text) return 1;
    const prefix = term.prefix && word.length > term.text.length && word.startsWith(term.text) ? prefixWeight : 0;
    if (prefix >= stemWeight || term.stem === undefined) return prefix;
    return sharesStem(term.stem, word) ? stemWeight : prefix;
  }
  if (term.kind === 'infix') return word.includes(term.text) ? 1 : 0;
  return 0;
}

/** Occurrences of a substring term in `text` (case-insensitive, whitespace-flexible). */
export function countSubstringMatches(term: QueryTerm, text: string): number {
  const pattern = term.pattern;
  if (pattern === undefined) return 0;
  pattern.lastIndex = 0;
  let count = 0;
  while (pattern.exec(text) !== null) count++;
  return count;
}

/** Index of the first occurrence of a substring term in `text`, or -1. */
export function findSubstringMatch(term: QueryTerm, text: string): number {
  const pattern = term.pattern;
  if (pattern === undefined) return -1;
  pattern.lastIndex = 0;
  return pattern.exec(text)?.index ?? -1;
}

/** True when the plan's phrase occurs in `line`. */
export function lineContainsPhrase(plan: QueryPlan, line: string): boolean {
  return plan.phrase?.test(line) === true;
}

/**
 * True when the plan's phrase occurs in one of the document's lines, given that the document's
 * pair filter (see phrase-filter.ts) may hold the phrase's pairs. Both search paths consult the
 * filter first and then call this, so they decide identically.
 */
export function documentContainsPhrase(plan: QueryPlan, text: DocumentText): boolean {
  return plan.phrase?.test(text.lines) === true;
}
