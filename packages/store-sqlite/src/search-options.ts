// Why: search options arrive from callers and the CLI; they are checked here with core's rules
// and messages (limit >= 1, snippets >= 0, a valid path prefix) so bad input fails with
// INVALID_ARGUMENT / INVALID_PATH before any SQL runs.
import {
  DEFAULT_SEARCH_LIMIT,
  DEFAULT_SEARCH_SNIPPETS,
  normalizePrefix,
  RepomemError,
  type SearchOptions,
} from '@repomem/core';

/** Search options with defaults applied and the prefix normalised. */
export interface ResolvedSearchOptions {
  readonly limit: number;
  readonly snippets: number;
  /** Normalised path prefix, `''` for the whole store. */
  readonly prefix: string;
}

function integerOption(options: SearchOptions, name: 'limit' | 'snippets', min: number, fallback: number): number {
  const value: unknown = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `invalid search option ${name}: ${name} must be an integer of at least ${min}, got ${JSON.stringify(value)}`,
      { details: { options } },
    );
  }
  return value;
}

/** Validate and complete search options; throws `INVALID_ARGUMENT` (or `INVALID_PATH` for the prefix). */
export function resolveSearchOptions(options: SearchOptions | undefined): ResolvedSearchOptions {
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new RepomemError('INVALID_ARGUMENT', 'invalid search option options: expected an object');
  }
  const given = options ?? {};
  const prefix: unknown = given.prefix;
  if (prefix !== undefined && typeof prefix !== 'string') {
    throw new RepomemError('INVALID_ARGUMENT', 'invalid search option prefix: expected a string', {
      details: { options },
    });
  }
  return {
    limit: integerOption(given, 'limit', 1, DEFAULT_SEARCH_LIMIT),
    snippets: integerOption(given, 'snippets', 0, DEFAULT_SEARCH_SNIPPETS),
    prefix: normalizePrefix(prefix),
  };
}

/**
 * The exclusive upper bound of the strings starting with `prefix` (its last code point plus one),
 * so a prefix scan is an index range; `undefined` when there is none (last code point U+10FFFF).
 */
export function prefixUpperBound(prefix: string): string | undefined {
  const points = [...prefix];
  while (points.length > 0) {
    const last = (points.pop() as string).codePointAt(0) as number;
    if (last < 0x10ffff) {
      const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
      return points.join('') + String.fromCodePoint(next);
    }
  }
  return undefined;
}
