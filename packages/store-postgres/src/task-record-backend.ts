// Why: task memory (episodes, review rules, preferences, knowledge, context receipts) must be
// shared by every machine of a team like verified memory is. Records are rows of `task_records`
// keyed by repository, kind and id: the record as written (JSON), its update time for ordering
// and a word index for search. A write takes a transaction-level advisory lock per repository,
// checks every expected revision and applies all or nothing, behind core's TaskRecordBackend.
import {
  RepomemError,
  TASK_RECORD_KINDS,
  type TaskRecord,
  type TaskRecordApplyResult,
  type TaskRecordBackend,
  type TaskRecordConflict,
  TaskRecordIdSchema,
  type TaskRecordKind,
  type TaskRecordQuery,
  TaskRecordSchema,
  type TaskRecordWrite,
} from '@repomem/core';
import type { PostgresDatabase } from './database.js';
import { coreWords } from './indexed-text.js';
import { openDatabase, type PostgresConnectionOptions } from './open-database.js';
import { isUnspacedTerm } from './postgres-candidates.js';
import { describeIssues } from './record-rows.js';
import { likePrefix, MAX_INDEXED_WORD_CHARS, tsqueryLiteral, weightedVectorLiteral } from './sql-text.js';

/** Options of {@link openPostgresTaskRecordBackend}. */
export type PostgresTaskRecordBackendOptions = PostgresConnectionOptions;

/** A {@link TaskRecordBackend} over PostgreSQL; see {@link openPostgresTaskRecordBackend}. */
export interface PostgresTaskRecordBackend extends TaskRecordBackend {
  /** Always `postgres`. */
  readonly name: 'postgres';
  /** Schema holding the table. */
  readonly schema: string;
  /** True when writes are refused. */
  readonly readOnly: boolean;
}

const NEWEST_FIRST = 'updated_at DESC, id DESC';

function checkKind(kind: unknown, action: string): TaskRecordKind {
  if (!(TASK_RECORD_KINDS as readonly unknown[]).includes(kind)) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `${action}: kind must be one of ${TASK_RECORD_KINDS.join(', ')}, got ${JSON.stringify(kind)}`,
    );
  }
  return kind as TaskRecordKind;
}

function checkRepo(repo: unknown, action: string): string {
  if (typeof repo !== 'string' || repo.length === 0 || repo.includes('\0')) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `${action}: repo must be a non-empty string, got ${JSON.stringify(repo)}`,
    );
  }
  return repo;
}

function checkId(id: unknown, action: string): string {
  const parsed = TaskRecordIdSchema.safeParse(id);
  if (!parsed.success) {
    throw new RepomemError('INVALID_ARGUMENT', `${action}: ${describeIssues(parsed.error.issues)}`);
  }
  return parsed.data;
}

interface ResolvedQuery {
  readonly repo: string;
  readonly kind: TaskRecordKind;
  readonly idPrefix: string | undefined;
  readonly limit: number | undefined;
}

function resolveQuery(query: TaskRecordQuery, action: string): ResolvedQuery {
  if (query === null || typeof query !== 'object') {
    throw new RepomemError('INVALID_ARGUMENT', `${action}: expected a query object`);
  }
  const limit = query.limit;
  if (limit !== undefined && (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0)) {
    throw new RepomemError('INVALID_ARGUMENT', `${action}: limit must be a non-negative integer, got ${String(limit)}`);
  }
  if (query.idPrefix !== undefined && typeof query.idPrefix !== 'string') {
    throw new RepomemError('INVALID_ARGUMENT', `${action}: idPrefix must be a string`);
  }
  return {
    repo: checkRepo(query.repo, action),
    kind: checkKind(query.kind, action),
    idPrefix: query.idPrefix === '' ? undefined : query.idPrefix,
    limit,
  };
}

function checkRecord(record: unknown, index: number): TaskRecord {
  const parsed = TaskRecordSchema.safeParse(record);
  if (!parsed.success) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `apply: write ${index} is not a valid task record: ${describeIssues(parsed.error.issues)}`,
      { details: { index } },
    );
  }
  return parsed.data;
}

interface PlannedWrite {
  readonly record: TaskRecord;
  readonly expectedRevision: number | null;
}

function planWrites(writes: readonly TaskRecordWrite[]): PlannedWrite[] {
  if (!Array.isArray(writes)) throw new RepomemError('INVALID_ARGUMENT', 'apply: writes must be an array');
  const seen = new Set<string>();
  return writes.map((write, index) => {
    if (write === null || typeof write !== 'object') {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `apply: write ${index} must be an object { record, expectedRevision }`,
      );
    }
    const record = checkRecord(write.record, index);
    const expected = write.expectedRevision;
    if (expected !== null && (typeof expected !== 'number' || !Number.isSafeInteger(expected) || expected < 1)) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `apply: write ${index} has expectedRevision ${String(expected)}; expected null (create) or a revision >= 1`,
      );
    }
    const key = JSON.stringify([record.repo, record.kind, record.id]);
    if (seen.has(key)) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `apply: ${record.kind} ${record.id} of ${record.repo} is written twice in one call`,
      );
    }
    seen.add(key);
    return { record, expectedRevision: expected };
  });
}

class PostgresTaskRecordBackendImpl implements PostgresTaskRecordBackend {
  readonly name = 'postgres' as const;
  readonly schema: string;
  readonly readOnly: boolean;
  readonly #db: PostgresDatabase;
  readonly #table: string;

  constructor(db: PostgresDatabase, readOnly: boolean) {
    this.#db = db;
    this.schema = db.schema;
    this.readOnly = readOnly;
    this.#table = db.table('task_records');
  }

  #assertWritable(action: string): void {
    this.#db.assertOpen('task-record backend');
    if (this.readOnly) {
      throw new RepomemError('READ_ONLY', `the postgres task-record backend is open read-only; ${action} was refused`);
    }
  }

  #parse(row: { record: unknown }): TaskRecord {
    const parsed = TaskRecordSchema.safeParse(row.record);
    if (!parsed.success) {
      throw new RepomemError(
        'INVALID_DOCUMENT',
        `a task record in ${this.#table} is corrupt: ${describeIssues(parsed.error.issues)}`,
      );
    }
    return parsed.data;
  }

  async apply(writes: readonly TaskRecordWrite[]): Promise<TaskRecordApplyResult> {
    this.#assertWritable('apply()');
    const planned = planWrites(writes);
    if (planned.length === 0) return { ok: true };
    const repos = [...new Set(planned.map((write) => write.record.repo))].sort();
    return this.#db.transaction(
      'apply()',
      async (tx) => {
        for (const repo of repos) {
          await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('repomem:task:' || $1 || ':' || $2, 0))", [
            this.schema,
            repo,
          ]);
        }
        const rows = await tx.query<{ repo: string; kind: string; id: string; revision: number }>(
          `SELECT t.repo, t.kind, t.id, t.revision FROM ${this.#table} t
           JOIN unnest($1::text[], $2::text[], $3::text[]) AS w(repo, kind, id) ON t.repo = w.repo AND t.kind = w.kind AND t.id = w.id`,
          [
            planned.map((write) => write.record.repo),
            planned.map((write) => write.record.kind),
            planned.map((write) => write.record.id),
          ],
        );
        const current = new Map(
          rows.map((row) => [JSON.stringify([row.repo, row.kind, row.id]), Number(row.revision)]),
        );
        const conflicts: TaskRecordConflict[] = [];
        for (const { record, expectedRevision } of planned) {
          const actual = current.get(JSON.stringify([record.repo, record.kind, record.id])) ?? null;
          if (actual !== expectedRevision) {
            conflicts.push({ kind: record.kind, id: record.id, expectedRevision, actualRevision: actual });
          }
        }
        if (conflicts.length > 0) return { commit: false, value: { ok: false, conflicts } as TaskRecordApplyResult };
        for (const { record } of planned) {
          await tx.query(
            `INSERT INTO ${this.#table} (repo, kind, id, revision, updated_at, record, search_words)
             VALUES ($1, $2, $3, $4, $5::timestamptz, $6::json, $7::tsvector)
             ON CONFLICT (repo, kind, id) DO UPDATE SET revision = excluded.revision, updated_at = excluded.updated_at,
               record = excluded.record, search_words = excluded.search_words`,
            [
              record.repo,
              record.kind,
              record.id,
              record.revision,
              record.updated_at,
              JSON.stringify(record),
              weightedVectorLiteral([{ words: coreWords(record.text), weight: 'A' }]),
            ],
          );
        }
        return { commit: true, value: { ok: true } as TaskRecordApplyResult };
      },
      { write: true, receiptRepo: repos[0] ?? '' },
    );
  }

  async get(repo: string, kind: TaskRecordKind, id: string): Promise<TaskRecord | undefined> {
    this.#db.assertOpen('task-record backend');
    checkRepo(repo, 'get');
    checkKind(kind, 'get');
    checkId(id, 'get');
    const rows = await this.#db.read('get()', (tx) =>
      tx.query<{ record: unknown }>(`SELECT record FROM ${this.#table} WHERE repo = $1 AND kind = $2 AND id = $3`, [
        repo,
        kind,
        id,
      ]),
    );
    return rows[0] === undefined ? undefined : this.#parse(rows[0]);
  }

  #scope(query: ResolvedQuery, values: unknown[]): string {
    values.push(query.repo, query.kind);
    let sql = 'repo = $1 AND kind = $2';
    if (query.idPrefix !== undefined) {
      values.push(likePrefix(query.idPrefix));
      sql += ` AND id LIKE $${values.length} ESCAPE '\\'`;
    }
    return sql;
  }

  #limit(limit: number | undefined, values: unknown[]): string {
    if (limit === undefined) return '';
    values.push(limit);
    return ` LIMIT $${values.length}`;
  }

  async list(query: TaskRecordQuery): Promise<TaskRecord[]> {
    this.#db.assertOpen('task-record backend');
    const resolved = resolveQuery(query, 'list');
    if (resolved.limit === 0) return [];
    const values: unknown[] = [];
    const sql = `SELECT record FROM ${this.#table} WHERE ${this.#scope(resolved, values)} ORDER BY ${NEWEST_FIRST}${this.#limit(resolved.limit, values)}`;
    const rows = await this.#db.read('list()', (tx) => tx.query<{ record: unknown }>(sql, values));
    return rows.map((row) => this.#parse(row));
  }

  async search(query: TaskRecordQuery & { readonly text: string }): Promise<TaskRecord[]> {
    this.#db.assertOpen('task-record backend');
    const resolved = resolveQuery(query, 'search');
    if (typeof query.text !== 'string') throw new RepomemError('INVALID_ARGUMENT', 'search: text must be a string');
    const words = [...new Set(coreWords(query.text))];
    if (words.length === 0 || resolved.limit === 0) return [];
    const indexed = words.filter((word) => !isUnspacedTerm(word) && Array.from(word).length < MAX_INDEXED_WORD_CHARS);
    const substrings = words.filter((word) => !indexed.includes(word));
    const values: unknown[] = [];
    let where = this.#scope(resolved, values);
    let rank = '0';
    if (indexed.length > 0) {
      values.push(
        tsqueryLiteral(
          indexed.map((text) => ({ text, prefix: false })),
          '&',
        ),
      );
      where += ` AND search_words @@ $${values.length}::tsquery`;
      rank = `ts_rank(search_words, $${values.length}::tsquery)`;
    }
    for (const word of substrings) {
      values.push(word);
      where += ` AND strpos(lower(record->>'text'), $${values.length}) > 0`;
    }
    const sql = `SELECT record, ${rank} AS rank FROM ${this.#table} WHERE ${where} ORDER BY rank DESC, ${NEWEST_FIRST}${this.#limit(resolved.limit, values)}`;
    const rows = await this.#db.read('search()', (tx) => tx.query<{ record: unknown }>(sql, values));
    return rows.map((row) => this.#parse(row));
  }

  async delete(repo: string, kind: TaskRecordKind, id: string): Promise<boolean> {
    this.#assertWritable('delete()');
    checkRepo(repo, 'delete');
    checkKind(kind, 'delete');
    checkId(id, 'delete');
    return this.#db.transaction(
      'delete()',
      async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('repomem:task:' || $1 || ':' || $2, 0))", [
          this.schema,
          repo,
        ]);
        const rows = await tx.query<{ id: string }>(
          `DELETE FROM ${this.#table} WHERE repo = $1 AND kind = $2 AND id = $3 RETURNING id`,
          [repo, kind, id],
        );
        return { commit: true, value: rows.length > 0 };
      },
      { write: true, receiptRepo: repo },
    );
  }

  async close(): Promise<void> {
    await this.#db.close();
  }
}

/**
 * Open task-memory storage in PostgreSQL (`task_records` in the store's schema, created or
 * migrated when needed unless `readOnly`).
 *
 * Guarantees: `apply` is one transaction that locks each written repository, checks every
 * `expectedRevision` and writes every record, or nothing (never twice after a retried commit);
 * queries never read another repository's rows; every row read back is validated with core's
 * schema (`INVALID_DOCUMENT` otherwise).
 */
export async function openPostgresTaskRecordBackend(
  options: PostgresTaskRecordBackendOptions,
): Promise<PostgresTaskRecordBackend> {
  const { db } = await openDatabase(options, 'openPostgresTaskRecordBackend');
  return new PostgresTaskRecordBackendImpl(db, options.readOnly === true);
}
