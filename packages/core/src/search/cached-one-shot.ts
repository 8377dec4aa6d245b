// Why: the one-shot search with an on-disk analysis cache. Documents whose file stamp matches the
// cache are ranked from the cached figures without being read; the others are read, analysed in
// full and added to the cache, which is rewritten only when something changed. The first query
// on a tree only marks it as seen, so a single search never pays for building the cache. The figures are
// exactly what an analysis of the bytes gives, so results are identical with or without a cache.
import type { MemoryStore, ReadAllOptions } from '../store/contract.js';
import {
  AnalysisCacheBuilder,
  type AnalysisCacheData,
  type AnalysisCacheStorage,
  deserializeAnalysisCache,
  lowerBound,
  MAX_ANALYSIS_CACHE_BYTES,
} from './analysis-cache.js';
import { decodeSearchableBytes } from './document-filter.js';
import { analyzeDocument, extractDocumentText, scanWords } from './document-text.js';
import { wordFrequency } from './naive-ranking.js';
import { mayHoldPairs } from './phrase-filter.js';
import { analyzeDocumentForQuery } from './query-analysis.js';
import {
  documentContainsPhrase,
  matchedShareOf,
  type QueryPlan,
  type QueryTerm,
  termNeedle,
  wordMatchWeight,
} from './query-plan.js';
import { RANKING } from './scoring.js';
import type { StreamingRanking } from './streaming-ranking.js';

/** Posting entries above which a cache is not built (it would exceed {@link MAX_ANALYSIS_CACHE_BYTES}). */
const MAX_ENTRIES = MAX_ANALYSIS_CACHE_BYTES / 8;

async function loadCache(storage: AnalysisCacheStorage): Promise<AnalysisCacheData | undefined> {
  try {
    const bytes = await storage.load();
    return bytes === undefined ? undefined : deserializeAnalysisCache(bytes);
  } catch {
    return undefined; // an unreadable cache is no cache
  }
}

/** Weighted body hits of one term in every cached document it occurs in (exactly `wordFrequency`'s sums). */
function termHits(cache: AnalysisCacheData, term: QueryTerm, into: Float64Array): void {
  const visit = (wordIndex: number, weight: number): void => {
    const end = cache.postingsStart[wordIndex + 1] as number;
    for (let at = cache.postingsStart[wordIndex] as number; at < end; at += 2) {
      const document = cache.postings[at] as number;
      into[document] = (into[document] as number) + weight * (cache.postings[at + 1] as number);
    }
  };
  const words = cache.words;
  if (term.kind === 'infix') {
    words.forEach((word, index) => {
      if (word.includes(term.text)) visit(index, 1);
    });
    return;
  }
  for (let index = lowerBound(words, termNeedle(term)); index < words.length; index++) {
    const word = words[index] as string;
    if (!word.startsWith(termNeedle(term))) break;
    const weight = wordMatchWeight(term, word, RANKING.prefixWeight);
    if (weight > 0) visit(index, weight);
  }
}

/** Whether a plan can be ranked from cached figures (substring terms need the lines). */
export function canUseAnalysisCache(plan: QueryPlan): boolean {
  return plan.terms.every((term) => term.kind !== 'substring');
}

/**
 * Offer every searchable document of `store` (whole store, no prefix) to `ranking`, through the
 * cache in `storage`; `accept` is the search's own filter. Rewrites the cache when it changed.
 */
export async function rankThroughCache(
  store: MemoryStore & { readAll: NonNullable<MemoryStore['readAll']> },
  plan: QueryPlan,
  ranking: StreamingRanking,
  accept: (path: string, size: number) => boolean,
  storage: AnalysisCacheStorage,
): Promise<void> {
  const cache = await loadCache(storage);
  const byPath = new Map<string, number>();
  cache?.documents.forEach((document, index) => {
    byPath.set(document.path, index);
  });
  const known: number[] = [];
  const builder = new AnalysisCacheBuilder();
  // The first query on a tree only marks it as seen (an empty cache): a process that searches a
  // tree once (a CI job on a fresh runner) never pays for building a cache it will not reuse. The
  // second query builds the cache; later ones rank unchanged files from it.
  const firstQuery = cache === undefined;
  let building = !firstQuery;
  /** Documents added to the new cache, and cached documents read again (changed since). */
  let added = 0;
  let reread = 0;
  const take = (path: string, content: Uint8Array, stamp: string | undefined): void => {
    if (byPath.has(path)) reread++;
    const decoded = decodeSearchableBytes(content);
    if (!building || stamp === undefined) {
      // Not cacheable (modified too recently to trust its stamp): the query's own analysis suffices.
      if (decoded.kind === 'text') ranking.add(analyzeDocumentForQuery(path, decoded.text, plan));
      return;
    }
    const analysis = decoded.kind === 'text' ? analyzeDocument(path, decoded.text) : undefined;
    if (analysis !== undefined) ranking.add(analysis);
    builder.add(path, stamp, analysis);
    added++;
    if (builder.entries > MAX_ENTRIES) building = false;
  };
  const options: ReadAllOptions = {
    prefix: '',
    accept,
    each: (document, stamp) => take(document.path, document.content, stamp),
    ...(cache === undefined
      ? {}
      : {
          known: (path: string, stamp: string): boolean => {
            const index = byPath.get(path);
            if (index === undefined || cache.documents[index]?.stamp !== stamp) return false;
            known.push(index);
            return true;
          },
        }),
  };
  for (const document of await store.readAll(options)) take(document.path, document.content, undefined);

  if (cache !== undefined && known.length > 0) await rankKnown(store, plan, ranking, cache, known);

  if (firstQuery) {
    try {
      await storage.save(builder.serialize());
    } catch {
      // A cache that cannot be written only makes the next search slower.
    }
    return;
  }
  // Rewrite when a document was added, or one the cache holds is gone (deleted, now refused).
  // A cached document changed too recently to cache again keeps its stale entry until then.
  const removed = cache === undefined ? 0 : cache.documents.length - known.length - reread;
  if ((added === 0 && removed === 0) || !building) return;
  if (cache !== undefined) builder.carry(cache, known);
  if (builder.entries > MAX_ENTRIES) return;
  const bytes = builder.serialize();
  if (bytes.byteLength > MAX_ANALYSIS_CACHE_BYTES) return;
  try {
    await storage.save(bytes);
  } catch {
    // A cache that cannot be written only makes the next search slower.
  }
}

/** Offer the documents at `known` (indices into the cache) from their cached figures. */
async function rankKnown(
  store: MemoryStore,
  plan: QueryPlan,
  ranking: StreamingRanking,
  cache: AnalysisCacheData,
  known: readonly number[],
): Promise<void> {
  const terms = plan.terms;
  const hits = terms.map((term) => {
    const into = new Float64Array(cache.documents.length);
    termHits(cache, term, into);
    return into;
  });
  for (const index of known) {
    const document = cache.documents[index];
    if (document === undefined || document.length < 0) continue;
    const body = new Float64Array(terms.length);
    const pathHits = new Float64Array(terms.length);
    const lowerPath = document.path.toLowerCase();
    let pathWords: Map<string, number> | undefined;

    terms.forEach((term, termIndex) => {
      body[termIndex] = hits[termIndex]?.[index] as number;
      if (lowerPath.includes(termNeedle(term))) {
        if (pathWords === undefined) {
          pathWords = new Map();
          scanWords(lowerPath, pathWords, undefined, terms);
        }
        pathHits[termIndex] = wordFrequency(term, pathWords);
      }
    });
    let phrase = false;
    if (terms.length > 0 && plan.phrase !== undefined && matchedShareOf(plan, body, pathHits).all) {
      const start = cache.filterStart[index] as number;
      const end = cache.filterStart[index + 1] as number;
      if (mayHoldPairs(cache.filters.subarray(start, end), 0, end - start, plan.phrasePairs)) {
        const stored = await store.get(document.path);
        const decoded = stored === undefined ? undefined : decodeSearchableBytes(stored.content);
        phrase =
          decoded?.kind === 'text' && documentContainsPhrase(plan, extractDocumentText(document.path, decoded.text));
      }
    }
    ranking.addCounts(document.path, document.length, body, pathHits, phrase);
  }
}
