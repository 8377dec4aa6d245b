// Why: task memory (episodes, review rules, preferences, knowledge, context receipts) must be
// shared by every machine of a team like verified memory is. Records are rows of `task_records`
// keyed by repository, kind and id: the record as written (JSON), its update time for ordering
// and a word index for search. A write takes a transaction-level advisory lock per repository,
// checks every expected revision and applies all or nothing, behind core's TaskRecordBackend.
import {
  assertTaskRecordId,
  assertTaskRecordKind,
  assertTaskRecordQuery,
  assertTaskRecordRepo,
  assertTaskRecordSearch,
  compareTaskRecordsNewestFirst,
  describeRecordIssues,
  RepomemError,
  type SkippedTaskRecord,
  searchTaskRecords,
  type TaskRecord,
  type TaskRecordApplyResult,
  type TaskRecordBackend,
  type TaskRecordConflict,
  type TaskRecordKind,
  type TaskRecordQuery,
  TaskRecordSchema,
  type TaskRecordSearchQuery,
  type TaskRecordWrite,
  tokenizeQuery,
  validateTaskRecordWrites,
} from '@repomem/core';
import type { PostgresDatabase } from './database.js';
import { coreWords } from './indexed-text.js';
import { openDatabase, type PostgresConnectionOptions } from './open-database.js';
import { isUnspacedTerm } from './postgres-candidates.js';
import { RepositoryAccessCheck } from './repo-access.js';
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
/** The columns a read selects: the row's key and revision beside the record, to check one against the other. */
const ROW_COLUMNS = 'repo, kind, id, revision, record';

/** A row as read. */
interface RecordRow {
  readonly repo: string;
  readonly kind: string;
  readonly id: string;
  readonly revision: number;
  readonly record: unknown;
}
const WORD_ONLY = /^[\p{L}\p{N}\p{M}]+$/u;

/** True when the word index holds `token` exactly (a whole word of letters, digits and marks). */
function indexable(token: string): boolean {
  return WORD_ONLY.test(token) && !isUnspacedTerm(token) && Array.from(token).length < MAX_INDEXED_WORD_CHARS;
}

class PostgresTaskRecordBackendImpl implements PostgresTaskRecordBackend {
  readonly name = 'postgres' as const;
  readonly schema: string;
  readonly readOnly: boolean;
  readonly #db: PostgresDatabase;
  readonly #access: RepositoryAccessCheck;
  readonly #table: string;

  constructor(db: PostgresDatabase, readOnly: boolean) {
    this.#db = db;
    this.#access = new RepositoryAccessCheck(db);
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

  /** Rows found unreadable since the last drain, and every one ever reported (key and revision). */
  readonly #skipped: SkippedTaskRecord[] = [];
  readonly #reported = new Set<string>();

  /** What is wrong with a row's record, or `undefined` when it is a valid record of its key. */
  #problem(row: RecordRow): string | undefined {
    const parsed = TaskRecordSchema.safeParse(row.record);
    if (!parsed.success) return describeRecordIssues(parsed.error.issues);
    const record = parsed.data;
    if (record.repo !== row.repo || record.kind !== row.kind || record.id !== row.id) {
      return `holds ${record.kind} ${record.id} of ${record.repo}, which does not belong here`;
    }
    return undefined;
  }

  /**
   * The record of a row, or `undefined` when it is not a valid record of its key (noted once per
   * key and revision for `drainSkippedRecords`): one damaged row never hides the rest.
   */
  #parse(row: RecordRow): TaskRecord | undefined {
    const problem = this.#problem(row);
    if (problem === undefined) return row.record as TaskRecord;
    const location = `${this.#table} (${row.repo}, ${row.kind}, ${row.id})`;
    const key = `${location}\u0000${String(row.revision)}`;
    if (!this.#reported.has(key)) {
      this.#reported.add(key);
      this.#skipped.push({ repo: row.repo, kind: row.kind as TaskRecordKind, location, problem });
    }
    return undefined;
  }

  drainSkippedRecords(): readonly SkippedTaskRecord[] {
    return this.#skipped.splice(0, this.#skipped.length);
  }

  async apply(writes: readonly TaskRecordWrite[]): Promise<TaskRecordApplyResult> {
    this.#assertWritable('apply()');
    const planned = validateTaskRecordWrites(writes).map((record, index) => ({
      record,
      expectedRevision: (writes[index] as TaskRecordWrite).expectedRevision,
    }));
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
        const rows = await tx.query<RecordRow>(
          `SELECT t.repo, t.kind, t.id, t.revision, t.record FROM ${this.#table} t
           JOIN unnest($1::text[], $2::text[], $3::text[]) AS w(repo, kind, id) ON t.repo = w.repo AND t.kind = w.kind AND t.id = w.id`,
          [
            planned.map((write) => write.record.repo),
            planned.map((write) => write.record.kind),
            planned.map((write) => write.record.id),
          ],
        );
        // A damaged row counts as absent (as it reads): writing its id again replaces it.
        const current = new Map(
          rows
            .filter((row) => this.#problem(row) === undefined)
            .map((row) => [JSON.stringify([row.repo, row.kind, row.id]), Number(row.revision)]),
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
    assertTaskRecordRepo(repo);
    assertTaskRecordKind(kind);
    assertTaskRecordId(id);
    await this.#access.assert(repo);
    const rows = await this.#db.readOnce<RecordRow>(
      'get()',
      `SELECT ${ROW_COLUMNS} FROM ${this.#table} WHERE repo = $1 AND kind = $2 AND id = $3`,
      [repo, kind, id],
    );
    return rows[0] === undefined ? undefined : this.#parse(rows[0]);
  }

  #scope(query: TaskRecordQuery, values: unknown[]): string {
    values.push(query.repo, query.kind);
    let sql = 'repo = $1 AND kind = $2';
    if (query.idPrefix !== undefined && query.idPrefix !== '') {
      values.push(likePrefix(query.idPrefix));
      sql += ` AND id LIKE $${values.length} ESCAPE '\\'`;
    }
    return sql;
  }

  async #select(repo: string, action: string, sql: string, values: unknown[]): Promise<TaskRecord[]> {
    await this.#access.assert(repo);
    const rows = await this.#db.readOnce<RecordRow>(action, sql, values);
    return rows.flatMap((row) => this.#parse(row) ?? []);
  }

  async list(query: TaskRecordQuery): Promise<TaskRecord[]> {
    this.#db.assertOpen('task-record backend');
    assertTaskRecordQuery(query);
    if (query.limit === 0) return [];
    const values: unknown[] = [];
    let sql = `SELECT ${ROW_COLUMNS} FROM ${this.#table} WHERE ${this.#scope(query, values)} ORDER BY ${NEWEST_FIRST}`;
    if (query.limit !== undefined) {
      values.push(query.limit);
      sql += ` LIMIT $${values.length}`;
    }
    // Core's order compares times as written (milliseconds); the index orders by microseconds.
    return (await this.#select(query.repo, 'list()', sql, values)).sort(compareTaskRecordsNewestFirst);
  }

  /**
   * The word index narrows the rows (every indexed word for `all`, any of them for `any` when
   * all are indexed); core's reference search then matches, ranks and limits those candidates.
   */
  async search(query: TaskRecordSearchQuery): Promise<TaskRecord[]> {
    this.#db.assertOpen('task-record backend');
    assertTaskRecordSearch(query);
    const tokens = tokenizeQuery(query.text);
    if (tokens.length === 0 || query.limit === 0) return [];
    const values: unknown[] = [];
    let sql = `SELECT ${ROW_COLUMNS} FROM ${this.#table} WHERE ${this.#scope(query, values)}`;
    const indexed = tokens.filter(indexable);
    const any = query.match === 'any';
    if (indexed.length > 0 && (!any || indexed.length === tokens.length)) {
      values.push(
        tsqueryLiteral(
          indexed.map((text) => ({ text, prefix: false })),
          any ? '|' : '&',
        ),
      );
      sql += ` AND search_words @@ $${values.length}::tsquery`;
    }
    const candidates = await this.#select(query.repo, 'search()', sql, values);
    return searchTaskRecords(candidates, query);
  }

  async delete(repo: string, kind: TaskRecordKind, id: string): Promise<boolean> {
    this.#assertWritable('delete()');
    assertTaskRecordRepo(repo);
    assertTaskRecordKind(kind);
    assertTaskRecordId(id);
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
 * schema and against its key: a damaged row (changed by hand, another repository's record) is left
 * out of every read and reported once through `drainSkippedRecords`, and writing its id replaces it.
 */
export async function openPostgresTaskRecordBackend(
  options: PostgresTaskRecordBackendOptions,
): Promise<PostgresTaskRecordBackend> {
  const { db } = await openDatabase(options, 'openPostgresTaskRecordBackend');
  return postgresTaskRecordBackendOn(db, options.readOnly === true);
}

/** The task-record backend on an open database (package-internal: the store set's facet). */
export function postgresTaskRecordBackendOn(db: PostgresDatabase, readOnly: boolean): PostgresTaskRecordBackend {
  return new PostgresTaskRecordBackendImpl(db, readOnly);
}
