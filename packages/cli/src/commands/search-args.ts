// Why: turns `repomem search ...` typed arguments (from its declaration) and environment into a
// validated request (pure), with Sepo's flags, defaults (limit 5, snippets 3) and `$MEMORY_QUERY`
// fallback.
import { configuredEmbedderSpec } from '@repomem/core';
import { CliUsageError } from '../errors.js';
import { SEARCH } from '../tree/decl/search.js';
import { asksForHelp } from '../tree/help.js';
import { parseCommand } from '../tree/parse-command.js';
import type { ArgsOf } from '../tree/types.js';

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
 * The request of `search`'s typed arguments. The query is the positionals joined with one space
 * (trimmed), else `$MEMORY_QUERY` (trimmed); empty is a usage error (`Missing search query.`).
 */
export function searchRequestOf(
  { options, positionals }: ArgsOf<typeof SEARCH.options>,
  env: Readonly<Record<string, string | undefined>>,
): Extract<SearchRequest, { help: false }> {
  const query = positionals.join(' ').trim() || (env.MEMORY_QUERY ?? '').trim();
  if (query === '') throw new CliUsageError('Missing search query.');
  return {
    help: false,
    query,
    dir: options.dir,
    store: options.store,
    repo: options.repo,
    limit: options.limit,
    snippets: options.snippets,
    embedder: configuredEmbedderSpec(options.embedder, env),
    json: options.json,
  };
}

/** Parse the arguments after `search` (see {@link searchRequestOf}); `--help` asks for the help. */
export function parseSearchArguments(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): SearchRequest {
  if (asksForHelp(SEARCH, argv)) return { help: true };
  return searchRequestOf(parseCommand(SEARCH, argv), env);
}
