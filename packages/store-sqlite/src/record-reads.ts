// Why: the read side of verified-memory storage. Each query walks an index (recent: per status
// in index order; byPath: the citation rows of one path; bySubject: the subject key; search: the
// FTS5 index restricted to the repository's scope token), so cost follows the rows returned, not
// the size of the file. Rows are validated on the way out.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import {
  MEMORY_STATUSES,
  type MemoryStatus,
  type RecordStats,
  TELEMETRY_EVENT_TYPES,
  type TelemetryEvent,
  type TelemetryEventType,
  type VerifiedMemory,
} from '@repomem/core';
import { isUnspacedTerm, memoryMatchExpression, queryWords, scopeToken } from './fts-query.js';
import {
  filterClause,
  limitClause,
  NEWEST_FIRST,
  newestFirst,
  type QueryParameters,
  type ResolvedRecordQuery,
} from './record-query.js';
import { type EventRow, eventFromRow, MEMORY_SELECT, type MemoryRow, memoryFromRow } from './record-rows.js';

/**
 * bm25 weights of the FTS5 columns: the repository scope token 0, subject 4, fact 1, reason and
 * scope 0.5, so a word in the subject counts most.
 */
export const MEMORY_FTS_WEIGHTS = Object.freeze({ subject: 4, fact: 1, reason: 0.5, scope: 0.5 });

const BM25 = `bm25(memories_fts, 0.0, ${MEMORY_FTS_WEIGHTS.subject}, ${MEMORY_FTS_WEIGHTS.fact}, ${MEMORY_FTS_WEIGHTS.reason}, ${MEMORY_FTS_WEIGHTS.scope})`;
const SEARCHED_TEXT =
  "lower(m.subject || char(10) || m.fact || char(10) || coalesce(m.reason, '') || char(10) || coalesce(m.scope, ''))";

/** SQL text and parameters of one query. */
export interface BuiltQuery {
  readonly sql: string;
  readonly params: QueryParameters;
}

/** The `recent` query of one status: an ordered walk of the `memories_recent` index. */
export function recentQuery(query: ResolvedRecordQuery, status: MemoryStatus): BuiltQuery {
  const filter = filterClause({ ...query, statuses: [status] });
  const params: QueryParameters = { repo: query.repo, ...filter.params };
  const sql = `SELECT ${MEMORY_SELECT} FROM memories m WHERE m.repo = :repo${filter.sql} ORDER BY ${NEWEST_FIRST}${limitClause(query.limit, params)}`;
  return { sql, params };
}

/** The `byPath` query: the `memory_citations_path` rows of the path, joined to their records. */
export function byPathQuery(query: ResolvedRecordQuery, path: string): BuiltQuery {
  const filter = filterClause(query);
  const params: QueryParameters = { repo: query.repo, path, ...filter.params };
  const sql = `SELECT ${MEMORY_SELECT} FROM memory_citations c JOIN memories m ON m.repo = c.repo AND m.id = c.memory_id WHERE c.repo = :repo AND c.path = :path${filter.sql} ORDER BY ${NEWEST_FIRST}${limitClause(query.limit, params)}`;
  return { sql, params };
}

/** The `bySubject` query: the `memories_subject` index. */
export function bySubjectQuery(query: ResolvedRecordQuery, key: string): BuiltQuery {
  const filter = filterClause(query);
  const params: QueryParameters = { repo: query.repo, key, ...filter.params };
  const sql = `SELECT ${MEMORY_SELECT} FROM memories m WHERE m.repo = :repo AND m.subject_key = :key${filter.sql} ORDER BY ${NEWEST_FIRST}${limitClause(query.limit, params)}`;
  return { sql, params };
}

/** Reads over one connection, with statements prepared on first use and kept. */
export class RecordReads {
  readonly #db: DatabaseSync;
  readonly #file: string;
  readonly #statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync, file: string) {
    this.#db = db;
    this.#file = file;
  }

  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #rows(sql: string, params: QueryParameters): MemoryRow[] {
    return this.#statement(sql).all(params) as unknown as MemoryRow[];
  }

  #records(rows: readonly MemoryRow[]): VerifiedMemory[] {
    return rows.map((row) => memoryFromRow(row, this.#file));
  }

  /** One record of `repo` by id. */
  get(repo: string, id: string): VerifiedMemory | undefined {
    const row = this.#statement(`SELECT ${MEMORY_SELECT} FROM memories m WHERE m.repo = ? AND m.id = ?`).get(
      repo,
      id,
    ) as MemoryRow | undefined;
    return row === undefined ? undefined : memoryFromRow(row, this.#file);
  }

  /**
   * Newest first. One query per status, each an ordered walk of the `memories_recent` index that
   * stops at `limit`; the per-status lists are merged.
   */
  recent(query: ResolvedRecordQuery): VerifiedMemory[] {
    if (query.statuses.length === 0 || query.limit === 0) return [];
    const merged: MemoryRow[] = [];
    for (const status of query.statuses) {
      const { sql, params } = recentQuery(query, status);
      merged.push(...this.#rows(sql, params));
    }
    if (query.statuses.length > 1) merged.sort(newestFirst);
    return this.#records(query.limit === undefined ? merged : merged.slice(0, query.limit));
  }

  /** Records citing `path` (already normalised), newest first. */
  byPath(query: ResolvedRecordQuery, path: string): VerifiedMemory[] {
    if (query.statuses.length === 0 || query.limit === 0) return [];
    const { sql, params } = byPathQuery(query, path);
    return this.#records(this.#rows(sql, params));
  }

  /** Records whose subject key is `key`, newest first. */
  bySubject(query: ResolvedRecordQuery, key: string): VerifiedMemory[] {
    if (query.statuses.length === 0 || query.limit === 0) return [];
    const { sql, params } = bySubjectQuery(query, key);
    return this.#records(this.#rows(sql, params));
  }

  /**
   * Records holding every word of `text`, best bm25 match first (newest first among equals).
   * Words are FTS5 string literals, so no input is ever parsed as query syntax. Words in scripts
   * written without spaces (CJK, Thai) are matched as substrings, since the word index cannot
   * split them.
   */
  search(query: ResolvedRecordQuery, text: string): VerifiedMemory[] {
    const words = queryWords(text);
    if (words.length === 0 || query.statuses.length === 0 || query.limit === 0) return [];
    const filter = filterClause(query);
    const params: QueryParameters = { repo: query.repo, ...filter.params };
    const indexed = words.filter((word) => !isUnspacedTerm(word));
    const substrings = words.filter(isUnspacedTerm).map((word, index) => {
      params[`sub${index}`] = word;
      return ` AND instr(${SEARCHED_TEXT}, :sub${index}) > 0`;
    });
    let sql: string;
    if (indexed.length > 0) {
      params.match = memoryMatchExpression(scopeToken(query.repo), indexed);
      sql = `SELECT ${MEMORY_SELECT}, ${BM25} AS rank FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid WHERE memories_fts MATCH :match AND m.repo = :repo${filter.sql}${substrings.join('')} ORDER BY rank, ${NEWEST_FIRST}`;
    } else {
      sql = `SELECT ${MEMORY_SELECT} FROM memories m WHERE m.repo = :repo${filter.sql}${substrings.join('')} ORDER BY ${NEWEST_FIRST}`;
    }
    return this.#records(this.#rows(sql + limitClause(query.limit, params), params));
  }

  /** Telemetry of `repo` (optionally one memory), oldest first; the last `limit` when given. */
  events(repo: string, memoryId: string | undefined, limit: number | undefined): TelemetryEvent[] {
    if (limit === 0) return [];
    const params: QueryParameters = { repo };
    let where = 'repo = :repo';
    if (memoryId !== undefined) {
      params.memory = memoryId;
      where += ' AND memory_id = :memory';
    }
    const order = limit === undefined ? 'ASC' : 'DESC';
    const sql = `SELECT id, repo, memory_id, type, at, details FROM memory_events WHERE ${where} ORDER BY id ${order}${limitClause(limit, params)}`;
    const rows = this.#statement(sql).all(params) as unknown as EventRow[];
    if (limit !== undefined) rows.reverse();
    return rows.map((row) => eventFromRow(row, this.#file));
  }

  /** Counts by status and event type (GROUP BY over the indexes), and expired active records. */
  stats(repo: string, liveKey: string | undefined): RecordStats {
    const byStatus = Object.fromEntries(MEMORY_STATUSES.map((status) => [status, 0])) as Record<MemoryStatus, number>;
    const statusRows = this.#statement('SELECT status, count(*) AS n FROM memories WHERE repo = ? GROUP BY status').all(
      repo,
    ) as Array<{ status: string; n: number }>;
    for (const row of statusRows) {
      if (row.status in byStatus) byStatus[row.status as MemoryStatus] = Number(row.n);
    }
    const events = Object.fromEntries(TELEMETRY_EVENT_TYPES.map((type) => [type, 0])) as Record<
      TelemetryEventType,
      number
    >;
    const eventRows = this.#statement('SELECT type, count(*) AS n FROM memory_events WHERE repo = ? GROUP BY type').all(
      repo,
    ) as Array<{ type: string; n: number }>;
    for (const row of eventRows) {
      if (row.type in events) events[row.type as TelemetryEventType] = Number(row.n);
    }
    let expired = 0;
    if (liveKey !== undefined) {
      const row = this.#statement(
        "SELECT count(*) AS n FROM memories WHERE repo = ? AND status = 'active' AND expires_key <= ?",
      ).get(repo, liveKey) as { n: number };
      expired = Number(row.n);
    }
    return { repo, byStatus, expired, events };
  }
}
