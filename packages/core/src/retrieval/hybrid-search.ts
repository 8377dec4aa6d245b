// Why: search that understands paraphrase without losing what words do well. The lexical ranking
// (`searchStore`, one formula on every store) and the semantic index's ranking are fused by
// reciprocal rank fusion; semantic ranking alone ranked worse than lexical on the evaluation
// sets, so it is never used alone. With no semantic index this is exactly `searchStore`, and no
// model is loaded.
import { RepomemError } from '../errors.js';
import { DEFAULT_SEARCH_LIMIT } from '../search/search-options.js';
import { type SearchStoreOptions, searchStore } from '../search/search-store.js';
import type { SearchHit, SearchResponse, SearchSnippet } from '../search/types.js';
import type { MemoryStore } from '../store/contract.js';
import { reciprocalRankFusion } from './fusion.js';
import type { SemanticIndex } from './semantic-index.js';

/** Documents taken from each ranking before fusion, at least. */
export const HYBRID_CANDIDATE_DEPTH = 50;

/** Options of {@link hybridSearch}. */
export interface HybridSearchOptions extends SearchStoreOptions {
  /** The semantic index (from `createSemanticIndex`); without it the search is lexical. */
  readonly semantic?: Pick<SemanticIndex, 'searchDocuments'>;
  /** Reciprocal rank fusion `k` (default 60). */
  readonly k?: number;
  /** Aborts the semantic part. */
  readonly signal?: AbortSignal;
}

/** A hit of a hybrid search: a {@link SearchHit} and its place in each ranking. */
export interface HybridSearchHit extends SearchHit {
  /** 1-based rank in the lexical ranking (absent: no query word in the document). */
  readonly lexicalRank?: number;
  /** 1-based rank in the semantic ranking (absent: not among its nearest documents). */
  readonly semanticRank?: number;
}

/** A hybrid search answer: a {@link SearchResponse} and what the semantic part did. */
export interface HybridSearchResponse extends SearchResponse {
  readonly results: readonly HybridSearchHit[];
  /**
   * `off`: no semantic index (lexical only); `used`: fused; `failed`: the semantic part failed
   * (the model could not load, the vectors could not be read) and the answer is lexical.
   */
  readonly semantic: { readonly status: 'off' | 'used' } | { readonly status: 'failed'; readonly message: string };
}

/** The document line a semantic chunk came from (1-based), for its snippet; 1 when not found. */
function chunkLine(text: string | undefined, chunk: string): number {
  if (text === undefined) return 1;
  const lines = text.split('\n');
  const wanted = chunk
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length >= 8)
    .sort((a, b) => b.length - a.length);
  for (const line of wanted) {
    const index = lines.findIndex((candidate) => candidate.includes(line));
    if (index >= 0) return index + 1;
  }
  return 1;
}

/**
 * Search `store` for `query`: lexical (`searchStore`), and with `options.semantic` the lexical
 * and semantic rankings (each at least {@link HYBRID_CANDIDATE_DEPTH} deep) fused by reciprocal
 * rank fusion. A document found only by meaning gets one snippet: the chunk that matched. Scores
 * of a fused answer are the fusion scores. A failing semantic part does not fail the search:
 * the answer is lexical and says so in `semantic`. Throws like `searchStore` for bad options.
 *
 * @example
 * ```ts
 * const semantic = createSemanticIndex({ store, embedder });
 * const { results } = await hybridSearch(store, 'why do pushes to the memory branch fail', { semantic });
 * ```
 */
export async function hybridSearch(
  store: MemoryStore,
  query: string,
  options: HybridSearchOptions = {},
): Promise<HybridSearchResponse> {
  const { semantic, k, signal, ...lexicalOptions } = options;
  if (semantic === undefined) {
    const response = await searchStore(store, query, lexicalOptions);
    return { ...response, semantic: { status: 'off' } };
  }
  const limit = lexicalOptions.limit ?? DEFAULT_SEARCH_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new RepomemError('INVALID_ARGUMENT', `limit must be a positive integer, got ${String(limit)}`);
  }
  const depth = Math.max(HYBRID_CANDIDATE_DEPTH, limit * 2);
  const lexical = await searchStore(store, query, { ...lexicalOptions, limit: depth });
  let nearest: Awaited<ReturnType<SemanticIndex['searchDocuments']>>;
  try {
    nearest = await semantic.searchDocuments(query, {
      limit: depth,
      ...(lexicalOptions.prefix === undefined ? {} : { prefix: lexicalOptions.prefix }),
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    if (signal?.aborted === true) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return { ...lexical, results: lexical.results.slice(0, limit), semantic: { status: 'failed', message } };
  }
  const byPath = new Map(lexical.results.map((hit) => [hit.path, hit]));
  const chunks = new Map(nearest.map((hit) => [hit.path, hit.chunk]));
  const fused = reciprocalRankFusion(
    [lexical.results.map((hit) => hit.path), nearest.map((hit) => hit.path)],
    k === undefined ? {} : { k },
  ).slice(0, limit);
  const results: HybridSearchHit[] = [];
  for (const item of fused) {
    const [lexicalRank, semanticRank] = item.ranks;
    const ranks = {
      ...(lexicalRank === undefined ? {} : { lexicalRank }),
      ...(semanticRank === undefined ? {} : { semanticRank }),
    };
    const hit = byPath.get(item.key);
    if (hit !== undefined) {
      results.push({ ...hit, score: item.score, ...ranks });
      continue;
    }
    const chunk = chunks.get(item.key) ?? '';
    const document = await store.get(item.key);
    const text = document === undefined ? undefined : new TextDecoder().decode(document.content);
    const snippet: SearchSnippet = {
      lineNumber: chunkLine(text, chunk),
      text: chunk.replace(/\s+/g, ' ').trim().slice(0, 220),
      score: 0,
      matchCount: 0,
    };
    results.push({ path: item.key, score: item.score, matchCount: 0, matchedTerms: [], snippets: [snippet], ...ranks });
  }
  return { ...lexical, results, semantic: { status: 'used' } };
}
