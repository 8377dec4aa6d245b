// Why: lexical and semantic rankers score on scales that cannot be compared (BM25 sums against
// cosines), and a calibrated mix of the two has to be re-tuned for every model. Reciprocal rank
// fusion uses only each list's order, so any ranker can join, and it needs one constant. This is
// the one fusion used by hybrid search and by hydration.

/** Default `k` of reciprocal rank fusion (Cormack et al. 2009; the prototype measured with it). */
export const DEFAULT_RRF_K = 60;

/** One item of a fused ranking. */
export interface FusedItem {
  /** The item's key. */
  readonly key: string;
  /** Sum over the lists holding the item of `weight / (k + rank)` (ranks from 1). */
  readonly score: number;
  /** The item's 1-based rank in each input list (`undefined` where the list lacks it). */
  readonly ranks: readonly (number | undefined)[];
}

/** Options of {@link reciprocalRankFusion}. */
export interface FusionOptions {
  /** Rank offset `k` (default {@link DEFAULT_RRF_K}); larger flattens the weight of the top ranks. */
  readonly k?: number;
  /** Weight of each list (default 1 each). */
  readonly weights?: readonly number[];
}

/**
 * Fuse ranked lists of keys (best first; a key repeated in one list counts at its first rank) by
 * reciprocal rank fusion: `score(key) = Σ weight_i / (k + rank_i(key))`. The result is best
 * first; ties go to the better best rank, then to the order of the first list holding the key,
 * so the fusion of one list is that list.
 *
 * @throws RangeError for a negative or non-finite `k`, or a weights array of another length.
 *
 * @example
 * ```ts
 * reciprocalRankFusion([['a', 'b', 'c'], ['c', 'a']]).map((item) => item.key); // ['a', 'c', 'b']
 * ```
 */
export function reciprocalRankFusion(lists: readonly (readonly string[])[], options: FusionOptions = {}): FusedItem[] {
  const k = options.k ?? DEFAULT_RRF_K;
  if (!Number.isFinite(k) || k < 0) throw new RangeError(`k must be a finite number >= 0, got ${String(k)}`);
  const weights = options.weights ?? lists.map(() => 1);
  if (weights.length !== lists.length) {
    throw new RangeError(`weights has ${weights.length} entries for ${lists.length} lists`);
  }
  const entries = new Map<string, { score: number; ranks: (number | undefined)[]; best: number; order: number }>();
  let order = 0;
  lists.forEach((list, index) => {
    const weight = weights[index] ?? 1;
    let rank = 0;
    for (const key of list) {
      let entry = entries.get(key);
      if (entry?.ranks[index] !== undefined) continue;
      rank += 1;
      if (entry === undefined) {
        entry = { score: 0, ranks: lists.map(() => undefined), best: rank, order: order++ };
        entries.set(key, entry);
      }
      entry.ranks[index] = rank;
      entry.score += weight / (k + rank);
      entry.best = Math.min(entry.best, rank);
    }
  });
  return [...entries.entries()]
    .sort(([, a], [, b]) => b.score - a.score || a.best - b.best || a.order - b.order)
    .map(([key, entry]) => ({ key, score: entry.score, ranks: entry.ranks }));
}
