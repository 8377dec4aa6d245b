// Why: turns `repomem search ...` arguments and environment into a validated request (pure),
// with Sepo's flags, defaults (limit 5, snippets 3) and `$MEMORY_QUERY` fallback.
import { configuredEmbedderSpec } from '@repomem/core';
import { booleanOption, type OptionSpecs, parseArguments, parsePositiveInteger, stringOption } from '../args.js';
import { CliUsageError } from '../errors.js';
import { SEARCH } from '../tree/decl/search.js';
import { optionSpecsOf } from '../tree/help.js';

/** Options accepted by `repomem search`. */
export const SEARCH_OPTIONS: OptionSpecs = optionSpecsOf(SEARCH);

/** A validated `repomem search` invocation. */
export type SearchRequest =
  | { readonly help: true }
  | {
      readonly help: false;
      readonly query: string;
      readonly dir: string | undefined;
      /** `--store` spec. */
      readonly store: string | undefined;
      /** `--repo` slug (scopes the SQLite document store). */
      readonly repo: string | undefined;
      readonly limit: number;
      readonly snippets: number;
      /** Embedder spec (`--embedder`, else `$REPOMEM_EMBEDDER`); `undefined`: lexical search, no model loaded. */
      readonly embedder: string | undefined;
      readonly json: boolean;
    };

/**
 * Parse the arguments after `search`. The query is the positionals joined with one space
 * (trimmed), else `$MEMORY_QUERY` (trimmed); empty is a usage error (`Missing search query.`).
 */
export function parseSearchArguments(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): SearchRequest {
  const parsed = parseArguments(argv, SEARCH_OPTIONS);
  if (booleanOption(parsed, 'help')) return { help: true };
  const rawLimit = parsed.values.limit;
  const rawSnippets = parsed.values.snippets;
  const limit = typeof rawLimit === 'string' ? parsePositiveInteger(rawLimit, '--limit') : 5;
  const snippets = typeof rawSnippets === 'string' ? parsePositiveInteger(rawSnippets, '--snippets') : 3;
  const query = parsed.positionals.join(' ').trim() || (env.MEMORY_QUERY ?? '').trim();
  if (query === '') throw new CliUsageError('Missing search query.');
  return {
    help: false,
    query,
    dir: stringOption(parsed, 'dir'),
    store: stringOption(parsed, 'store'),
    repo: stringOption(parsed, 'repo'),
    limit,
    snippets,
    embedder: configuredEmbedderSpec(stringOption(parsed, 'embedder'), env),
    json: booleanOption(parsed, 'json'),
  };
}
