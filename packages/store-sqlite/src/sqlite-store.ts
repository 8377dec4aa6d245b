// Why: the embedded default store. Documents are rows of one SQLite file (node:sqlite, no native
// addon), scoped by repository, so several repositories and several processes can share a file.
// The store is core's `createStore` on the SQLite driver (sqlite-driver.ts: one `BEGIN IMMEDIATE`
// transaction per batch, the FTS5 index for search candidates, a revision counter); this module
// checks the options, opens the connection and keeps the store's own members (file, repo,
// readOnly). See docs/architecture.md ("SQLite").
import {
  createStore,
  type MemoryStore,
  type ReadAllOptions,
  RepomemError,
  type SearchCandidateQuery,
  type SearchCandidates,
  type StoredDocument,
} from '@repomem/core';
import { type OpenedConnection, openConnection } from './connection.js';
import { MAX_SQLITE_DOCUMENT_BYTES, readOnlyError, type SqliteDriver, sqliteDriverOn } from './sqlite-driver.js';

export { MAX_SQLITE_DOCUMENT_BYTES } from './sqlite-driver.js';

/** Repository scope used when {@link SqliteStoreOptions.repo} is not given. */
export const DEFAULT_SQLITE_REPO = 'default';

/** Default {@link SqliteStoreOptions.busyTimeoutMs}: 5000 ms, like the directory store's lock timeout. */
export const DEFAULT_SQLITE_BUSY_TIMEOUT_MS = 5000;

/** Default {@link SqliteStoreOptions.maxDocumentBytes}: 16 MiB, like core's reference stores. */
export const DEFAULT_SQLITE_MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

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
  /** The SQLite driver the store is built on (`createStore(driver)`). */
  readonly driver: SqliteDriver;
  /** Every document under a prefix with its content (always present). */
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

/** Options checked, the connection opened (or the shared one), the driver on it. */
function openDriver(options: SqliteStoreOptions, shared?: OpenedConnection): [SqliteDriver, number] {
  if (options === null || typeof options !== 'object' || typeof options.path !== 'string' || options.path === '') {
    throw new RepomemError('INVALID_ARGUMENT', 'openSqliteStore: path must be a non-empty file path (or ":memory:")');
  }
  const repo = checkRepo(options.repo);
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
  try {
    return [sqliteDriverOn(connection, { repo, ownsConnection: shared === undefined }), maxDocumentBytes];
  } catch (error) {
    if (shared === undefined) connection.db.close();
    throw error;
  }
}

/** The store: core's `createStore` on the driver, plus the members the store had before the kit. */
function sqliteStore(options: SqliteStoreOptions, shared?: OpenedConnection): SqliteStore {
  const [driver, maxDocumentBytes] = openDriver(options, shared);
  const kit = createStore(driver, { maxDocumentBytes });
  let closed = false;
  return {
    specificationVersion: kit.specificationVersion,
    name: 'sqlite',
    capabilities: kit.capabilities,
    state: kit.state,
    file: driver.file,
    repo: driver.repo,
    readOnly: driver.readOnly,
    driver,
    get: kit.get,
    getMany: kit.getMany,
    list: kit.list,
    readAll: kit.readAll as SqliteStore['readAll'],
    // Refused before validation, also for an empty batch (the kit never calls the driver for one).
    write: async (operations, metadata) => {
      if (driver.readOnly && !closed) throw readOnlyError(driver.file);
      return kit.write(operations, metadata);
    },
    searchCandidates: kit.searchCandidates as SqliteStore['searchCandidates'],
    // The driver's token (`<database id>.<counter>`), as the store answered it before the kit.
    revision: kit.revision,
    close: async () => {
      closed = true;
      await kit.close();
    },
  };
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
  return sqliteStore(options);
}

/**
 * The store on a connection a store set owns (package-internal): its `close()` leaves the
 * connection open; `options.path` only names the file in messages.
 */
export function sqliteStoreOn(options: SqliteStoreOptions, connection: OpenedConnection): SqliteStore {
  return sqliteStore(options, connection);
}

/**
 * Open the SQLite store kit driver alone (what `openSqliteStore` builds its store on), for
 * `createStore(driver)` or core's driver suite. Same options and errors as
 * {@link openSqliteStore} (`maxDocumentBytes` is the store's; pass it to `createStore`).
 *
 * @example
 * ```ts
 * const store = createStore(createSqliteDriver({ path: '.repomem/repomem.db', repo: 'acme/app' }));
 * ```
 */
export function createSqliteDriver(options: SqliteStoreOptions): SqliteDriver {
  return openDriver(options)[0];
}
