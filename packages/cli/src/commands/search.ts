// Why: `repomem search`: thin wiring from a parsed request to a one-shot search and Sepo's text
// or JSON output. The process asks one question, so core's `searchOnce` (each document read once,
// no index built) answers it unless the store searches natively.
import { type Memory, SearchEngine, type SearchOptions, type SearchResponse } from '@repomem/core';
import { ExitCode } from '../errors.js';
import { formatSearchJson, formatSearchText } from '../format/search-output.js';
import type { CliIo } from '../io.js';
import { openChosenMemory } from '../open-memory.js';
import { reportError, wantsJson } from '../report-error.js';
import { chooseStore, documentRepoFor } from '../store-selection.js';
import { SEARCH_USAGE } from '../usage.js';
import { parseSearchArguments } from './search-args.js';

/**
 * Search like `memory.search` with the same results, but for a one-shot process: a store
 * without native search is searched with `SearchEngine.searchOnce` instead of building the
 * cached index the facade keeps for repeated queries.
 */
function searchOnce(memory: Memory, query: string, options: SearchOptions): Promise<SearchResponse> {
  const store = memory.store;
  if (store.capabilities.nativeSearch && store.search) return memory.search(query, options);
  return new SearchEngine().searchOnce(store, query, options);
}

/** Run `repomem search <argv...>`; returns the exit code. */
export async function runSearchCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const request = parseSearchArguments(argv, io.env);
    if (request.help) {
      io.stdout.write(SEARCH_USAGE);
      return ExitCode.ok;
    }
    const chosen = chooseStore(request, io);
    const repo = documentRepoFor(chosen, request.repo, io.env);
    const { memory } = await openChosenMemory(chosen, { mode: 'read-only', repo });
    const location = chosen.kind === 'dir' ? chosen.directory.absolute : { store: chosen.label };
    try {
      const response = await searchOnce(memory, request.query, { limit: request.limit, snippets: request.snippets });
      io.stdout.write(
        request.json
          ? formatSearchJson(request.query, response, location)
          : formatSearchText(request.query, response, location),
      );
    } finally {
      await memory.store.close();
    }
    return ExitCode.ok;
  } catch (error) {
    return reportError(error, io, SEARCH_USAGE, json);
  }
}
