// Why: a query is compiled into patterns (one alternation over its terms, a phrase pattern over
// the whole query), so an unbounded query could build a pattern the regular-expression engine
// refuses ("Invalid regular expression") or run for seconds. Bounding it here, before anything is
// compiled, turns a pathological query into a clear usage error on every store and search path.
import { RepomemError } from '../errors.js';

/** Longest query accepted, in characters (code points). Real queries are a few words. */
export const MAX_QUERY_CHARS = 1024;

/** Most distinct terms a query may have. */
export const MAX_QUERY_TERMS = 64;

/** Throw `INVALID_ARGUMENT` when `query` is not a string or longer than {@link MAX_QUERY_CHARS}. */
export function assertQueryLength(query: unknown): asserts query is string {
  if (typeof query !== 'string') {
    throw new RepomemError('INVALID_ARGUMENT', `query must be a string, got ${typeof query}`);
  }
  if (query.length <= MAX_QUERY_CHARS) return;
  let length = 0;
  for (const _ of query) length += 1;
  if (length > MAX_QUERY_CHARS) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `query is too long: ${length} characters, at most ${MAX_QUERY_CHARS} are accepted`,
      { details: { length, maxQueryChars: MAX_QUERY_CHARS } },
    );
  }
}

/** Throw `INVALID_ARGUMENT` when the query has more than {@link MAX_QUERY_TERMS} distinct terms. */
export function assertQueryTerms(terms: readonly string[]): void {
  const distinct = new Set(terms).size;
  if (distinct > MAX_QUERY_TERMS) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `query has too many terms: ${distinct} distinct terms, at most ${MAX_QUERY_TERMS} are accepted`,
      { details: { terms: distinct, maxQueryTerms: MAX_QUERY_TERMS } },
    );
  }
}
