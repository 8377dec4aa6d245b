// Why: user queries must never reach FTS5's query language (`"`, `*`, `NEAR`, `-`, `AND`, `OR`,
// column filters), where they would raise syntax errors or change meaning. Queries are split by
// core's tokenizer and every term becomes a quoted string literal, so only words are ever matched.
// Terms FTS5's word index cannot answer the way core does (the whole-query substring fallback
// such as `c++`, and terms in scripts written without spaces, which core matches inside words)
// are detected here so the store can hand those queries to core's engine.
import { createHash } from 'node:crypto';

/** A word of core's tokenizer: letters, digits and combining marks only. */
const WORD_ONLY = /^[\p{L}\p{N}\p{M}]+$/u;
const ALL_DIGITS = /^\p{N}+$/u;
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Core matches a term as a word prefix from this many code points on (`ci` exact, `test` -> `tests`). */
export const MIN_PREFIX_TERM_LENGTH = 3;

/** True when FTS5's word index answers `term` like core does (a whole word, optionally as a prefix). */
export function isWordTerm(term: string): boolean {
  return WORD_ONLY.test(term) && !UNSPACED_SCRIPT.test(term);
}

/** True when core also matches `term` as the start of a longer word. */
export function isPrefixTerm(term: string): boolean {
  return !ALL_DIGITS.test(term) && [...term].length >= MIN_PREFIX_TERM_LENGTH;
}

/** `term` as an FTS5 string literal (`"` doubled), which FTS5 never parses as syntax. */
export function quoteFtsString(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/**
 * How the terms of a query combine: as one phrase (the words in order, adjacent), every term, or
 * any term.
 */
export type TermJoin = 'PHRASE' | 'AND' | 'OR';

/**
 * The FTS5 MATCH expression for core's query terms: each term quoted, prefix terms followed by
 * `*`, joined with `OR` (a document matching any term is a candidate, as in core) or `AND`; or the
 * terms as one quoted phrase (exact words, in order).
 */
export function buildMatchExpression(terms: readonly string[], join: TermJoin = 'OR'): string {
  if (join === 'PHRASE') return quoteFtsString(terms.join(' '));
  return terms
    .map((term) => (isPrefixTerm(term) ? `${quoteFtsString(term)}*` : quoteFtsString(term)))
    .join(` ${join} `);
}

/**
 * The FTS5 token naming a repository scope: `s` and 24 hex digits of the SHA-256 of the repo name,
 * one word for the tokenizer. Each indexed row carries it in the `scope` column, so a query is
 * restricted to its repository inside FTS5 itself (`scope : "s…" AND (…)`), without joining rows.
 */
export function scopeToken(repo: string): string {
  return `s${createHash('sha256').update(repo).digest('hex').slice(0, 24)}`;
}

/**
 * A MATCH expression restricted to the rows of one scope, with the query terms matched only in
 * the `path` and `body` columns (never against scope tokens).
 */
export function scopedMatchExpression(scope: string, terms: readonly string[], join: TermJoin = 'OR'): string {
  return `scope : ${quoteFtsString(scope)} AND ({path body} : (${buildMatchExpression(terms, join)}))`;
}

const QUERY_WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** Words of a memory search query, split like the FTS5 tokenizer: lowercased, deduplicated, in order. */
export function queryWords(text: string): string[] {
  return [...new Set(text.toLowerCase().match(QUERY_WORD) ?? [])];
}

/** True when `term` holds a character of a script written without spaces (CJK, Thai...). */
export function isUnspacedTerm(term: string): boolean {
  return UNSPACED_SCRIPT.test(term);
}

/**
 * A MATCH expression for verified-memory search: rows of one repository scope (`repo_scope`
 * column) whose subject, fact, reason or scope hold every word, each a quoted literal.
 */
export function memoryMatchExpression(scope: string, words: readonly string[]): string {
  return `repo_scope : ${quoteFtsString(scope)} AND ({subject fact reason scope} : (${words.map(quoteFtsString).join(' AND ')}))`;
}
