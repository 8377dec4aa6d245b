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
  /**
   * Inflection clauses only (see {@link QueryPlan.terms}): the stem whose words this clause
   * matches (those the typed term does not match itself).
   */
  readonly stem?: TermStem | undefined;
  /** Inflection clauses only: index of the typed term in `QueryPlan.terms` it belongs to. */
  readonly inflectionOf?: number | undefined;
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
  /**
   * The typed terms (the first {@link shown}), then one inflection clause per typed word that has
   * a stem: a term of its own (its own IDF, so a rare exact word keeps its weight when its stem
   * is common) matching the words sharing the stem that the typed term does not match. In the
   * coordination factor a typed term counts 1 when matched itself, and only
   * `RANKING.inflectionShare` when only its clause matched.
   */
  readonly terms: readonly QueryTerm[];
  /** Number of typed terms (default: all of `terms`). */
  readonly shown?: number;
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
  return { text, kind: 'word', prefix, pattern: undefined };
}

/** The inflection clause of the typed word term at `index`, or `undefined` when it has no stem. */
function inflectionClause(term: QueryTerm, index: number): QueryTerm | undefined {
  if (term.kind !== 'word' || !term.prefix) return undefined;
  const stem = termStem(term.text);
  // Every word with the stem starts with its needle: a needle equal to the typed word leaves the
  // clause nothing the typed (prefix) term does not already match.
  if (stem === undefined || stem.needle === term.text) return undefined;
  return { text: term.text, kind: 'word', prefix: false, pattern: undefined, stem, inflectionOf: index };
}

/** Number of typed terms of a plan (the rest of `terms` are inflection clauses). */
export function shownTermCount(plan: QueryPlan): number {
  return plan.shown ?? plan.terms.length;
}

/**
 * Per typed term: whether it matched, given per-term matches (`matched[i]` truthy when term `i`
 * of `plan.terms` matched); a typed term matches when it or its inflection clause does.
 */
export function shownMatches(plan: QueryPlan, matched: ArrayLike<unknown>): boolean[] {
  const shown = new Array<boolean>(shownTermCount(plan)).fill(false);
  for (let index = 0; index < plan.terms.length; index++) {
    if (matched[index]) shown[plan.terms[index]?.inflectionOf ?? index] = true;
  }
  return shown;
}

/** Number of typed terms matched, themselves or by their inflection clause. */
export function countShownMatches(plan: QueryPlan, matched: ArrayLike<unknown>): number {
  let count = 0;
  for (const hit of shownMatches(plan, matched)) if (hit) count++;
  return count;
}

/**
 * The matched share the coordination factor scales by: per typed term 1 when it matched itself,
 * `RANKING.inflectionShare` when only its inflection clause did.
 */
export function coordinationMatches(plan: QueryPlan, matched: ArrayLike<unknown>): number {
  const shown = shownTermCount(plan);
  let share = 0;
  for (let index = 0; index < shown; index++) if (matched[index]) share += 1;
  for (let index = shown; index < plan.terms.length; index++) {
    const typed = plan.terms[index]?.inflectionOf ?? index;
    if (matched[index] && !matched[typed]) share += RANKING.inflectionShare;
  }
  return share;
}

/** What {@link matchedShareOf} returns. */
export interface MatchedShare {
  /** The coordination share (see {@link coordinationMatches}). */
  readonly share: number;
  /** Whether every typed term matched, itself or by its inflection clause. */
  readonly all: boolean;
}

const NO_MATCH: MatchedShare = Object.freeze({ share: 0, all: false });

/**
 * {@link coordinationMatches} and whether every typed term matched, from per-term hits in the
 * body and the path (a term matched where either is positive), without allocating per document
 * when the plan has no inflection clause.
 */
export function matchedShareOf(plan: QueryPlan, body: ArrayLike<number>, path: ArrayLike<number>): MatchedShare {
  const shown = shownTermCount(plan);
  const terms = plan.terms;
  let share = 0;
  let typed = 0;
  for (let index = 0; index < terms.length; index++) {
    if ((body[index] as number) <= 0 && (path[index] as number) <= 0) continue;
    if (index < shown) {
      share += 1;
      typed++;
      continue;
    }
    const of = terms[index]?.inflectionOf ?? index;
    if ((body[of] as number) > 0 || (path[of] as number) > 0) continue;
    share += RANKING.inflectionShare;
    typed++;
  }
  return share === 0 ? NO_MATCH : { share, all: typed === shown };
}

/** The IDFs of the typed terms (the phrase bonus sums these). */
export function shownIdfs(plan: QueryPlan, idfs: readonly number[]): readonly number[] {
  return idfs.length === shownTermCount(plan) ? idfs : idfs.slice(0, shownTermCount(plan));
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
  const typed = tokens.map((token) => compileTerm(token, fallback));
  const terms = [...typed];
  typed.forEach((term, index) => {
    const clause = inflectionClause(term, index);
    if (clause !== undefined) terms.push(clause);
  });
  const shown = typed.length;
  if (typed.length < 2) return { query, terms, shown, phrase: undefined, phrasePairs: [] };
  const phrase = normalizePhrase(query);
  return {
    query,
    terms,
    shown,
    phrase: phrasePattern(phrase, true, 'iu'),
    phrasePairs: pairsOfWords(splitWords(phrase)),
  };
}

/**
 * Weight with which a word-based term matches one document word: 1 for an exact (or, for infix
 * terms, inner) match, the prefix weight for a word the term starts, and for an inflection
 * clause the stem weight for a word sharing its stem that the typed term does not start, 0
 * otherwise. Substring terms do not
 * match words (see {@link countSubstringMatches}).
 */
export function wordMatchWeight(
  term: QueryTerm,
  word: string,
  prefixWeight: number,
  stemWeight: number = RANKING.stemWeight,
): number {
  if (term.kind === 'word') {
    if (term.stem !== undefined) {
      // An inflection clause: the words sharing the stem that the typed term does not match.
      if (word.startsWith(term.text)) return 0;
      return sharesStem(term.stem, word) ? stemWeight : 0;
    }
    if (word === term.text) return 1;
    return term.prefix && word.length > term.text.length && word.startsWith(term.text) ? prefixWeight : 0;
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
