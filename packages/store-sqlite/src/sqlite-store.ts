// Why: the embedded default store. Documents are rows of one SQLite file (node:sqlite, no native
// addon), scoped by repository, so several repositories and several processes can share a file.
// Every write is one `BEGIN IMMEDIATE` transaction that checks all expected versions and applies
// the whole batch, the FTS5 index and the repository's revision counter together: all or nothing,
// across processes and crashes. State values have their own table (sqlite-state.ts) and search
// candidates come from the FTS5 index (sqlite-candidates.ts). See docs/architecture.md ("SQLite").
import type { DatabaseSync } from 'node:sqlite';
import {
  assertNoPathTwins,
  type DocumentEntry,
  expectationHolds,
  type MemoryStore,
  normalizeDocumentPath,
  normalizePrefix,
  type PreparedOperation,
  prepareWriteBatch,
  type ReadAllOptions,
  RepomemError,
  type SearchCandidateQuery,
  type SearchCandidates,
  STORE_SPECIFICATION_VERSION,
  type StoreCapabilities,
  type StoredDocument,
  type StoreState,
  storeClosedError,
  type WriteConflict,
  type WriteOperation,
  type WriteResult,
} from '@repomem/core';
import { type OpenedConnection, openConnection } from './connection.js';
import { DocumentStatements } from './document-statements.js';
import { scopeToken } from './fts-query.js';
import { type IndexedText, indexedText } from './indexed-text.js';
import { prefixCondition } from './path-range.js';
import { rollbackQuietly } from './schema.js';
import { SqliteCandidates } from './sqlite-candidates.js';
import { translateSqliteError } from './sqlite-errors.js';
import { SqliteState } from './sqlite-state.js';

/** Repository scope used when {@link SqliteStoreOptions.repo} is not given. */
export const DEFAULT_SQLITE_REPO = 'default';

/** Default {@link SqliteStoreOptions.busyTimeoutMs}: 5000 ms, like the directory store's lock timeout. */
export const DEFAULT_SQLITE_BUSY_TIMEOUT_MS = 5000;

/** Default {@link SqliteStoreOptions.maxDocumentBytes}: 16 MiB, like core's reference stores. */
export const DEFAULT_SQLITE_MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

/** Largest accepted {@link SqliteStoreOptions.maxDocumentBytes}: 512 MiB (SQLite's own limit is about 1 GB). */
export const MAX_SQLITE_DOCUMENT_BYTES = 512 * 1024 * 1024;

/** Longest repository scope name, in UTF-16 code units. */
export const MAX_SQLITE_REPO_LENGTH = 512;

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions {
  /**
   * Database file, created (with its directory) when missing unless `readOnly`. Relative paths
   * resolve against the working directory. `:memory:` gives a private in-memory database.
   */
  readonly path: string;
  /**
   * Repository scope (default `default`): stores opened with different `repo` values on the same
   * file never see each other's documents, and each scope has its own revision.
   */
  readonly repo?: string;
  /** How long a write waits for another connection's write lock before `LOCK_TIMEOUT` (default 5000 ms). */
  readonly busyTimeoutMs?: number;
  /**
   * Open without writing anything: `write()`, `state.put()` and `state.delete()` throw
   * `READ_ONLY`; reads, state reads and search work. A missing file is `NOT_FOUND` (never
   * created). A file without any write permission bit (`chmod a-w`) is always opened read-only.
   */
  readonly readOnly?: boolean;
  /** Largest document accepted, in bytes (default 16 MiB, at most 512 MiB). */
  readonly maxDocumentBytes?: number;
}

/** A {@link MemoryStore} over a SQLite database; see {@link openSqliteStore}. */
export interface SqliteStore extends MemoryStore {
  /** Always `sqlite`. */
  readonly name: 'sqlite';
  /** Absolute path of the database file (or `:memory:`). */
  readonly file: string;
  /** Repository scope of this store. */
  readonly repo: string;
  /** True when the store refuses writes (`readOnly` option or a write-protected file). */
  readonly readOnly: boolean;
  /** Every document under a prefix with its content, read in one snapshot (always present). */
  readAll(options?: ReadAllOptions): Promise<StoredDocument[]>;
  /** Candidate documents from the FTS5 index (always present); search with core's `searchStore`. */
  searchCandidates(query: SearchCandidateQuery): Promise<SearchCandidates>;
}

function positiveInteger(name: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0 || value > max) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `openSqliteStore: ${name} must be an integer from 1 to ${max}, got ${String(value)}`,
    );
  }
  return value;
}

function checkRepo(repo: unknown): string {
  if (repo === undefined) return DEFAULT_SQLITE_REPO;
  if (typeof repo !== 'string' || repo.length === 0 || repo.length > MAX_SQLITE_REPO_LENGTH || repo.includes('\0')) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `openSqliteStore: repo must be a non-empty string of at most ${MAX_SQLITE_REPO_LENGTH} characters without NUL, got ${JSON.stringify(repo)}`,
    );
  }
  return repo;
}

const byPath = (a: { readonly path: string }, b: { readonly path: string }): number =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : 0;

interface CurrentRow {
  readonly id: number;
  readonly version: string;
  readonly indexed: number;
}

/** A put or delete with its index entry computed before the write lock is taken. */
type PlannedOperation = PreparedOperation & { readonly indexed?: IndexedText | undefined };

class SqliteStoreImpl implements SqliteStore {
  readonly specificationVersion = STORE_SPECIFICATION_VERSION;
  readonly name = 'sqlite' as const;
  readonly capabilities: StoreCapabilities;
  readonly file: string;
  readonly repo: string;
  readonly readOnly: boolean;
  readonly state: StoreState;
  readonly #db: DatabaseSync;
  readonly #databaseId: string;
  readonly #statements: DocumentStatements;
  readonly #candidates: SqliteCandidates;
  /** FTS5 token of this repository scope (see `scopeToken`). */
  readonly #scope: string;
  /** False on a store set's connection: the set closes it. */
  readonly #ownsDb: boolean;
  #closed = false;

  constructor(options: SqliteStoreOptions, shared?: OpenedConnection) {
    if (options === null || typeof options !== 'object' || typeof options.path !== 'string' || options.path === '') {
      throw new RepomemError('INVALID_ARGUMENT', 'openSqliteStore: path must be a non-empty file path (or ":memory:")');
    }
    this.repo = checkRepo(options.repo);
    this.#scope = scopeToken(this.repo);
    const busyTimeoutMs = positiveInteger(
      'busyTimeoutMs',
      options.busyTimeoutMs,
      DEFAULT_SQLITE_BUSY_TIMEOUT_MS,
      2 ** 31 - 1,
    );
    const maxDocumentBytes = positiveInteger(
      'maxDocumentBytes',
      options.maxDocumentBytes,
      DEFAULT_SQLITE_MAX_DOCUMENT_BYTES,
      MAX_SQLITE_DOCUMENT_BYTES,
    );
    const connection =
      shared ?? openConnection({ path: options.path, busyTimeoutMs, readOnly: options.readOnly === true });
    this.#ownsDb = shared === undefined;
    this.#db = connection.db;
    this.file = connection.file;
    this.readOnly = connection.readOnly;
    this.#databaseId = connection.databaseId;
    try {
      this.#statements = new DocumentStatements(this.#db);
      this.state = new SqliteState({
        db: this.#db,
        repo: this.repo,
        assertOpen: () => this.#assertOpen(),
        assertWritable: (action) => this.#assertWritable(action),
        run: (action, work) => this.#run(action, work),
      });
    } catch (error) {
      if (this.#ownsDb) this.#db.close();
      throw translateSqliteError(error, this.file, 'preparing statements');
    }
    this.#candidates = new SqliteCandidates(this.#db, this.repo, this.#scope);
    this.capabilities = Object.freeze({
      binarySafe: true,
      atomicDocument: true,
      atomicBatch: true,
      readYourWrites: true,
      compareAndSwap: 'native',
      maxDocumentBytes,
    });
  }

  #assertOpen(): void {
    if (this.#closed) throw storeClosedError('sqlite');
  }

  #assertWritable(action: string): void {
    if (this.readOnly) {
      throw new RepomemError('READ_ONLY', `the sqlite store ${this.file} is open read-only; ${action} was refused`, {
        details: { file: this.file },
      });
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

  async get(path: string): Promise<StoredDocument | undefined> {
    this.#assertOpen();
    const normalized = normalizeDocumentPath(path);
    const row = this.#run(`get(${normalized})`, () => this.#statements.get.get(this.repo, normalized)) as
      | { version: string; size: number; content: Uint8Array }
      | undefined;
    if (row === undefined) return undefined;
    // node:sqlite returns a fresh buffer per read, so the caller owns it (no copy needed).
    return { path: normalized, version: row.version, size: Number(row.size), content: row.content };
  }

  async list(prefix?: string): Promise<DocumentEntry[]> {
    this.#assertOpen();
    const condition = prefixCondition('path', normalizePrefix(prefix));
    const rows = this.#run('list()', () =>
      this.#statements.list(condition.sql).all({ repo: this.repo, ...condition.params }),
    ) as unknown as Array<{ path: string; version: string; size: number }>;
    return rows.map((row) => ({ path: row.path, version: row.version, size: Number(row.size) })).sort(byPath);
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredDocument[]> {
    this.#assertOpen();
    const condition = prefixCondition('path', normalizePrefix(options.prefix));
    const accept = options.accept;
    return this.#run('readAll()', () => {
      // One read transaction: the listing and every content come from the same snapshot.
      this.#db.exec('BEGIN');
      try {
        const rows = (
          this.#statements.list(condition.sql).all({ repo: this.repo, ...condition.params }) as unknown as Array<{
            path: string;
            size: number;
          }>
        ).sort(byPath);
        const documents: StoredDocument[] = [];
        for (const row of rows) {
          const size = Number(row.size);
          if (accept !== undefined && !accept(row.path, size)) continue;
          const document = this.#statements.get.get(this.repo, row.path) as
            | { version: string; content: Uint8Array }
            | undefined;
          if (document !== undefined) {
            documents.push({ path: row.path, version: document.version, size, content: document.content });
          }
        }
        this.#db.exec('COMMIT');
        return documents;
      } catch (error) {
        rollbackQuietly(this.#db);
        throw error;
      }
    });
  }

  async write(operations: readonly WriteOperation[]): Promise<WriteResult> {
    this.#assertOpen();
    this.#assertWritable('write()');
    const planned: PlannedOperation[] = prepareWriteBatch(operations, this.capabilities.maxDocumentBytes).map(
      (operation) =>
        operation.kind === 'put'
          ? { ...operation, indexed: indexedText(operation.path, operation.content) }
          : operation,
    );
    return this.#run('write()', () => this.#transact(planned));
  }

  /** Check every expectation and apply the batch in one IMMEDIATE transaction (synchronous). */
  #transact(batch: readonly PlannedOperation[]): WriteResult {
    const s = this.#statements;
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const current = new Map<string, CurrentRow | undefined>();
      const conflicts: WriteConflict[] = [];
      for (const operation of batch) {
        const row = s.current.get(this.repo, operation.path) as CurrentRow | undefined;
        current.set(operation.path, row);
        const actual = row?.version ?? null;
        if (!expectationHolds(operation.expectedVersion, actual)) {
          conflicts.push({ path: operation.path, expected: operation.expectedVersion ?? null, actual });
        }
      }
      if (conflicts.length > 0) {
        this.#db.exec('ROLLBACK');
        return { status: 'conflict', conflicts };
      }
      this.#refusePathTwins(batch, current);
      const now = new Date().toISOString();
      const versions: Record<string, string | null> = {};
      let indexedDelta = 0;
      for (const operation of batch) {
        const row = current.get(operation.path);
        if (operation.kind === 'delete') {
          versions[operation.path] = null;
          if (row === undefined) continue;
          s.ftsDelete.run(row.id);
          s.remove.run(row.id);
          s.removeContent.run(row.id);
          indexedDelta -= row.indexed;
          continue;
        }
        versions[operation.path] = operation.version;
        if (row?.version === operation.version) continue;
        const text = operation.indexed;
        const indexed = text === undefined ? 0 : 1;
        const length = text?.length ?? null;
        const size = operation.content.byteLength;
        let id: number;
        if (row === undefined) {
          id = Number(
            s.insert.run(this.repo, operation.path, operation.version, size, indexed, length, now).lastInsertRowid,
          );
          s.insertContent.run(id, operation.content);
        } else {
          id = row.id;
          s.ftsDelete.run(id);
          s.update.run(operation.version, size, indexed, length, now, id);
          s.updateContent.run(operation.content, id);
          indexedDelta -= row.indexed;
        }
        indexedDelta += indexed;
        if (text !== undefined) s.ftsInsert.run(id, this.#scope, text.path, text.body);
      }
      s.bump.get({ repo: this.repo, delta: indexedDelta });
      this.#db.exec('COMMIT');
      return { status: 'committed', versions };
    } catch (error) {
      rollbackQuietly(this.#db);
      throw error;
    }
  }

  /** Refuse a put creating a case or Unicode-normalisation twin of an existing path (core's rule). */
  #refusePathTwins(batch: readonly PlannedOperation[], current: ReadonlyMap<string, CurrentRow | undefined>): void {
    const created = batch.filter((operation) => operation.kind === 'put' && current.get(operation.path) === undefined);
    if (created.length === 0) return;
    const rows = this.#statements.list('1 = 1').all({ repo: this.repo }) as unknown as Array<{ path: string }>;
    const deleted = new Set(
      batch.filter((operation) => operation.kind === 'delete').map((operation) => operation.path),
    );
    assertNoPathTwins(
      created.map((operation) => operation.path),
      rows.map((row) => row.path),
      deleted,
    );
  }

  async revision(): Promise<string> {
    this.#assertOpen();
    const row = this.#run('revision()', () => this.#statements.revision.get(this.repo)) as
      | { revision: number }
      | undefined;
    return `${this.#databaseId}.${row?.revision ?? 0}`;
  }

  async searchCandidates(query: SearchCandidateQuery): Promise<SearchCandidates> {
    this.#assertOpen();
    return this.#run('searchCandidates()', () => this.#candidates.answer(query));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsDb) this.#db.close();
  }
}

/**
 * Open (creating when missing) a SQLite store on the built-in `node:sqlite`.
 *
 * Guarantees: versions are the SHA-256 of the content; a `write()` is one `BEGIN IMMEDIATE`
 * transaction that checks every expected version, applies every operation, updates the FTS5 index
 * and bumps the repository's revision, or does nothing (also across processes and crashes); a
 * state `put`/`delete` checks and applies the same way; WAL mode lets readers proceed while one
 * writer commits, and writers wait up to `busyTimeoutMs`. `searchCandidates` names every matching
 * document (complete), so core's `searchStore` ranks exactly like its own scan.
 *
 * Throws `INVALID_ARGUMENT` (bad options), `NOT_FOUND` (missing file opened read-only),
 * `BACKEND_UNAVAILABLE` (corrupt or non-SQLite file, cannot open), `UNSUPPORTED` (a database from a
 * newer schema version or another application), `READ_ONLY` (a read-only database that needs
 * migrating), each naming the file. A database from an earlier schema is migrated on open, in one
 * transaction.
 */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  return new SqliteStoreImpl(options);
}

/**
 * The store on a connection a store set owns (package-internal): its `close()` leaves the
 * connection open; `options.path` only names the file in messages.
 */
export function sqliteStoreOn(options: SqliteStoreOptions, connection: OpenedConnection): SqliteStore {
  return new SqliteStoreImpl(options, connection);
}
