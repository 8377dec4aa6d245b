// Why: one memory for a whole team. The store is core's `createStore` on this package's kit
// driver (postgres-driver.ts), which maps the kit's `documents` and `state` namespaces onto the
// tables every release has used, so validation, the credential scan, path twins, conflicts,
// state compare-and-swap and read caching come from core, and PostgreSQL keeps what it does
// natively: one transaction per batch, the tsvector index, a revision counter, row-level
// security (checked before the first read). See docs/architecture.md ("PostgreSQL").
import {
  createStore,
  type KitDriver,
  type KitStore,
  type MemoryStore,
  normalizeDocumentPath,
  type ReadAllOptions,
  RepomemError,
  type SearchCandidateQuery,
  type SearchCandidates,
  type StoredDocument,
} from '@repomem/core';
import type { PostgresDatabase } from './database.js';
import { openDatabase, type PostgresConnectionOptions } from './open-database.js';
import { createPostgresDriver, MAX_POSTGRES_DOCUMENT_BYTES } from './postgres-driver.js';
import { postgresRecordBackendOn } from './record-backend.js';
import { RepositoryAccessCheck } from './repo-access.js';
import { postgresTaskRecordBackendOn } from './task-record-backend.js';

export { MAX_POSTGRES_DOCUMENT_BYTES } from './postgres-driver.js';

/** Repository scope used when {@link PostgresStoreOptions.repo} is not given. */
export const DEFAULT_POSTGRES_REPO = 'default';
/** Default {@link PostgresStoreOptions.maxDocumentBytes}: 16 MiB, like core's reference stores. */
export const DEFAULT_POSTGRES_MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
/** Longest repository scope name, in characters. */
export const MAX_POSTGRES_REPO_LENGTH = 512;

/** Options of {@link openPostgresStore}. */
export interface PostgresStoreOptions extends PostgresConnectionOptions {
  /** Repository scope (default `default`): stores with different `repo` values never see each other's documents. */
  readonly repo?: string;
  /** Largest document accepted, in bytes (default 16 MiB, at most 256 MiB). */
  readonly maxDocumentBytes?: number;
}

/** A {@link MemoryStore} over PostgreSQL; see {@link openPostgresStore}. */
export interface PostgresStore extends MemoryStore {
  /** Always `postgres`. */
  readonly name: 'postgres';
  /** Repository scope of this store. */
  readonly repo: string;
  /** Schema holding the tables. */
  readonly schema: string;
  /** The server as `postgres://user@host:port/database` (never the password). */
  readonly label: string;
  /** True when the store refuses writes. */
  readonly readOnly: boolean;
  /** Every document under a prefix with its content (always present). */
  readAll(options?: ReadAllOptions): Promise<StoredDocument[]>;
  /** Candidate documents from the tsvector index (always present); search with core's `searchStore`. */
  searchCandidates(query: SearchCandidateQuery): Promise<SearchCandidates>;
  /** Several documents in one round trip (always present). */
  getMany(paths: readonly string[]): Promise<(StoredDocument | undefined)[]>;
}

/** Check a repository scope name. */
export function checkPostgresRepo(repo: unknown, opener: string): string {
  if (repo === undefined) return DEFAULT_POSTGRES_REPO;
  if (typeof repo !== 'string' || repo.length === 0 || repo.length > MAX_POSTGRES_REPO_LENGTH || repo.includes('\0')) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `${opener}: repo must be a non-empty string of at most ${MAX_POSTGRES_REPO_LENGTH} characters without NUL, got ${JSON.stringify(repo)}`,
    );
  }
  return repo;
}

export function checkMaxBytes(value: unknown): number {
  if (value === undefined) return DEFAULT_POSTGRES_MAX_DOCUMENT_BYTES;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0 || value > MAX_POSTGRES_DOCUMENT_BYTES) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `openPostgresStore: maxDocumentBytes must be an integer from 1 to ${MAX_POSTGRES_DOCUMENT_BYTES}, got ${String(value)}`,
    );
  }
  return value;
}

/** The server as `postgres://user@host:port/database` (never the password). */
function labelOf(db: PostgresDatabase): string {
  return `postgres://${db.identity.user}@${db.identity.host}:${db.identity.port}/${db.identity.database}`;
}

/** The driver on an open database, once the role may see `repo` (a hidden repository would read as empty). */
async function driverOn(
  db: PostgresDatabase,
  databaseId: string,
  repo: string,
  readOnly: boolean,
  twinsUnderLock = false,
): Promise<KitDriver> {
  await new RepositoryAccessCheck(db).assert(repo);
  return createPostgresDriver({ db, databaseId, repo, readOnly, label: labelOf(db), twinsUnderLock });
}

/**
 * Open a PostgreSQL store (creating or migrating its schema when needed, unless `readOnly`).
 *
 * Guarantees: versions are the SHA-256 of the content; a `write()` is one transaction that locks
 * the repository's row, checks every expected version, applies every operation with its index
 * entry and bumps the repository's revision, or does nothing (on every client, across crashes
 * and dropped connections, and never twice: a retried transaction finds its committed receipt);
 * a state `put`/`delete` checks and applies the same way; `searchCandidates` names every
 * matching document (complete), so core's `searchStore` ranks exactly like its own scan.
 *
 * Throws `INVALID_ARGUMENT` (bad options or URL), `BACKEND_UNAVAILABLE` (server unreachable,
 * authentication refused, missing privileges), `NOT_FOUND` (missing database; missing schema when
 * read-only), `UNSUPPORTED` (a newer schema, or foreign tables with repomem's names), each naming
 * host, port, database and user, never the password.
 *
 * @example
 * ```ts
 * const store = await openPostgresStore({ connectionString: process.env.DATABASE_URL, repo: 'acme/app' });
 * ```
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const repo = checkPostgresRepo(options?.repo, 'openPostgresStore');
  const maxDocumentBytes = checkMaxBytes(options?.maxDocumentBytes);
  const { db, databaseId } = await openDatabase(options, 'openPostgresStore');
  try {
    return await postgresStoreOn(db, databaseId, repo, options.readOnly === true, maxDocumentBytes);
  } catch (error) {
    await db.close();
    throw error;
  }
}

/**
 * Open the store kit driver alone (pass it to core's `createStore`, or run core's driver suite on
 * it): the same connection options, schema creation and row-level-security check as
 * {@link openPostgresStore}, which builds its store on this driver. Closing it ends the pool
 * (an injected `pool` or `client` stays open).
 */
export async function openPostgresDriver(options: Omit<PostgresStoreOptions, 'maxDocumentBytes'>): Promise<KitDriver> {
  const repo = checkPostgresRepo(options?.repo, 'openPostgresDriver');
  const { db, databaseId } = await openDatabase(options, 'openPostgresDriver');
  try {
    return await driverOn(db, databaseId, repo, options.readOnly === true);
  } catch (error) {
    await db.close();
    throw error;
  }
}

/**
 * The store on an open database (package-internal: the store set builds it on a view of its
 * pool): `createStore` on the driver, plus the members this store has always exposed.
 */
export async function postgresStoreOn(
  db: PostgresDatabase,
  databaseId: string,
  repo: string,
  readOnly: boolean,
  maxDocumentBytes: number = DEFAULT_POSTGRES_MAX_DOCUMENT_BYTES,
): Promise<PostgresStore & KitStore> {
  const driver = await driverOn(db, databaseId, repo, readOnly, true);
  const store = createStore(driver, { maxDocumentBytes });
  const { getMany: kitGetMany } = store;
  return Object.assign(store, {
    repo,
    schema: db.schema,
    label: labelOf(db),
    readOnly,
    // One round trip for the whole call, as before the kit (core's search asks 500 at a time;
    // the kit's own `getMany` reads 100 per driver call).
    getMany: async (paths: readonly string[]): Promise<(StoredDocument | undefined)[]> => {
      if (!Array.isArray(paths)) throw new RepomemError('INVALID_ARGUMENT', 'getMany() expects an array of paths');
      await kitGetMany?.([]); // STORE_CLOSED once closed
      const normalized = paths.map((path) => normalizeDocumentPath(path));
      const entries = await driver.read('documents', normalized);
      return normalized.map((path, index) => {
        const value = entries[index]?.value;
        const version = entries[index]?.version;
        return value === undefined || version === undefined
          ? undefined
          : { path, version, size: value.byteLength, content: new Uint8Array(value) };
      });
    },
    // The native tables on the same pool, not the kit's JSON documents under `.repomem/`.
    verifiedBackend: async () => postgresRecordBackendOn(db.view(), readOnly),
    taskRecordBackend: async () => postgresTaskRecordBackendOn(db.view(), readOnly),
  }) as PostgresStore & KitStore;
}
