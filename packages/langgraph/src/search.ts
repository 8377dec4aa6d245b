// Why: `search` is where repomem adds most over a key-value store: items under a namespace prefix
// are narrowed by LangGraph's `filter`, then, with a `query`, ranked by repomem's own search
// (the same ranking every repomem store gives, field by field in the JSON documents) and, when a
// semantic index is given, fused with its vector ranking by reciprocal rank fusion. Paging
// (`offset`, `limit`) comes last, so a page never holds an item the filter refused.
import { type MemoryStore, reciprocalRankFusion, type SemanticIndex, searchStore } from '@repomem/core';
import { matchesFilter } from './filter.js';
import type { StoredItem } from './read-items.js';

/** Semantic ranking for hybrid search. */
export interface SemanticSearch {
  /** The index (see core's `createSemanticIndex`), over the same store. */
  readonly index: SemanticIndex;
  /**
   * Embed new and changed items before each query (`index.refresh()`, which embeds only chunks
   * without a vector). Default `true`; turn it off when something else refreshes the index.
   */
  readonly refreshBeforeSearch?: boolean;
}

/** A search request, as LangGraph's `SearchOperation` gives it. */
export interface SearchRequest {
  readonly filter?: Readonly<Record<string, unknown>> | undefined;
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
  readonly query?: string | undefined;
}

/** An item found, with its score when a query ranked it. */
export interface RankedItem {
  readonly item: StoredItem;
  readonly score: number | undefined;
}

/** Most recently updated first, then by path (the order without a query). */
function byRecency(a: StoredItem, b: StoredItem): number {
  const time = b.document.updated_at.localeCompare(a.document.updated_at);
  return time !== 0 ? time : a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** Paths of the documents under `prefix` repomem's lexical ranking finds for `query`, best first, with scores. */
async function lexicalRanking(
  store: MemoryStore,
  query: string,
  prefix: string,
  count: number,
): Promise<Map<string, number>> {
  const { results } = await searchStore(store, query, { prefix, limit: Math.max(1, count), snippets: 0 });
  return new Map(results.map((hit) => [hit.path, hit.score]));
}

/**
 * The page of `items` (all under `prefix`) a search asks for: filtered, ranked by the query when
 * there is one (only items the query matches), paged.
 */
export async function searchItems(
  store: MemoryStore,
  items: readonly StoredItem[],
  prefix: string,
  request: SearchRequest,
  semantic: SemanticSearch | undefined,
): Promise<RankedItem[]> {
  const filter = request.filter;
  const kept = filter === undefined ? [...items] : items.filter((item) => matchesFilter(item.document.value, filter));
  const offset = request.offset ?? 0;
  const limit = request.limit ?? 10;
  const query = request.query?.trim() ?? '';
  if (query === '' || kept.length === 0) {
    return kept
      .sort(byRecency)
      .slice(offset, offset + limit)
      .map((item) => ({ item, score: undefined }));
  }
  const byPath = new Map(kept.map((item) => [item.path, item]));
  const lexical = await lexicalRanking(store, query, prefix, items.length);
  let ranked: { path: string; score: number }[] = [...lexical].map(([path, score]) => ({ path, score }));
  if (semantic !== undefined) {
    if (semantic.refreshBeforeSearch !== false) await semantic.index.refresh();
    const hits = await semantic.index.searchDocuments(query, { limit: Math.max(1, items.length), prefix });
    const fused = reciprocalRankFusion([[...lexical.keys()], hits.map((hit) => hit.path)]);
    ranked = fused.map((entry) => ({ path: entry.key, score: entry.score }));
  }
  const found: RankedItem[] = [];
  for (const { path, score } of ranked) {
    const item = byPath.get(path);
    if (item !== undefined) found.push({ item, score });
  }
  return found.slice(offset, offset + limit);
}
