// Why: search options arrive from callers and the CLI; they are checked once here so a bad limit
// or prefix fails with a clear INVALID_ARGUMENT / INVALID_PATH instead of odd results. Three
// fields are checked by hand rather than with zod: measured, the zod runtime was 91 KB of the
// 190 KB a one-shot `repomem update` or `repomem search` process loads, for these three checks.
import { RepomemError } from '../errors.js';
import { normalizePrefix } from '../store/paths.js';
import type { SearchOptions } from './types.js';

/** Results per query when `limit` is not given (like Sepo). */
export const DEFAULT_SEARCH_LIMIT = 5;
/** Snippets per result when `snippets` is not given (like Sepo). */
export const DEFAULT_SEARCH_SNIPPETS = 3;

/** Search options with defaults applied and the prefix normalised. */
export interface ResolvedSearchOptions {
  readonly limit: number;
  readonly snippets: number;
  /** Normalised path prefix, `''` for the whole store. */
  readonly prefix: string;
}

function invalid(field: string, problem: string, options: unknown): RepomemError {
  return new RepomemError('INVALID_ARGUMENT', `invalid search option ${field}: ${problem}`, { details: { options } });
}

function integer(options: Record<string, unknown>, field: 'limit' | 'snippets', min: number, fallback: number): number {
  const value = options[field];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw invalid(field, `expected an integer, got ${JSON.stringify(value) ?? String(value)}`, options);
  }
  if (value < min) {
    throw invalid(field, min === 1 ? `${field} must be at least 1` : `${field} must be 0 or more`, options);
  }
  return value;
}

/** Validate and complete search options; throws `INVALID_ARGUMENT` (or `INVALID_PATH` for the prefix). */
export function resolveSearchOptions(options: SearchOptions | undefined): ResolvedSearchOptions {
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) {
    throw invalid('options', 'expected an object', options);
  }
  const given = (options ?? {}) as Record<string, unknown>;
  const prefix = given.prefix;
  if (prefix !== undefined && typeof prefix !== 'string') throw invalid('prefix', 'expected a string', options);
  return {
    limit: integer(given, 'limit', 1, DEFAULT_SEARCH_LIMIT),
    snippets: integer(given, 'snippets', 0, DEFAULT_SEARCH_SNIPPETS),
    prefix: normalizePrefix(prefix),
  };
}
