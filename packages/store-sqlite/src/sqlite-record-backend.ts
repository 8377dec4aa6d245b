// Why: verified memories stored natively in SQLite (seed 003's agent_memory and
// agent_memory_telemetry tables), behind core's VerifiedMemoryBackend contract, so the lifecycle
// logic in core runs unchanged on the embedded store. The file is the one openSqliteStore uses:
// documents, records and telemetry can share it, and several processes can write it at once.
import type { DatabaseSync } from 'node:sqlite';
import {
  assertDeleteArguments,
  normalizeDocumentPath,
  type RecordApplyResult,
  type RecordQuery,
  type RecordStats,
  type RecordWrite,
  RepomemError,
  type TelemetryEvent,
  type VerifiedMemory,
  type VerifiedMemoryBackend,
} from '@repomem/core';
import { type OpenedConnection, openConnection } from './connection.js';
import { planEvents, planWrites, RecordWriteStatements } from './record-apply.js';
import { checkLimit, checkRepoArgument, resolveRecordQuery } from './record-query.js';
import { RecordReads } from './record-reads.js';
import { rollbackQuietly } from './schema.js';
import { translateSqliteError } from './sqlite-errors.js';
import { DEFAULT_SQLITE_BUSY_TIMEOUT_MS } from './sqlite-store.js';
import { timeKey } from './time-key.js';

/** Options of {@link openSqliteRecordBackend}. */
export interface SqliteRecordBackendOptions {
  /**
   * Database file, created (with its directory) when missing unless `readOnly`; may be the same
   * file as an {@link openSqliteStore} store. `:memory:` gives a private in-memory database.
   */
  readonly path: string;
  /** How long a write waits for another connection's write lock before `LOCK_TIMEOUT` (default 5000 ms). */
  readonly busyTimeoutMs?: number;
  /**
   * Open without writing anything: `apply()` and `appendEvents()` throw `READ_ONLY`, queries
   * work. A file without any write permission bit is always opened read-only.
   */
  readonly readOnly?: boolean;
}

/** A {@link VerifiedMemoryBackend} over a SQLite database; see {@link openSqliteRecordBackend}. */
export interface SqliteRecordBackend extends VerifiedMemoryBackend {
  /** Always `sqlite`. */
  readonly name: 'sqlite';
  /** Absolute path of the database file (or `:memory:`). */
  readonly file: string;
  /** True when writes are refused (`readOnly` option or a write-protected file). */
  readonly readOnly: boolean;
}

/** Check the connection options of an opener (package-internal; the store set uses it too). */
export function checkConnectionOptions(
  options: SqliteRecordBackendOptions,
  opener = 'openSqliteRecordBackend',
): { path: string; busyTimeoutMs: number; readOnly: boolean } {
  if (options === null || typeof options !== 'object' || typeof options.path !== 'string' || options.path === '') {
    throw new RepomemError('INVALID_ARGUMENT', `${opener}: path must be a non-empty file path (or ":memory:")`);
  }
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_SQLITE_BUSY_TIMEOUT_MS;
  if (!Number.isSafeInteger(busyTimeoutMs) || busyTimeoutMs <= 0 || busyTimeoutMs > 2 ** 31 - 1) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `${opener}: busyTimeoutMs must be an integer from 1 to ${2 ** 31 - 1}, got ${String(options.busyTimeoutMs)}`,
    );
  }
  return { path: options.path, busyTimeoutMs, readOnly: options.readOnly === true };
}

class SqliteRecordBackendImpl implements SqliteRecordBackend {
  readonly name = 'sqlite' as const;
  readonly file: string;
  readonly readOnly: boolean;
  readonly #db: DatabaseSync;
  readonly #writes: RecordWriteStatements;
  readonly #reads: RecordReads;
  /** False on a store set's connection: the set closes it. */
  readonly #ownsDb: boolean;
  #closed = false;

  constructor(options: SqliteRecordBackendOptions, shared?: OpenedConnection) {
    const connection = shared ?? openConnection(checkConnectionOptions(options));
    this.#ownsDb = shared === undefined;
    this.#db = connection.db;
    this.file = connection.file;
    this.readOnly = connection.readOnly;
    try {
      this.#writes = new RecordWriteStatements(this.#db);
    } catch (error) {
      if (this.#ownsDb) this.#db.close();
      throw translateSqliteError(error, this.file, 'preparing statements');
    }
    this.#reads = new RecordReads(this.#db, this.file);
  }

  #assertOpen(): void {
    if (this.#closed) throw new RepomemError('STORE_CLOSED', `the sqlite record backend ${this.file} is closed`);
  }

  #assertWritable(action: string): void {
    this.#assertOpen();
    if (this.readOnly) {
      throw new RepomemError(
        'READ_ONLY',
        `the sqlite record backend ${this.file} is open read-only; ${action} was refused`,
        {
          details: { file: this.file },
        },
      );
    }
  }

  /** Run a synchronous database action, translating SQLite errors. */
  #run<T>(action: string, work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw translateSqliteError(error, this.file, action);
    }
  }

  async apply(writes: readonly RecordWrite[], events: readonly TelemetryEvent[]): Promise<RecordApplyResult> {
    this.#assertWritable('apply()');
    const plannedWrites = planWrites(writes);
    const plannedEvents = planEvents(events, 'apply');
    if (plannedWrites.length === 0 && plannedEvents.length === 0) return { ok: true };
    return this.#run('apply()', () => this.#writes.apply(plannedWrites, plannedEvents));
  }

  async delete(repo: string, id: string, expectedRevision: number): Promise<boolean> {
    this.#assertWritable('delete()');
    checkRepoArgument(repo, 'delete');
    assertDeleteArguments(id, expectedRevision);
    return this.#run('delete()', () => this.#writes.remove(repo, id, expectedRevision));
  }

  async get(repo: string, id: string): Promise<VerifiedMemory | undefined> {
    this.#assertOpen();
    checkRepoArgument(repo, 'get');
    if (typeof id !== 'string') return undefined;
    return this.#run('get()', () => this.#reads.get(repo, id));
  }

  async recent(query: RecordQuery): Promise<VerifiedMemory[]> {
    this.#assertOpen();
    const resolved = resolveRecordQuery(query, 'recent');
    return this.#run('recent()', () => this.#reads.recent(resolved));
  }

  async byPath(query: RecordQuery & { readonly path: string }): Promise<VerifiedMemory[]> {
    this.#assertOpen();
    const resolved = resolveRecordQuery(query, 'byPath');
    const path = normalizeDocumentPath(query.path);
    return this.#run('byPath()', () => this.#reads.byPath(resolved, path));
  }

  async bySubject(query: RecordQuery & { readonly subjectKey: string }): Promise<VerifiedMemory[]> {
    this.#assertOpen();
    const resolved = resolveRecordQuery(query, 'bySubject');
    if (typeof query.subjectKey !== 'string') {
      throw new RepomemError('INVALID_ARGUMENT', 'bySubject: subjectKey must be a string');
    }
    return this.#run('bySubject()', () => this.#reads.bySubject(resolved, query.subjectKey));
  }

  async search(query: RecordQuery & { readonly text: string }): Promise<VerifiedMemory[]> {
    this.#assertOpen();
    const resolved = resolveRecordQuery(query, 'search');
    if (typeof query.text !== 'string') throw new RepomemError('INVALID_ARGUMENT', 'search: text must be a string');
    return this.#run('search()', () => this.#reads.search(resolved, query.text));
  }

  async appendEvents(events: readonly TelemetryEvent[]): Promise<void> {
    this.#assertWritable('appendEvents()');
    const planned = planEvents(events, 'appendEvents');
    if (planned.length === 0) return;
    this.#run('appendEvents()', () => {
      this.#db.exec('BEGIN IMMEDIATE');
      try {
        this.#writes.insertEvents(planned);
        this.#db.exec('COMMIT');
      } catch (error) {
        rollbackQuietly(this.#db);
        throw error;
      }
    });
  }

  async events(query: {
    readonly repo: string;
    readonly memoryId?: string;
    readonly limit?: number;
  }): Promise<TelemetryEvent[]> {
    this.#assertOpen();
    if (query === null || typeof query !== 'object') {
      throw new RepomemError('INVALID_ARGUMENT', 'events: expected a query object');
    }
    const repo = checkRepoArgument(query.repo, 'events');
    const limit = checkLimit(query.limit, 'events');
    if (query.memoryId !== undefined && typeof query.memoryId !== 'string') {
      throw new RepomemError('INVALID_ARGUMENT', 'events: memoryId must be a string');
    }
    return this.#run('events()', () => this.#reads.events(repo, query.memoryId, limit));
  }

  async stats(query: { readonly repo: string; readonly liveAt?: string }): Promise<RecordStats> {
    this.#assertOpen();
    if (query === null || typeof query !== 'object') {
      throw new RepomemError('INVALID_ARGUMENT', 'stats: expected a query object');
    }
    const repo = checkRepoArgument(query.repo, 'stats');
    const liveKey = query.liveAt === undefined ? undefined : timeKey(query.liveAt);
    return this.#run('stats()', () => this.#reads.stats(repo, liveKey));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsDb) this.#db.close();
  }
}

/**
 * Open (creating when missing) verified-memory storage in a SQLite file on the built-in
 * `node:sqlite`, with the same connection handling as {@link openSqliteStore}: WAL mode, a busy
 * timeout, forward-only schema migrations (schema version 2 adds the record tables to a version 1
 * file in place). The file may also hold {@link openSqliteStore} documents.
 *
 * Guarantees: `apply` is one `BEGIN IMMEDIATE` transaction that checks every `expectedRevision`
 * and writes records, citation rows, FTS5 rows and events, or nothing (also across processes);
 * queries never read another repository's rows; every row read back is validated with core's
 * schemas (`INVALID_DOCUMENT` naming the memory otherwise).
 *
 * Throws `INVALID_ARGUMENT` (bad options), `NOT_FOUND` (missing file opened read-only),
 * `BACKEND_UNAVAILABLE` (corrupt or non-SQLite file), `UNSUPPORTED` (a newer schema version or
 * another application's database), `READ_ONLY` (a read-only file that needs migrating), each
 * naming the file.
 */
export function openSqliteRecordBackend(options: SqliteRecordBackendOptions): SqliteRecordBackend {
  return new SqliteRecordBackendImpl(options);
}

/** The backend on a connection a store set owns (package-internal): its `close()` leaves the connection open. */
export function sqliteRecordBackendOn(connection: OpenedConnection): SqliteRecordBackend {
  return new SqliteRecordBackendImpl({ path: connection.file }, connection);
}
