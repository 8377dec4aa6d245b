// Why: user queries must never reach FTS5's query language (`"`, `*`, `NEAR`, `-`, `AND`, `OR`,
// column filters), where they would raise syntax errors or change meaning. Every term becomes a
// quoted string literal, so only words are ever matched. Terms FTS5's word index cannot answer
// the way core does (anything but letters, digits and marks, and terms in scripts written
// without spaces, which core matches inside words) are detected here, so the store answers
// `unsupported` for them and core searches the documents itself.
import { createHash } from 'node:crypto';

/** A word of core's tokenizer: letters, digits and combining marks only. */
const WORD_ONLY = /^[\p{L}\p{N}\p{M}]+$/u;
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** True when FTS5's word index answers `term` like core does (a whole word, optionally as a prefix). */
export function isWordTerm(term: string): boolean {
  return WORD_ONLY.test(term) && !UNSPACED_SCRIPT.test(term);
}

/** `term` as an FTS5 string literal (`"` doubled), which FTS5 never parses as syntax. */
export function quoteFtsString(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** A candidate term: its lower-case text, and whether it also matches as the start of a word. */
export interface FtsTerm {
  readonly text: string;
  readonly prefix: boolean;
}

/**
 * The FTS5 MATCH expression for core's candidate terms: each term quoted, prefix terms followed
 * by `*`, joined with `OR` (a document holding any term is a candidate, as in core).
 */
export function buildMatchExpression(terms: readonly FtsTerm[]): string {
  return terms.map((term) => (term.prefix ? `${quoteFtsString(term.text)}*` : quoteFtsString(term.text))).join(' OR ');
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
export function scopedMatchExpression(scope: string, terms: readonly FtsTerm[]): string {
  return `scope : ${quoteFtsString(scope)} AND ({path body} : (${buildMatchExpression(terms)}))`;
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
