// Why: the work of `repomem search` once its arguments are valid: open the chosen store (no
// memory facade: a search only reads), ask core's `searchStore` one question (a store's index
// names candidates and core ranks them, or core reads each document once; no index is built
// for a process that asks one question) and print Sepo's text or JSON output. With an embedder
// configured the lexical ranking is fused with the semantic index's (`hybridSearch`); without
// one no model or vector code is loaded.
import { type SearchResponse, searchStore } from '@repomem/core';
import { ExitCode } from '../errors.js';
import { formatSearchJson, formatSearchText, formatSkippedNotice } from '../format/search-output.js';
import type { CliIo } from '../io.js';
import { openChosenStore } from '../open-chosen-store.js';
import { reportError } from '../report-error.js';
import { chooseStore, documentRepoFor } from '../store-selection.js';
import { SEARCH } from '../tree/decl/search.js';
import { helpText } from '../tree/help.js';
import type { SearchRequest } from './search-args.js';

/**
 * Run a parsed, non-help `repomem search` request and print its results; returns the exit code.
 * Never throws: a failure is reported like every command's (see `reportError`), as one JSON
 * object under `--json`.
 */
export async function runSearch(request: Extract<SearchRequest, { help: false }>, io: CliIo): Promise<number> {
  try {
    const chosen = await chooseStore(request, io);
    const repo = documentRepoFor(chosen, request.repo, io);
    const store = await openChosenStore(chosen, { repo, readOnly: true });
    const location = chosen.kind === 'dir' ? chosen.directory.absolute : { store: chosen.label };
    try {
      // A memory directory keeps an analysis cache outside the tree (REPOMEM_SEARCH_CACHE=off disables it).
      const analysisCache =
        chosen.kind === 'dir' && 'root' in store && typeof store.root === 'string'
          ? (await import('@repomem/store-fs')).searchCacheFile(store.root, io.env)
          : undefined;
      const options = {
        limit: request.limit,
        snippets: request.snippets,
        ...(analysisCache === undefined ? {} : { analysisCache }),
      };
      let response: SearchResponse;
      if (request.embedder === undefined) response = await searchStore(store, request.query, options);
      else {
        const { hybridSearch, openCliSemanticIndex } = await import('../open-embedder.js');
        const semantic = await openCliSemanticIndex(request.embedder, store, io);
        const hybrid = await hybridSearch(store, request.query, { ...options, semantic });
        if (hybrid.semantic.status === 'failed') {
          io.stderr.write(`warning: semantic ranking unavailable (${hybrid.semantic.message}); lexical results\n`);
        }
        response = hybrid;
      }
      io.stdout.write(
        request.json
          ? formatSearchJson(request.query, response, location)
          : formatSearchText(request.query, response, location),
      );
      // Text mode: documents left out are named on stderr (`--json` lists them in `skipped`).
      if (!request.json) io.stderr.write(formatSkippedNotice(response));
    } finally {
      await store.close();
    }
    return ExitCode.ok;
  } catch (error) {
    return reportError(error, io, helpText(SEARCH), request.json);
  }
}
