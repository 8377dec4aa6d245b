// Why: search options arrive from callers and the CLI; they are checked once here (zod) so a bad
// limit or prefix fails with a clear INVALID_ARGUMENT/INVALID_PATH instead of odd results.
// zod/mini (same checks and messages, English issues as with classic zod) keeps the one-shot
// `repomem search` process from loading all of classic zod for three fields.
import { en } from 'zod/locales';
import * as z from 'zod/mini';
import { RepomemError } from '../errors.js';
import { normalizePrefix } from '../store/paths.js';
import type { SearchOptions } from './types.js';

/** Results per query when `limit` is not given (like Sepo). */
export const DEFAULT_SEARCH_LIMIT = 5;
/** Snippets per result when `snippets` is not given (like Sepo). */
export const DEFAULT_SEARCH_SNIPPETS = 3;

const searchOptionsSchema = z.object({
  limit: z.optional(z.int().check(z.minimum(1, 'limit must be at least 1'))),
  snippets: z.optional(z.int().check(z.minimum(0, 'snippets must be 0 or more'))),
  prefix: z.optional(z.string()),
});

/** English issue messages, as classic zod configures by default (zod/mini configures no locale). */
let englishErrors: ReturnType<typeof en>['localeError'] | undefined;

/** Search options with defaults applied and the prefix normalised. */
export interface ResolvedSearchOptions {
  readonly limit: number;
  readonly snippets: number;
  /** Normalised path prefix, `''` for the whole store. */
  readonly prefix: string;
}

/** Validate and complete search options; throws `INVALID_ARGUMENT` (or `INVALID_PATH` for the prefix). */
export function resolveSearchOptions(options: SearchOptions | undefined): ResolvedSearchOptions {
  englishErrors ??= en().localeError;
  const parsed = searchOptionsSchema.safeParse(options ?? {}, { error: englishErrors });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'options';
    throw new RepomemError('INVALID_ARGUMENT', `invalid search option ${where}: ${issue?.message ?? 'invalid value'}`, {
      details: { options },
    });
  }
  return {
    limit: parsed.data.limit ?? DEFAULT_SEARCH_LIMIT,
    snippets: parsed.data.snippets ?? DEFAULT_SEARCH_SNIPPETS,
    prefix: normalizePrefix(parsed.data.prefix),
  };
}
