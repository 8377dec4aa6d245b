// Why: core's one ranking pipeline for repeated queries, over any MemoryStore. Each store gets an
// inverted index of analysed documents keyed by their versions (search-index.ts). Each query
// first asks the store's revision: unchanged since the index was last brought in line with the
// store, the index answers alone (no read, no listing, no candidate query). Otherwise the index is
// fed before ranking: from the store's own index (FTS5, tsvector) while it holds less than half
// the corpus (a first query reads only the documents it can match), else from the version
// listing (only new or changed documents are read, removed ones dropped), after which it is
// complete. Either way a document version is analysed once, and results are never stale. The
// naive path (re-read and re-score everything) stays as the reference and benchmark baseline;
// the one-shot path (`searchOnce`) serves a process that asks one question.
import type { MemoryStore, StoredDocument } from '../store/contract.js';
import type { AnalysisCacheStorage } from './analysis-cache.js';

export { type AnalysisCacheStorage, MAX_ANALYSIS_CACHE_BYTES } from './analysis-cache.js';

import { canUseAnalysisCache, rankThroughCache } from './cached-one-shot.js';
import { candidateTerms, oversizedInScope, readDocuments } from './candidate-reads.js';
import {
  type DecodedDocument,
  decodeSearchableBytes,
  decodeSearchableText,
  isOversized,
  isSearchablePath,
} from './document-filter.js';
import { analyzeDocument, type DocumentAnalysis, type DocumentText, extractDocumentText } from './document-text.js';
import { rankDocumentsNaively } from './naive-ranking.js';
import { analyzeDocumentForQuery } from './query-analysis.js';
import { planQuery, type QueryPlan, shownTermCount } from './query-plan.js';
import { type Ranking, toSearchHit } from './ranked.js';
import { SearchIndex } from './search-index.js';
import { type ResolvedSearchOptions, resolveSearchOptions } from './search-options.js';
import { skippedList } from './skipped-documents.js';
import { StreamingRanking } from './streaming-ranking.js';
import type { SearchOptions, SearchResponse } from './types.js';

/** A document given directly to {@link SearchEngine.searchDocuments}. */
export interface SearchableDocument {
  /** Path relative to the memory root. */
  readonly path: string;
  /** UTF-8 bytes or text. */
  readonly content: string | Uint8Array;
}

/** Options of {@link SearchEngine.searchOnce}. */
export interface OneShotSearchOptions extends SearchOptions {
  /**
   * Where to keep an on-disk analysis cache between processes (see `AnalysisCacheStorage`): a
   * document whose file stamp is unchanged is ranked from it without being read. Used for
   * queries over the whole store (no `prefix`) of a store whose `readAll` offers stamps (the
   * directory store); results are identical with or without it.
   */
  readonly analysisCache?: AnalysisCacheStorage;
}

/** The members of a store a cached one-shot search uses, bound to the store. */
function storeView(store: MemoryStore): MemoryStore {
  return {
    specificationVersion: store.specificationVersion,
    name: store.name,
    capabilities: store.capabilities,
    state: store.state,
    get: (path) => store.get(path),
    list: (prefix) => store.list(prefix),
    write: (operations, metadata) => store.write(operations, metadata),
    revision: () => store.revision(),
    close: () => store.close(),
  };
}

/** Options of {@link SearchEngine}. */
export interface SearchEngineOptions {
  /** Documents read from a store in parallel while refreshing the index (default 32). */
  readonly readConcurrency?: number;
}

/** Counters describing what the engine did for one store (for tests and diagnostics). */
export interface SearchCacheStats {
  /** Documents currently indexed. */
  readonly documents: number;
  /** Documents skipped as oversized or binary (remembered by version). */
  readonly skipped: number;
  /** Documents read from the store since the cache was created. */
  readonly reads: number;
}

interface StoreCache {
  /** Analysed documents by version; complete (every searchable document) once `revision` is set. */
  readonly index: SearchIndex;
  /** path -> version of documents skipped as oversized or binary, so they are not re-read. */
  readonly skipped: Map<string, string>;
  /** path -> size of the documents skipped as oversized (reported in responses). */
  readonly oversized: Map<string, number>;
  /** The store revision the index was last brought in line with by a listing. */
  revision: string | undefined;
  /** Searchable documents the store's candidate index last reported (0: never asked). */
  corpusCount: number;
  reads: number;
  queue: Promise<unknown>;
}

function responseFrom(
  plan: QueryPlan,
  ranking: Ranking,
  options: ResolvedSearchOptions,
  skipped?: ReadonlyMap<string, number>,
): SearchResponse {
  const response: SearchResponse = {
    query: plan.query,
    terms: plan.terms.slice(0, shownTermCount(plan)).map((term) => term.text),
    documentCount: ranking.documentCount,
    results: ranking.ranked.map((document) => toSearchHit(document, plan, ranking.idfs, options.snippets)),
  };
  const list = skippedList(skipped, options.prefix);
  return list.length === 0 ? response : { ...response, skipped: list };
}

function inPrefix(path: string, prefix: string): boolean {
  return prefix === '' || path.startsWith(prefix);
}

/** Whether a document of this path and size is searched; an oversized one is recorded in `oversized`. */
function acceptForSearch(path: string, size: number, prefix: string, oversized: Map<string, number>): boolean {
  if (!isSearchablePath(path) || !inPrefix(path, prefix)) return false;
  if (!isOversized(size)) return true;
  oversized.set(path, size);
  return false;
}

async function mapWithConcurrency<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/**
 * Core's search engine: Sepo-compatible tokenizer, BM25-style ranking with word boundaries,
 * IDF, a path boost and a phrase bonus, readable JSON field snippets, and a per-store index
 * cached by document version.
 *
 * One engine may serve many stores; each store gets its own cache (released when the store is
 * garbage-collected, or with {@link SearchEngine.forget}). Queries on one store are serialised.
 */
export class SearchEngine {
  readonly #caches = new WeakMap<MemoryStore, StoreCache>();
  readonly #readConcurrency: number;

  constructor(options: SearchEngineOptions = {}) {
    this.#readConcurrency = Math.max(1, Math.floor(options.readConcurrency ?? 32));
  }

  /**
   * Search a store through its cached index (see the module comment): answered from the index
   * alone while the store's revision is unchanged; otherwise fed first from the store's
   * candidates (`searchCandidates`) or its version listing, reading only documents whose version
   * the index lacks. Results are never stale and equal the naive scan's. Throws
   * `INVALID_ARGUMENT` / `INVALID_PATH` for bad options; store errors propagate.
   */
  async search(store: MemoryStore, query: string, options?: SearchOptions): Promise<SearchResponse> {
    const resolved = resolveSearchOptions(options);
    const plan = planQuery(query);
    const cache = this.#cacheFor(store);
    const run = cache.queue.then(async () => {
      // The revision is read before anything else: a write landing after it leaves an older
      // revision recorded, so the next query looks again (extra work, never staleness).
      const revision = await store.revision();
      if (revision !== cache.revision) {
        if (cache.revision === undefined) {
          const viaCandidates = await this.#searchCandidates(store, cache, plan, resolved);
          if (viaCandidates !== undefined) return viaCandidates;
        }
        await this.#refresh(store, cache, revision);
      }
      if (plan.terms.length === 0) {
        return responseFrom(
          plan,
          { documentCount: this.#countInScope(cache, resolved.prefix), idfs: [], ranked: [] },
          resolved,
          cache.oversized,
        );
      }
      return responseFrom(plan, cache.index.rank(plan, resolved.prefix, resolved.limit), resolved, cache.oversized);
    });
    cache.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Answer from the store's complete candidates, ranked through the index after reading the
   * candidates whose version it lacks; `undefined` when the store has no such index, cannot
   * answer this query exactly, or the index already holds half the corpus (one listing then
   * completes it, and later queries need neither).
   */
  async #searchCandidates(
    store: MemoryStore,
    cache: StoreCache,
    plan: QueryPlan,
    options: ResolvedSearchOptions,
  ): Promise<SearchResponse | undefined> {
    if (store.searchCandidates === undefined || plan.terms.length === 0) return undefined;
    if (cache.corpusCount > 0 && cache.index.size * 2 >= cache.corpusCount) return undefined;
    const terms = candidateTerms(plan);
    if (terms === undefined) return undefined;
    const answer = await store.searchCandidates({ kind: 'lexical', terms, prefix: options.prefix });
    if (answer.status !== 'candidates' || !answer.complete) return undefined;
    cache.corpusCount = Math.max(cache.corpusCount, answer.corpus.documentCount);
    const paths: string[] = [];
    const toRead: string[] = [];
    for (const candidate of answer.candidates) {
      if (!isSearchablePath(candidate.path) || !inPrefix(candidate.path, options.prefix)) continue;
      paths.push(candidate.path);
      const version = candidate.version;
      if (version !== undefined && cache.index.versionOf(candidate.path) === version) continue;
      if (version !== undefined && cache.skipped.get(candidate.path) === version) continue;
      toRead.push(candidate.path);
    }
    const documents = await readDocuments(store, toRead);
    toRead.forEach((path, index) => {
      cache.reads++;
      this.#take(cache, path, documents[index]);
    });
    const ranking = cache.index.rank(plan, options.prefix, options.limit, { paths, corpus: answer.corpus });
    return responseFrom(plan, ranking, options, await oversizedInScope(store, answer, options.prefix));
  }

  /** Bring one read document into the cache (`undefined`: it is gone). */
  #take(cache: StoreCache, path: string, document: StoredDocument | undefined): void {
    if (document === undefined) {
      cache.index.remove(path);
      cache.skipped.delete(path);
      return;
    }
    const decoded = decodeSearchableBytes(document.content);
    if (decoded.kind === 'skipped') {
      cache.index.remove(path);
      cache.skipped.set(path, document.version);
      if (decoded.reason === 'too-large') cache.oversized.set(path, document.content.byteLength);
      return;
    }
    cache.skipped.delete(path);
    cache.index.upsert(path, document.version, analyzeDocument(path, decoded.text));
  }

  /**
   * Search a store by listing and reading every document and scoring each one directly, with
   * no cache: the reference behaviour and the benchmark baseline. Same results as {@link search}.
   */
  async searchNaive(store: MemoryStore, query: string, options?: SearchOptions): Promise<SearchResponse> {
    const resolved = resolveSearchOptions(options);
    const plan = planQuery(query);
    const oversized = new Map<string, number>();
    const entries = (await store.list()).filter((entry) =>
      acceptForSearch(entry.path, entry.size, resolved.prefix, oversized),
    );
    const analyses = await mapWithConcurrency(entries, this.#readConcurrency, async (entry) => {
      const document = await store.get(entry.path);
      if (document === undefined) return undefined;
      const decoded = decodeSearchableBytes(document.content);
      return decoded.kind === 'text' ? analyzeDocument(entry.path, decoded.text) : undefined;
    });
    return this.#rankAnalyses(plan, analyses, resolved, oversized);
  }

  /**
   * Search a store once, for a process that asks a single question (the `repomem search`
   * command): every document read once (streamed in one pass with the store's `readAll` when it
   * has one, else one listing and a `get` per document), and no index built or kept. A document
   * is analysed fully only when it can match a term (see `analyzeDocumentForQuery` in
   * query-analysis.ts); the others only count their words. Of each document only a few numbers
   * are kept (see streaming-ranking.ts), so memory does not grow with the documents' size; the
   * documents shown are read again for their snippets. Documents over 512 KiB are listed in the
   * response's `skipped`. Same results as {@link search} and {@link searchNaive}.
   */
  async searchOnce(store: MemoryStore, query: string, options?: OneShotSearchOptions): Promise<SearchResponse> {
    const resolved = resolveSearchOptions(options);
    const plan = planQuery(query);
    const ranking = new StreamingRanking(plan);
    const oversized = new Map<string, number>();
    const accept = (path: string, size: number): boolean => acceptForSearch(path, size, resolved.prefix, oversized);
    const take = (path: string, content: Uint8Array): void => {
      const decoded = decodeSearchableBytes(content);
      if (decoded.kind === 'text') ranking.add(analyzeDocumentForQuery(path, decoded.text, plan));
    };
    const cache = options?.analysisCache;
    const readAll = store.readAll?.bind(store);
    if (cache !== undefined && readAll !== undefined && resolved.prefix === '' && canUseAnalysisCache(plan)) {
      await rankThroughCache({ ...storeView(store), readAll }, plan, ranking, accept, cache);
    } else if (store.readAll !== undefined) {
      // One pass: the store streams each wanted document once (no separate listing pass); a store
      // that does not stream returns them instead.
      const returned = await store.readAll({
        prefix: resolved.prefix,
        accept,
        each: (document) => take(document.path, document.content),
      });
      for (const document of returned) take(document.path, document.content);
    } else {
      const entries = (await store.list(resolved.prefix)).filter((entry) => accept(entry.path, entry.size));
      await mapWithConcurrency(entries, this.#readConcurrency, async (entry) => {
        const document = await store.get(entry.path);
        if (document !== undefined) take(entry.path, document.content);
      });
    }
    const reread = async (path: string): Promise<DocumentText | undefined> => {
      const document = await store.get(path);
      if (document === undefined) return undefined;
      const decoded = decodeSearchableBytes(document.content);
      return decoded.kind === 'text' ? extractDocumentText(path, decoded.text) : undefined;
    };
    return responseFrom(plan, await ranking.rank(resolved.limit, reread), resolved, oversized);
  }

  /** Search documents given in memory (no store, no cache), with the same rules and ranking. */
  searchDocuments(documents: Iterable<SearchableDocument>, query: string, options?: SearchOptions): SearchResponse {
    const resolved = resolveSearchOptions(options);
    const plan = planQuery(query);
    const analyses: Array<DocumentAnalysis | undefined> = [];
    for (const document of documents) {
      if (!isSearchablePath(document.path) || !inPrefix(document.path, resolved.prefix)) continue;
      const decoded: DecodedDocument =
        typeof document.content === 'string'
          ? decodeSearchableText(document.content)
          : decodeSearchableBytes(document.content);
      analyses.push(decoded.kind === 'text' ? analyzeDocumentForQuery(document.path, decoded.text, plan) : undefined);
    }
    return this.#rankAnalyses(plan, analyses, resolved);
  }

  /** What the cache for `store` holds, or `undefined` when it was never searched. */
  cacheStats(store: MemoryStore): SearchCacheStats | undefined {
    const cache = this.#caches.get(store);
    if (cache === undefined) return undefined;
    return { documents: cache.index.size, skipped: cache.skipped.size, reads: cache.reads };
  }

  /** Drop the cache kept for `store` (the next query rebuilds it). */
  forget(store: MemoryStore): void {
    this.#caches.delete(store);
  }

  #rankAnalyses(
    plan: QueryPlan,
    analyses: ReadonlyArray<DocumentAnalysis | undefined>,
    options: ResolvedSearchOptions,
    oversized?: ReadonlyMap<string, number>,
  ): SearchResponse {
    const documents = analyses.filter((analysis): analysis is DocumentAnalysis => analysis !== undefined);
    if (plan.terms.length === 0)
      return responseFrom(plan, { documentCount: documents.length, idfs: [], ranked: [] }, options, oversized);
    return responseFrom(plan, rankDocumentsNaively(documents, plan, options.limit), options, oversized);
  }

  #cacheFor(store: MemoryStore): StoreCache {
    let cache = this.#caches.get(store);
    if (cache === undefined) {
      cache = {
        index: new SearchIndex(),
        skipped: new Map(),
        oversized: new Map(),
        revision: undefined,
        corpusCount: 0,
        reads: 0,
        queue: Promise.resolve(),
      };
      this.#caches.set(store, cache);
    }
    return cache;
  }

  #countInScope(cache: StoreCache, prefix: string): number {
    if (prefix === '') return cache.index.size;
    return cache.index.paths().filter((path) => path.startsWith(prefix)).length;
  }

  /** Bring the cache in line with the store at `revision` (read before this listing; see {@link search}). */
  async #refresh(store: MemoryStore, cache: StoreCache, revision: string): Promise<void> {
    const entries = await store.list();
    const listed = new Set<string>();
    const toRead: string[] = [];
    for (const entry of entries) {
      if (!isSearchablePath(entry.path)) continue;
      listed.add(entry.path);
      if (cache.index.versionOf(entry.path) === entry.version || cache.skipped.get(entry.path) === entry.version)
        continue;
      if (isOversized(entry.size)) {
        cache.index.remove(entry.path);
        cache.skipped.set(entry.path, entry.version);
        cache.oversized.set(entry.path, entry.size);
        continue;
      }
      cache.oversized.delete(entry.path);
      toRead.push(entry.path);
    }
    for (const path of cache.index.paths()) if (!listed.has(path)) cache.index.remove(path);
    for (const path of [...cache.skipped.keys()]) if (!listed.has(path)) cache.skipped.delete(path);
    for (const path of [...cache.oversized.keys()]) if (!listed.has(path)) cache.oversized.delete(path);
    if (store.getMany !== undefined) {
      const documents = await readDocuments(store, toRead);
      toRead.forEach((path, index) => {
        cache.reads++;
        this.#take(cache, path, documents[index]);
      });
    } else {
      await mapWithConcurrency(toRead, this.#readConcurrency, async (path) => {
        const document = await store.get(path);
        cache.reads++;
        this.#take(cache, path, document);
      });
    }
    cache.revision = revision;
  }
}
