// Why: the work of `repomem search` once its arguments are valid: open the chosen store (no
// memory facade: a search only reads), ask one question and print Sepo's text or JSON output.
// The process asks one question, so core's `searchOnce` (each document read once, no index
// built) answers it unless the store searches natively. The binary bundles this module on its
// own (see tsup.config.ts), so it reports its own errors: class checks such as
// `instanceof CliDataError` only hold inside one bundle.
import { type MemoryStore, SearchEngine, type SearchOptions, type SearchResponse } from '@repomem/core';
import { ExitCode } from '../errors.js';
import { formatSearchJson, formatSearchText } from '../format/search-output.js';
import type { CliIo } from '../io.js';
import { openChosenStore } from '../open-chosen-store.js';
import { reportError } from '../report-error.js';
import { chooseStore, documentRepoFor } from '../store-selection.js';
import { SEARCH_USAGE } from '../usage.js';
import type { SearchRequest } from './search-args.js';

/**
 * Search like `memory.search` with the same results, but for a one-shot process: a store
 * without native search is searched with `SearchEngine.searchOnce` instead of building the
 * cached index the facade keeps for repeated queries.
 */
function searchOnce(store: MemoryStore, query: string, options: SearchOptions): Promise<SearchResponse> {
  if (store.capabilities.nativeSearch && store.search) return store.search(query, options);
  return new SearchEngine().searchOnce(store, query, options);
}

/**
 * Run a parsed, non-help `repomem search` request and print its results; returns the exit code.
 * Never throws: a failure is reported like every command's (see `reportError`), as one JSON
 * object under `--json`.
 */
export async function runSearch(request: Extract<SearchRequest, { help: false }>, io: CliIo): Promise<number> {
  try {
    const chosen = chooseStore(request, io);
    const repo = documentRepoFor(chosen, request.repo, io.env);
    const store = await openChosenStore(chosen, { repo, readOnly: true });
    const location = chosen.kind === 'dir' ? chosen.directory.absolute : { store: chosen.label };
    try {
      const response = await searchOnce(store, request.query, { limit: request.limit, snippets: request.snippets });
      io.stdout.write(
        request.json
          ? formatSearchJson(request.query, response, location)
          : formatSearchText(request.query, response, location),
      );
    } finally {
      await store.close();
    }
    return ExitCode.ok;
  } catch (error) {
    return reportError(error, io, SEARCH_USAGE, request.json);
  }
}
