// Why: search has one home. Every caller (the memory facade, the CLI, the MCP server, library
// users) searches a store through `searchStore`: a store with its own index names candidate
// documents (and corpus figures), and core reads and ranks exactly those with its one formula
// and builds the snippets; any other store, or a query its index cannot answer, is searched by
// core's engine over the documents. So a query ranks the same on every store.
import type { MemoryStore } from '../store/contract.js';
import type { AnalysisCacheStorage } from './analysis-cache.js';
import { candidateTerms, oversizedInScope, readDocuments } from './candidate-reads.js';
import { decodeSearchableBytes, isOversized, isSearchablePath } from './document-filter.js';
import { countDocumentWords, type DocumentAnalysis } from './document-text.js';
import { SearchEngine } from './engine.js';
import { rankDocumentsNaively } from './naive-ranking.js';
import { analyzeDocumentForQuery } from './query-analysis.js';
import { planQuery, type QueryPlan, shownTermCount } from './query-plan.js';
import { toSearchHit } from './ranked.js';
import { type ResolvedSearchOptions, resolveSearchOptions } from './search-options.js';
import { skippedList } from './skipped-documents.js';
import type { SearchOptions, SearchResponse } from './types.js';

/** How {@link searchStore} searches a store that has no usable index. */
export interface SearchStoreOptions extends SearchOptions {
  /**
   * The engine whose per-store cache to use (repeated queries in one process re-read only
   * changed documents). Without one, the store is searched once: each document read once and
   * nothing kept, which is fastest for a process that asks one question.
   */
  readonly engine?: SearchEngine;
  /**
   * Without `engine`: an on-disk analysis cache for the one-shot search (see
   * `OneShotSearchOptions.analysisCache`); a store answering candidates from its own index
   * does not use it.
   */
  readonly analysisCache?: AnalysisCacheStorage;
}

/**
 * The length core's ranking uses for a document (its words, JSON field values only), or
 * `undefined` when core does not search it (a skipped path, binary, larger than 512 KiB). Stores
 * that answer {@link MemoryStore.searchCandidates} keep it per document to report corpus figures.
 */
export function searchableLength(path: string, content: Uint8Array): number | undefined {
  if (!isSearchablePath(path) || isOversized(content.byteLength)) return undefined;
  const decoded = decodeSearchableBytes(content);
  return decoded.kind === 'text' ? countDocumentWords(path, decoded.text) : undefined;
}

/** A one-shot search through the store's candidates (each read once, nothing kept), or `undefined`. */
async function searchCandidatesOnce(
  store: MemoryStore,
  plan: QueryPlan,
  options: ResolvedSearchOptions,
): Promise<SearchResponse | undefined> {
  if (store.searchCandidates === undefined) return undefined;
  const terms = candidateTerms(plan);
  if (terms === undefined) return undefined;
  const answer = await store.searchCandidates({ kind: 'lexical', terms, prefix: options.prefix });
  if (answer.status !== 'candidates') return undefined;
  const toRead: string[] = [];
  for (const candidate of answer.candidates) {
    if (isSearchablePath(candidate.path) && candidate.path.startsWith(options.prefix)) toRead.push(candidate.path);
  }
  const analyses: DocumentAnalysis[] = [];
  for (const document of await readDocuments(store, toRead)) {
    if (document === undefined) continue;
    const decoded = decodeSearchableBytes(document.content);
    if (decoded.kind === 'text') analyses.push(analyzeDocumentForQuery(document.path, decoded.text, plan));
  }
  const ranking = rankDocumentsNaively(analyses, plan, options.limit, answer.corpus);
  const response: SearchResponse = {
    query: plan.query,
    terms: plan.terms.slice(0, shownTermCount(plan)).map((term) => term.text),
    documentCount: ranking.documentCount,
    results: ranking.ranked.map((document) => toSearchHit(document, plan, ranking.idfs, options.snippets)),
  };
  // The index leaves oversized documents out; the answer or the listing names them, as core's
  // own scan does.
  const skipped = skippedList(await oversizedInScope(store, answer, options.prefix), options.prefix);
  return skipped.length === 0 ? response : { ...response, skipped };
}

/**
 * Search a store: candidates from its index when it has one (ranked by core), else core's
 * engine (`options.engine`'s cache, or one streamed pass over the documents). Documents larger
 * than 512 KiB are not searched; every path lists them in the response's `skipped`. Throws `INVALID_ARGUMENT` /
 * `INVALID_PATH` for bad options; store errors propagate.
 *
 * @example
 * ```ts
 * const { results } = await searchStore(store, 'pnpm test', { limit: 5 });
 * ```
 */
export async function searchStore(
  store: MemoryStore,
  query: string,
  options: SearchStoreOptions = {},
): Promise<SearchResponse> {
  const resolved = resolveSearchOptions(options);
  const engineOptions: SearchOptions = { limit: resolved.limit, snippets: resolved.snippets, prefix: resolved.prefix };
  // With an engine, one pipeline for every store: its index keyed by document versions, fed by
  // the store's candidates or its listing (see SearchEngine.search).
  if (options.engine !== undefined) return options.engine.search(store, query, engineOptions);
  const plan = planQuery(query);
  const viaIndex = plan.terms.length === 0 ? undefined : await searchCandidatesOnce(store, plan, resolved);
  if (viaIndex !== undefined) return viaIndex;
  return new SearchEngine().searchOnce(
    store,
    query,
    options.analysisCache === undefined ? engineOptions : { ...engineOptions, analysisCache: options.analysisCache },
  );
}
