// Why: the record filters and the "newest first" order are part of the backend contract; backends
// that filter in memory share this one implementation so they cannot drift apart.
import { isRepoSlug } from '../envelope/fields.js';
import { RepomemError } from '../errors.js';
import type { RecordQuery } from './backend.js';
import type { VerifiedMemory } from './record.js';

/** Throw `INVALID_ARGUMENT` unless `repo` is an `owner/name` slug. */
export function assertRepo(repo: unknown): asserts repo is string {
  if (!isRepoSlug(repo)) {
    throw new RepomemError('INVALID_ARGUMENT', `repo must be "owner/name", got ${JSON.stringify(repo)}`, {
      details: { repo },
    });
  }
}

/**
 * Check the arguments of a backend's `delete`: a memory id (lowercase UUID) and a positive
 * integer revision; `INVALID_ARGUMENT` naming the problem.
 */
export function assertDeleteArguments(id: unknown, expectedRevision: unknown): void {
  if (typeof id !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) {
    throw new RepomemError('INVALID_ARGUMENT', `memory id must be a lowercase UUID, got ${JSON.stringify(id)}`);
  }
  if (typeof expectedRevision !== 'number' || !Number.isSafeInteger(expectedRevision) || expectedRevision < 1) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `expectedRevision must be a positive integer, got ${String(expectedRevision)}`,
    );
  }
}

/** Milliseconds of an ISO timestamp used as `liveAt`; `INVALID_ARGUMENT` when unparsable. */
export function liveAtMs(liveAt: string): number {
  const ms = typeof liveAt === 'string' ? Date.parse(liveAt) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new RepomemError('INVALID_ARGUMENT', `liveAt must be an ISO 8601 timestamp, got ${JSON.stringify(liveAt)}`);
  }
  return ms;
}

/** Throw `INVALID_ARGUMENT` unless `limit` is undefined or a non-negative integer. */
export function assertLimit(limit: unknown): asserts limit is number | undefined {
  if (limit !== undefined && (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0)) {
    throw new RepomemError('INVALID_ARGUMENT', `limit must be a non-negative integer, got ${String(limit)}`);
  }
}

/** Order: `refreshed_at` descending, then `created_at` descending, then `id` descending. */
export function compareNewestFirst(a: VerifiedMemory, b: VerifiedMemory): number {
  return (
    Date.parse(b.refreshed_at) - Date.parse(a.refreshed_at) ||
    Date.parse(b.created_at) - Date.parse(a.created_at) ||
    (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
  );
}

/** Apply a {@link RecordQuery}'s statuses, `liveAt` and `limit` to `records` (any order in), newest first. */
export function selectRecords(records: readonly VerifiedMemory[], query: RecordQuery): VerifiedMemory[] {
  assertLimit(query.limit);
  const live = query.liveAt === undefined ? undefined : liveAtMs(query.liveAt);
  const statuses = query.statuses === undefined ? undefined : new Set(query.statuses);
  const selected = records.filter(
    (record) =>
      record.repo === query.repo &&
      (statuses === undefined || statuses.has(record.status)) &&
      (live === undefined || Date.parse(record.expires_at) > live),
  );
  selected.sort(compareNewestFirst);
  return query.limit === undefined ? selected : selected.slice(0, query.limit);
}
