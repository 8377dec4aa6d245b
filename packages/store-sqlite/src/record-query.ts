// Why: every record query shares the same filters (repository, statuses, liveness, limit). They
// are checked once here, turned into SQL clauses with bound parameters (never text spliced into
// SQL), and results are ordered by one comparator that matches the index order.
import { MEMORY_STATUSES, type MemoryStatus, type RecordQuery, RepomemError } from '@repomem/core';
import type { MemoryRow } from './record-rows.js';
import { timeKey } from './time-key.js';

/** A checked {@link RecordQuery}. */
export interface ResolvedRecordQuery {
  readonly repo: string;
  /** Distinct statuses, in {@link MEMORY_STATUSES} order; empty means nothing matches. */
  readonly statuses: readonly MemoryStatus[];
  /** Canonical key of `liveAt` (see `timeKey`), or `undefined`. */
  readonly liveKey: string | undefined;
  readonly limit: number | undefined;
}

/** Bound parameters of a query. */
export type QueryParameters = Record<string, string | number>;

/** Check a repository argument: a non-empty string (another repository's rows are never read). */
export function checkRepoArgument(repo: unknown, action: string): string {
  if (typeof repo !== 'string' || repo.length === 0) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `${action}: repo must be a non-empty string, got ${JSON.stringify(repo)}`,
    );
  }
  return repo;
}

/** Check a `limit`: a non-negative integer or absent. */
export function checkLimit(limit: unknown, action: string): number | undefined {
  if (limit === undefined) return undefined;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0) {
    throw new RepomemError('INVALID_ARGUMENT', `${action}: limit must be a non-negative integer, got ${String(limit)}`);
  }
  return limit;
}

/** Check the shared filters of a record query; `INVALID_ARGUMENT` naming the bad one. */
export function resolveRecordQuery(query: RecordQuery, action: string): ResolvedRecordQuery {
  if (query === null || typeof query !== 'object') {
    throw new RepomemError('INVALID_ARGUMENT', `${action}: expected a query object`);
  }
  const repo = checkRepoArgument(query.repo, action);
  let statuses: readonly MemoryStatus[] = MEMORY_STATUSES;
  if (query.statuses !== undefined) {
    if (!Array.isArray(query.statuses)) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `${action}: statuses must be an array of ${MEMORY_STATUSES.join(', ')}`,
      );
    }
    for (const status of query.statuses) {
      if (!(MEMORY_STATUSES as readonly unknown[]).includes(status)) {
        throw new RepomemError(
          'INVALID_ARGUMENT',
          `${action}: unknown status ${JSON.stringify(status)} (expected ${MEMORY_STATUSES.join(', ')})`,
        );
      }
    }
    statuses = MEMORY_STATUSES.filter((status) => query.statuses?.includes(status));
  }
  let liveKey: string | undefined;
  if (query.liveAt !== undefined) {
    if (typeof query.liveAt !== 'string') {
      throw new RepomemError('INVALID_ARGUMENT', `${action}: liveAt must be an ISO 8601 timestamp`);
    }
    liveKey = timeKey(query.liveAt);
  }
  return { repo, statuses, liveKey, limit: checkLimit(query.limit, action) };
}

/** SQL conditions on `memories m` for the statuses and liveness of `query`, with their parameters. */
export function filterClause(query: ResolvedRecordQuery): { sql: string; params: QueryParameters } {
  const params: QueryParameters = {};
  const parts: string[] = [];
  if (query.statuses.length < MEMORY_STATUSES.length) {
    const names = query.statuses.map((status, index) => {
      params[`status${index}`] = status;
      return `:status${index}`;
    });
    parts.push(names.length === 1 ? `m.status = ${names[0]}` : `m.status IN (${names.join(', ')})`);
  }
  if (query.liveKey !== undefined) {
    params.live = query.liveKey;
    parts.push('m.expires_key > :live');
  }
  return { sql: parts.map((part) => ` AND ${part}`).join(''), params };
}

/** Newest first: `refreshed_at`, then `created_at`, then `id`, all descending (the index order). */
export const NEWEST_FIRST = 'm.refreshed_key DESC, m.created_key DESC, m.id DESC';

/** {@link NEWEST_FIRST} as a comparator over rows. */
export function newestFirst(a: MemoryRow, b: MemoryRow): number {
  if (a.refreshed_key !== b.refreshed_key) return a.refreshed_key < b.refreshed_key ? 1 : -1;
  if (a.created_key !== b.created_key) return a.created_key < b.created_key ? 1 : -1;
  if (a.id !== b.id) return a.id < b.id ? 1 : -1;
  return 0;
}

/** ` LIMIT :limit` when the query has a limit (its parameter is added to `params`). */
export function limitClause(limit: number | undefined, params: QueryParameters): string {
  if (limit === undefined) return '';
  params.limit = limit;
  return ' LIMIT :limit';
}
