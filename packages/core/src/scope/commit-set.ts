// Why: branch scope asks "is commit C in the working ref's history?" for many memories at once,
// and memories name commits by full or abbreviated ids. A set built once from the history's full
// ids (one `git rev-list`, cached by head commit) answers each question by exact lookup or by
// binary search over the sorted ids, so scoping 10,000 memories costs microseconds per memory.

/** The commits of one history, answering membership for full or abbreviated ids. */
export interface CommitSet {
  /** Number of commits. */
  readonly size: number;
  /**
   * True when a commit of the set has id `commit` (40 or 64 hex digits) or starts with it (an
   * abbreviation; case-insensitive). An abbreviation matching several commits counts as present.
   */
  has(commit: string): boolean;
}

/** Lowest index whose value is >= `key` in the sorted `values`. */
function lowerBound(values: readonly string[], key: string): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((values[middle] as string) < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A {@link CommitSet} of `ids` (full commit ids, any case; blanks ignored). */
export function createCommitSet(ids: Iterable<string>): CommitSet {
  const exact = new Set<string>();
  for (const id of ids) {
    const trimmed = id.trim().toLowerCase();
    if (trimmed !== '') exact.add(trimmed);
  }
  let sorted: string[] | undefined;
  return {
    size: exact.size,
    has(commit) {
      const key = commit.trim().toLowerCase();
      if (key === '') return false;
      if (exact.has(key)) return true;
      sorted ??= [...exact].sort();
      const at = lowerBound(sorted, key);
      return at < sorted.length && (sorted[at] as string).startsWith(key);
    },
  };
}
