// Why: verified memories stored natively in PostgreSQL, in tables a team can query and chart with
// plain SQL or Supabase's dashboard (`agent_memory`, `agent_memory_telemetry`), behind core's
// VerifiedMemoryBackend contract, so the lifecycle logic in core runs unchanged. A write takes a
// transaction-level advisory lock per repository, checks every expected revision and writes the
// records and their telemetry together: many machines never lose each other's changes.
import {
  assertDeleteArguments,
  checkRecordWrite,
  checkTelemetryEvent,
  MEMORY_STATUSES,
  type MemoryStatus,
  normalizeDocumentPath,
  type RecordApplyResult,
  type RecordConflict,
  type RecordQuery,
  type RecordStats,
  type RecordWrite,
  RepomemError,
  TELEMETRY_EVENT_TYPES,
  type TelemetryEvent,
  type TelemetryEventType,
  type VerifiedMemory,
  type VerifiedMemoryBackend,
} from '@repomem/core';
import { z } from 'zod';
import type { PostgresDatabase, Transaction } from './database.js';
import { coreWords } from './indexed-text.js';
import { openDatabase, type PostgresConnectionOptions } from './open-database.js';
import { isUnspacedTerm } from './postgres-candidates.js';
import {
  type EventRow,
  eventFromRow,
  MEMORY_CASTS,
  MEMORY_COLUMNS,
  MEMORY_SELECT,
  type MemoryRow,
  memoryFromRow,
  memoryParameters,
} from './record-rows.js';
import { RepositoryAccessCheck } from './repo-access.js';
import { MAX_INDEXED_WORD_CHARS, tsqueryLiteral } from './sql-text.js';

/** Options of {@link openPostgresRecordBackend}. */
export type PostgresRecordBackendOptions = PostgresConnectionOptions;

/** A {@link VerifiedMemoryBackend} over PostgreSQL; see {@link openPostgresRecordBackend}. */
export interface PostgresRecordBackend extends VerifiedMemoryBackend {
  /** Always `postgres`. */
  readonly name: 'postgres';
  /** Schema holding the tables. */
  readonly schema: string;
  /** True when writes are refused. */
  readonly readOnly: boolean;
}

/**
 * `ts_rank` weights {D, C, B, A}: scope 0.125, reason 0.125, fact 0.25, subject 1, so a word in
 * the subject counts four times a word in the fact (as in the SQLite store's bm25 weights).
 */
export const MEMORY_RANK_WEIGHTS = '{0.125, 0.125, 0.25, 1.0}';

const NEWEST_FIRST = 'm.refreshed_at DESC, m.created_at DESC, m.id DESC';
const SEARCHED_TEXT =
  "lower(m.subject || chr(10) || m.fact || chr(10) || coalesce(m.reason, '') || chr(10) || coalesce(m.scope, ''))";

const TimestampSchema = z.iso.datetime({ offset: true });

interface ResolvedQuery {
  readonly repo: string;
  readonly statuses: readonly MemoryStatus[];
  readonly liveAt: string | undefined;
  readonly limit: number | undefined;
}

function checkRepoArgument(repo: unknown, action: string): string {
  if (typeof repo !== 'string' || repo.length === 0 || repo.includes('\0')) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `${action}: repo must be a non-empty string, got ${JSON.stringify(repo)}`,
    );
  }
  return repo;
}

function checkLimit(limit: unknown, action: string): number | undefined {
  if (limit === undefined) return undefined;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0) {
    throw new RepomemError('INVALID_ARGUMENT', `${action}: limit must be a non-negative integer, got ${String(limit)}`);
  }
  return limit;
}

function resolveQuery(query: RecordQuery, action: string): ResolvedQuery {
  if (query === null || typeof query !== 'object') {
    throw new RepomemError('INVALID_ARGUMENT', `${action}: expected a query object`);
  }
  const repo = checkRepoArgument(query.repo, action);
  let statuses: readonly MemoryStatus[] = MEMORY_STATUSES;
  if (query.statuses !== undefined) {
    if (!Array.isArray(query.statuses) || query.statuses.some((s) => !MEMORY_STATUSES.includes(s))) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `${action}: statuses must be an array of ${MEMORY_STATUSES.join(', ')}`,
      );
    }
    statuses = MEMORY_STATUSES.filter((status) => query.statuses?.includes(status));
  }
  if (query.liveAt !== undefined && !TimestampSchema.safeParse(query.liveAt).success) {
    throw new RepomemError('INVALID_ARGUMENT', `${action}: liveAt must be an ISO 8601 timestamp`);
  }
  return { repo, statuses, liveAt: query.liveAt, limit: checkLimit(query.limit, action) };
}

/** ` AND …` filters of a resolved query, adding their parameters to `values`. */
function filters(query: ResolvedQuery, values: unknown[]): string {
  let sql = '';
  if (query.statuses.length === 1) {
    // One status: an equality, so `recent` walks the (repo, status, refreshed_at…) index in order.
    values.push(query.statuses[0]);
    sql += ` AND m.status = $${values.length}`;
  } else if (query.statuses.length < MEMORY_STATUSES.length) {
    values.push([...query.statuses]);
    sql += ` AND m.status = ANY($${values.length}::text[])`;
  }
  if (query.liveAt !== undefined) {
    values.push(query.liveAt);
    sql += ` AND m.expires_at > $${values.length}::timestamptz`;
  }
  return sql;
}

function limitClause(limit: number | undefined, values: unknown[]): string {
  if (limit === undefined) return '';
  values.push(limit);
  return ` LIMIT $${values.length}`;
}

function empty(query: ResolvedQuery): boolean {
  return query.statuses.length === 0 || query.limit === 0;
}

interface PlannedWrite {
  readonly record: VerifiedMemory;
  readonly expectedRevision: number | null;
}

function planWrites(writes: readonly RecordWrite[]): PlannedWrite[] {
  if (!Array.isArray(writes)) throw new RepomemError('INVALID_ARGUMENT', 'apply: writes must be an array');
  const seen = new Set<string>();
  return writes.map((write, index) => {
    if (write === null || typeof write !== 'object') {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `apply: write ${index} must be an object { record, expectedRevision }`,
      );
    }
    const record = checkRecordWrite(write.record, index);
    const expected = write.expectedRevision;
    if (expected !== null && (typeof expected !== 'number' || !Number.isSafeInteger(expected) || expected < 1)) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `apply: write ${index} has expectedRevision ${String(expected)}; expected null (create) or a revision >= 1`,
      );
    }
    const key = JSON.stringify([record.repo, record.id]);
    if (seen.has(key)) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `apply: memory ${record.id} of ${record.repo} is written twice in one batch`,
      );
    }
    seen.add(key);
    return { record, expectedRevision: expected };
  });
}

function planEvents(events: readonly TelemetryEvent[], action: string): TelemetryEvent[] {
  if (!Array.isArray(events)) throw new RepomemError('INVALID_ARGUMENT', `${action}: events must be an array`);
  return events.map((event, index) => checkTelemetryEvent(event, index, action));
}

const UPSERT_ASSIGNMENTS = MEMORY_COLUMNS.filter((column) => column !== 'id' && column !== 'repo')
  .map((column) => `${column} = excluded.${column}`)
  .join(', ');

class PostgresRecordBackendImpl implements PostgresRecordBackend {
  readonly name = 'postgres' as const;
  readonly schema: string;
  readonly readOnly: boolean;
  readonly #db: PostgresDatabase;
  readonly #access: RepositoryAccessCheck;
  readonly #where: string;

  constructor(db: PostgresDatabase, readOnly: boolean) {
    this.#db = db;
    this.#access = new RepositoryAccessCheck(db);
    this.schema = db.schema;
    this.readOnly = readOnly;
    this.#where = `${db.table('agent_memory')} of ${db.identity.database}`;
  }

  #assertWritable(action: string): void {
    this.#db.assertOpen('record backend');
    if (this.readOnly) {
      throw new RepomemError('READ_ONLY', `the postgres record backend is open read-only; ${action} was refused`);
    }
  }

  get #memories(): string {
    return this.#db.table('agent_memory');
  }

  async #insertEvents(tx: Transaction, events: readonly TelemetryEvent[]): Promise<void> {
    if (events.length === 0) return;
    await tx.query(
      `INSERT INTO ${this.#db.table('agent_memory_telemetry')} (repo, memory_id, type, at, at_as_written, details)
       SELECT e.repo, e.memory_id, e.type, e.at::timestamptz, e.at, e.details::json
       FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS e(repo, memory_id, type, at, details, n)
       ORDER BY e.n`,
      [
        events.map((event) => event.repo),
        events.map((event) => event.memory_id),
        events.map((event) => event.type),
        events.map((event) => event.at),
        events.map((event) => (event.details === undefined ? null : JSON.stringify(event.details))),
      ],
    );
  }

  async apply(writes: readonly RecordWrite[], events: readonly TelemetryEvent[]): Promise<RecordApplyResult> {
    this.#assertWritable('apply()');
    const planned = planWrites(writes);
    const plannedEvents = planEvents(events, 'apply');
    if (planned.length === 0 && plannedEvents.length === 0) return { ok: true };
    const repos = [...new Set(planned.map((write) => write.record.repo))].sort();
    const columns = MEMORY_COLUMNS.join(', ');
    const placeholders = MEMORY_COLUMNS.map((column, index) => `$${index + 1}${MEMORY_CASTS[column] ?? ''}`).join(', ');
    return this.#db.transaction(
      'apply()',
      async (tx) => {
        for (const repo of repos) {
          await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('repomem:memory:' || $1 || ':' || $2, 0))", [
            this.schema,
            repo,
          ]);
        }
        const current = new Map<string, number>();
        if (planned.length > 0) {
          const rows = await tx.query<{ repo: string; id: string; revision: number }>(
            `SELECT m.repo, m.id, m.revision FROM ${this.#memories} m JOIN unnest($1::text[], $2::uuid[]) AS w(repo, id) ON m.repo = w.repo AND m.id = w.id`,
            [planned.map((write) => write.record.repo), planned.map((write) => write.record.id)],
          );
          for (const row of rows) current.set(JSON.stringify([row.repo, row.id]), Number(row.revision));
        }
        const conflicts: RecordConflict[] = [];
        for (const write of planned) {
          const actual = current.get(JSON.stringify([write.record.repo, write.record.id])) ?? null;
          if (actual !== write.expectedRevision) {
            conflicts.push({ id: write.record.id, expectedRevision: write.expectedRevision, actualRevision: actual });
          }
        }
        if (conflicts.length > 0) return { commit: false, value: { ok: false, conflicts } as RecordApplyResult };
        for (const write of planned) {
          await tx.query(
            `INSERT INTO ${this.#memories} (${columns}) VALUES (${placeholders}) ON CONFLICT (repo, id) DO UPDATE SET ${UPSERT_ASSIGNMENTS}`,
            memoryParameters(write.record),
          );
        }
        await this.#insertEvents(tx, plannedEvents);
        return { commit: true, value: { ok: true } as RecordApplyResult };
      },
      { write: true, receiptRepo: repos[0] ?? plannedEvents[0]?.repo ?? '' },
    );
  }

  async delete(repo: string, id: string, expectedRevision: number): Promise<boolean> {
    this.#assertWritable('delete()');
    checkRepoArgument(repo, 'delete');
    assertDeleteArguments(id, expectedRevision);
    return this.#db.transaction(
      'delete()',
      async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('repomem:memory:' || $1 || ':' || $2, 0))", [
          this.schema,
          repo,
        ]);
        const removed = await tx.query<{ id: string }>(
          `DELETE FROM ${this.#memories} WHERE repo = $1 AND id = $2::uuid AND revision = $3 RETURNING id`,
          [repo, id, expectedRevision],
        );
        return { commit: removed.length > 0, value: removed.length > 0 };
      },
      { write: true, receiptRepo: repo },
    );
  }

  async #records(repo: string, action: string, sql: string, values: unknown[]): Promise<VerifiedMemory[]> {
    await this.#access.assert(repo);
    const rows = await this.#db.readOnce<MemoryRow>(action, sql, values);
    return rows.map((row) => memoryFromRow(row, this.#where));
  }

  async get(repo: string, id: string): Promise<VerifiedMemory | undefined> {
    this.#db.assertOpen('record backend');
    checkRepoArgument(repo, 'get');
    if (typeof id !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) {
      return undefined;
    }
    const found = await this.#records(
      repo,
      'get()',
      `SELECT ${MEMORY_SELECT} FROM ${this.#memories} m WHERE m.repo = $1 AND m.id = $2::uuid`,
      [repo, id],
    );
    return found[0];
  }

  async recent(query: RecordQuery): Promise<VerifiedMemory[]> {
    this.#db.assertOpen('record backend');
    const resolved = resolveQuery(query, 'recent');
    if (empty(resolved)) return [];
    const values: unknown[] = [resolved.repo];
    const sql = `SELECT ${MEMORY_SELECT} FROM ${this.#memories} m WHERE m.repo = $1${filters(resolved, values)} ORDER BY ${NEWEST_FIRST}`;
    return this.#records(resolved.repo, 'recent()', sql + limitClause(resolved.limit, values), values);
  }

  async byPath(query: RecordQuery & { readonly path: string }): Promise<VerifiedMemory[]> {
    this.#db.assertOpen('record backend');
    const resolved = resolveQuery(query, 'byPath');
    const path = normalizeDocumentPath(query.path);
    if (empty(resolved)) return [];
    const values: unknown[] = [resolved.repo, JSON.stringify([{ path }])];
    const sql = `SELECT ${MEMORY_SELECT} FROM ${this.#memories} m WHERE m.repo = $1 AND m.citations @> $2::jsonb${filters(resolved, values)} ORDER BY ${NEWEST_FIRST}`;
    return this.#records(resolved.repo, 'byPath()', sql + limitClause(resolved.limit, values), values);
  }

  async bySubject(query: RecordQuery & { readonly subjectKey: string }): Promise<VerifiedMemory[]> {
    this.#db.assertOpen('record backend');
    const resolved = resolveQuery(query, 'bySubject');
    if (typeof query.subjectKey !== 'string') {
      throw new RepomemError('INVALID_ARGUMENT', 'bySubject: subjectKey must be a string');
    }
    if (empty(resolved)) return [];
    const values: unknown[] = [resolved.repo, query.subjectKey];
    const sql = `SELECT ${MEMORY_SELECT} FROM ${this.#memories} m WHERE m.repo = $1 AND m.subject_key = $2${filters(resolved, values)} ORDER BY ${NEWEST_FIRST}`;
    return this.#records(resolved.repo, 'bySubject()', sql + limitClause(resolved.limit, values), values);
  }

  async search(query: RecordQuery & { readonly text: string }): Promise<VerifiedMemory[]> {
    this.#db.assertOpen('record backend');
    const resolved = resolveQuery(query, 'search');
    if (typeof query.text !== 'string') throw new RepomemError('INVALID_ARGUMENT', 'search: text must be a string');
    const words = [...new Set(coreWords(query.text))];
    if (words.length === 0 || empty(resolved)) return [];
    const indexed = words.filter((word) => !isUnspacedTerm(word) && Array.from(word).length < MAX_INDEXED_WORD_CHARS);
    const substrings = words.filter((word) => !indexed.includes(word));
    const values: unknown[] = [resolved.repo];
    let match = '';
    let rank = '0';
    if (indexed.length > 0) {
      values.push(
        tsqueryLiteral(
          indexed.map((text) => ({ text, prefix: false })),
          '&',
        ),
      );
      match = ` AND m.search_words @@ $2::tsquery`;
      rank = `ts_rank('${MEMORY_RANK_WEIGHTS}', m.search_words, $2::tsquery)`;
    }
    for (const word of substrings) {
      values.push(word);
      match += ` AND strpos(${SEARCHED_TEXT}, $${values.length}) > 0`;
    }
    const sql = `SELECT ${MEMORY_SELECT}, ${rank} AS rank FROM ${this.#memories} m WHERE m.repo = $1${match}${filters(resolved, values)} ORDER BY rank DESC, ${NEWEST_FIRST}`;
    return this.#records(resolved.repo, 'search()', sql + limitClause(resolved.limit, values), values);
  }

  async appendEvents(events: readonly TelemetryEvent[]): Promise<void> {
    this.#assertWritable('appendEvents()');
    const planned = planEvents(events, 'appendEvents');
    if (planned.length === 0) return;
    await this.#db.transaction(
      'appendEvents()',
      async (tx) => {
        await this.#insertEvents(tx, planned);
        return { commit: true, value: null };
      },
      { write: true, receiptRepo: planned[0]?.repo ?? '' },
    );
  }

  async events(query: {
    readonly repo: string;
    readonly memoryId?: string;
    readonly limit?: number;
  }): Promise<TelemetryEvent[]> {
    this.#db.assertOpen('record backend');
    if (query === null || typeof query !== 'object')
      throw new RepomemError('INVALID_ARGUMENT', 'events: expected a query object');
    const repo = checkRepoArgument(query.repo, 'events');
    const limit = checkLimit(query.limit, 'events');
    if (query.memoryId !== undefined && typeof query.memoryId !== 'string') {
      throw new RepomemError('INVALID_ARGUMENT', 'events: memoryId must be a string');
    }
    if (limit === 0) return [];
    const values: unknown[] = [repo];
    let where = 'repo = $1';
    if (query.memoryId !== undefined) {
      if (!/^[0-9a-f-]{36}$/.test(query.memoryId)) return [];
      values.push(query.memoryId);
      where += ' AND memory_id = $2::uuid';
    }
    const order = limit === undefined ? 'ASC' : 'DESC';
    const sql = `SELECT id, repo, memory_id, type, at, at_as_written, details FROM ${this.#db.table('agent_memory_telemetry')} WHERE ${where} ORDER BY id ${order}${limitClause(limit, values)}`;
    await this.#access.assert(repo);
    const rows = await this.#db.readOnce<EventRow>('events()', sql, values);
    if (limit !== undefined) rows.reverse();
    return rows.map((row) => eventFromRow(row, this.#where));
  }

  async stats(query: { readonly repo: string; readonly liveAt?: string }): Promise<RecordStats> {
    this.#db.assertOpen('record backend');
    if (query === null || typeof query !== 'object')
      throw new RepomemError('INVALID_ARGUMENT', 'stats: expected a query object');
    const repo = checkRepoArgument(query.repo, 'stats');
    if (query.liveAt !== undefined && !TimestampSchema.safeParse(query.liveAt).success) {
      throw new RepomemError('INVALID_ARGUMENT', 'stats: liveAt must be an ISO 8601 timestamp');
    }
    await this.#access.assert(repo);
    return this.#db.read('stats()', async (tx) => {
      const byStatus = Object.fromEntries(MEMORY_STATUSES.map((status) => [status, 0])) as Record<MemoryStatus, number>;
      for (const row of await tx.query<{ status: string; n: string }>(
        `SELECT status, count(*) AS n FROM ${this.#memories} WHERE repo = $1 GROUP BY status`,
        [repo],
      )) {
        if (row.status in byStatus) byStatus[row.status as MemoryStatus] = Number(row.n);
      }
      const events = Object.fromEntries(TELEMETRY_EVENT_TYPES.map((type) => [type, 0])) as Record<
        TelemetryEventType,
        number
      >;
      for (const row of await tx.query<{ type: string; n: string }>(
        `SELECT type, count(*) AS n FROM ${this.#db.table('agent_memory_telemetry')} WHERE repo = $1 GROUP BY type`,
        [repo],
      )) {
        if (row.type in events) events[row.type as TelemetryEventType] = Number(row.n);
      }
      let expired = 0;
      if (query.liveAt !== undefined) {
        const rows = await tx.query<{ n: string }>(
          `SELECT count(*) AS n FROM ${this.#memories} WHERE repo = $1 AND status = 'active' AND expires_at <= $2::timestamptz`,
          [repo, query.liveAt],
        );
        expired = Number(rows[0]?.n ?? 0);
      }
      return { repo, byStatus, expired, events };
    });
  }

  async close(): Promise<void> {
    await this.#db.close();
  }
}

/**
 * Open verified-memory storage in PostgreSQL (`agent_memory` and `agent_memory_telemetry` in the
 * store's schema, created or migrated when needed unless `readOnly`).
 *
 * Guarantees: `apply` is one transaction that locks each written repository, checks every
 * `expectedRevision` and writes records and events, or nothing (on every client, and never twice
 * after a retried commit); queries never read another repository's rows; every row read back is
 * validated with core's schemas (`INVALID_DOCUMENT` naming the memory otherwise).
 */
export async function openPostgresRecordBackend(options: PostgresRecordBackendOptions): Promise<PostgresRecordBackend> {
  const { db } = await openDatabase(options, 'openPostgresRecordBackend');
  return postgresRecordBackendOn(db, options.readOnly === true);
}

/** The verified-memory backend on an open database (package-internal: the store set's facet). */
export function postgresRecordBackendOn(db: PostgresDatabase, readOnly: boolean): PostgresRecordBackend {
  return new PostgresRecordBackendImpl(db, readOnly);
}
