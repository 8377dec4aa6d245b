// Why: a backend returns the newest or best `limit` records, but branch scope can only be judged
// after reading them; asking for exactly `limit` would serve fewer than asked whenever some are
// out of scope. This reads in growing pages (limit, 4x, 16x...) until `limit` records in scope
// are found or the backend has no more, so the common case (almost all in scope) reads once.
import type { LearnedOnFields } from '../verified/learned-on.js';
import type { ScopeVerdict } from './branch-scope.js';

/** Records in scope (in the backend's order, at most `limit`) and those passed over. */
export interface ScopedList<T> {
  readonly inScope: T[];
  readonly outOfScope: { readonly record: T; readonly verdict: ScopeVerdict & { kind: 'out_of_scope' } }[];
}

/** Growth factor of the page size between reads. */
const GROWTH = 4;

/**
 * The first `limit` records of `read` that `judge` finds in scope. `read(n)` must return the
 * first `n` records of one stable order; `judge` returns one verdict per record.
 */
export async function listInScope<T extends LearnedOnFields>(
  read: (limit: number) => Promise<readonly T[]>,
  limit: number,
  judge: (records: readonly T[]) => Promise<readonly ScopeVerdict[]>,
): Promise<ScopedList<T>> {
  let page = limit;
  for (;;) {
    const records = await read(page);
    const verdicts = await judge(records);
    const result: ScopedList<T> = { inScope: [], outOfScope: [] };
    for (const [index, record] of records.entries()) {
      const verdict = verdicts[index];
      if (verdict === undefined || verdict.kind === 'in_scope') {
        if (result.inScope.length < limit) result.inScope.push(record);
      } else if (result.inScope.length < limit) {
        result.outOfScope.push({ record, verdict });
      }
    }
    if (result.inScope.length >= limit || records.length < page || limit === 0) return result;
    page *= GROWTH;
  }
}
