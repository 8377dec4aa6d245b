// Why: one tokenizer for queries and documents, compatible with Sepo's search (lowercased,
// split on non-alphanumerics, tokens of length >= 2 or all digits, deduplicated, and the CJK
// fallback) but Unicode-aware, so letters and digits of every script form words.

/** Letters, digits and combining marks of any script form words; everything else separates them. */
const WORD_PATTERN = /[\p{L}\p{N}\p{M}]+/gu;
const ASCII_WORD_PATTERN = /[a-z0-9]+/g;
const NON_ASCII = /[^\u0000-\u007f]/;
const ALL_DIGITS = /^\p{N}+$/u;
const WHITESPACE_RUN = /\s+/g;

/**
 * Scripts written without spaces between words (Han, kana, Thai, Lao, Khmer, Myanmar): a query
 * term in these scripts cannot rely on word boundaries, so it matches inside words.
 */
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Number of Unicode code points of `text` (an astral character counts once). */
export function codePointLength(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    length++;
  }
  return length;
}

/**
 * Split text into lowercased words (every run of letters, digits and marks), in order, with
 * repeats. Documents are indexed with this; queries filter its output (see {@link tokenizeQuery}).
 */
export function splitWords(text: string): string[] {
  const lower = text.toLowerCase();
  const pattern = NON_ASCII.test(lower) ? WORD_PATTERN : ASCII_WORD_PATTERN;
  return lower.match(pattern) ?? [];
}

/** True when `word` consists only of digits (of any script). */
export function isAllDigits(word: string): boolean {
  return ALL_DIGITS.test(word);
}

/** True when `word` can be a query term: at least 2 code points long, or all digits. */
export function isQueryWord(word: string): boolean {
  return isAllDigits(word) || codePointLength(word) >= 2;
}

/** True when `term` contains a character of a script written without spaces (CJK, Thai...). */
export function isUnspacedScriptTerm(term: string): boolean {
  return UNSPACED_SCRIPT.test(term);
}

/** Lowercase, trim and collapse whitespace runs to one space. */
export function normalizePhrase(text: string): string {
  return text.toLowerCase().replace(WHITESPACE_RUN, ' ').trim();
}

/** Tokens of a query, and whether they came from the whole-query fallback. */
export interface QueryTokens {
  readonly tokens: readonly string[];
  /** True when no word qualified and the whole (normalised) query became the only token. */
  readonly fallback: boolean;
}

/** {@link tokenizeQuery} with the fallback flag, for the query planner. */
export function tokenizeQueryDetailed(query: string): QueryTokens {
  const tokens: string[] = [];
  const seen = new Set<string>();
  for (const word of splitWords(query)) {
    if (!isQueryWord(word) || seen.has(word)) continue;
    seen.add(word);
    tokens.push(word);
  }
  if (tokens.length > 0) return { tokens, fallback: false };
  const trimmed = query.trim();
  if (codePointLength(trimmed) >= 2) return { tokens: [normalizePhrase(trimmed)], fallback: true };
  return { tokens: [], fallback: false };
}

/**
 * Split a query into search terms like Sepo's `memory/search.js`: lowercased, split on
 * non-alphanumerics (Unicode-aware), keeping tokens of at least 2 characters or all digits,
 * deduplicated in order. A query with no such token but at least 2 characters once trimmed
 * becomes a single token (lowercased, whitespace collapsed), which matches as a substring: the
 * CJK fallback (`記 憶`, `c++`).
 *
 * @example tokenizeQuery('Fix the CI: ci 2 tests') // ['fix', 'the', 'ci', '2', 'tests']
 */
export function tokenizeQuery(query: string): string[] {
  return [...tokenizeQueryDetailed(query).tokens];
}
