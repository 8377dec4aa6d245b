// Why: one memory for a whole team. Documents are rows of `documents`, scoped by repository, so
// many machines read and write the same memory at once. Every write is one transaction that
// first locks (and bumps) the repository's row in `repos` — serialising that repository's
// writers like SQLite's write lock — then checks every expected version and applies the whole
// batch and its index entries: all or nothing, on every client, across crashes. State values
// have their own table (postgres-state.ts) and search candidates come from a tsvector index
// (postgres-candidates.ts). See docs/architecture.md ("PostgreSQL").
import {
  assertNoPathTwins,
  type DocumentEntry,
  expectationHolds,
  type KitDriver,
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
import type { PostgresDatabase, Transaction } from './database.js';
import { type IndexedText, indexedText } from './indexed-text.js';
import { openDatabase, type PostgresConnectionOptions } from './open-database.js';
import { PostgresCandidates } from './postgres-candidates.js';
import { createPostgresDriver, MAX_POSTGRES_DOCUMENT_BYTES } from './postgres-driver.js';
import { PostgresState } from './postgres-state.js';
import { RepositoryAccessCheck } from './repo-access.js';
import { likePrefix } from './sql-text.js';

/** Repository scope used when {@link PostgresStoreOptions.repo} is not given. */
export const DEFAULT_POSTGRES_REPO = 'default';
/** Default {@link PostgresStoreOptions.maxDocumentBytes}: 16 MiB, like core's reference stores. */
export const DEFAULT_POSTGRES_MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
/** Largest accepted {@link PostgresStoreOptions.maxDocumentBytes}: 256 MiB (a `bytea` holds up to 1 GB). */
export { MAX_POSTGRES_DOCUMENT_BYTES } from './postgres-driver.js';
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
  /** Every document under a prefix with its content, read in one snapshot (always present). */
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

const byPath = (a: { readonly path: string }, b: { readonly path: string }): number =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : 0;

/** Bytes as a plain Uint8Array the caller owns (the driver returns Buffers). */
function ownBytes(value: Uint8Array): Uint8Array {
  return new Uint8Array(value);
}

function asBuffer(content: Uint8Array): Buffer {
  return Buffer.from(content.buffer, content.byteOffset, content.byteLength);
}

/** A put or delete with its index entry computed before the transaction starts. */
type PlannedOperation = PreparedOperation & { readonly indexed?: IndexedText | undefined };

/** How many documents' contents one statement of `readAll` fetches. */
const READ_ALL_CHUNK = 200;

class PostgresStoreImpl implements PostgresStore {
  readonly specificationVersion = STORE_SPECIFICATION_VERSION;
  readonly name = 'postgres' as const;
  readonly capabilities: StoreCapabilities;
  readonly repo: string;
  readonly schema: string;
  readonly label: string;
  readonly readOnly: boolean;
  readonly state: StoreState;
  readonly #db: PostgresDatabase;
  readonly #databaseId: string;
  readonly #candidates: PostgresCandidates;
  #closed = false;

  constructor(db: PostgresDatabase, databaseId: string, repo: string, readOnly: boolean, maxDocumentBytes: number) {
    this.#db = db;
    this.#databaseId = databaseId;
    this.repo = repo;
    this.schema = db.schema;
    this.readOnly = readOnly;
    this.label = `postgres://${db.identity.user}@${db.identity.host}:${db.identity.port}/${db.identity.database}`;
    this.state = new PostgresState({
      db,
      repo,
      assertOpen: () => this.#assertOpen(),
      assertWritable: (action) => this.#assertWritable(action),
    });
    this.#candidates = new PostgresCandidates(db, repo);
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
    if (this.#closed) throw storeClosedError('postgres');
  }

  #assertWritable(action: string): void {
    if (this.readOnly) {
      throw new RepomemError('READ_ONLY', `the postgres store ${this.label} is open read-only; ${action} was refused`);
    }
  }

  async get(path: string): Promise<StoredDocument | undefined> {
    this.#assertOpen();
    const normalized = normalizeDocumentPath(path);
    const rows = await this.#db.readOnce<{ version: string; size: number; content: Uint8Array }>(
      `get(${normalized})`,
      `SELECT version, size, content FROM ${this.#db.table('documents')} WHERE repo = $1 AND path = $2`,
      [this.repo, normalized],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    return { path: normalized, version: row.version, size: Number(row.size), content: ownBytes(row.content) };
  }

  async getMany(paths: readonly string[]): Promise<(StoredDocument | undefined)[]> {
    this.#assertOpen();
    if (!Array.isArray(paths)) throw new RepomemError('INVALID_ARGUMENT', 'getMany() expects an array of paths');
    const normalized = paths.map((path) => normalizeDocumentPath(path));
    if (normalized.length === 0) return [];
    // One round trip for the whole batch (core reads search candidates this way).
    const rows = await this.#db.readOnce<{ path: string; version: string; size: number; content: Uint8Array }>(
      `getMany(${normalized.length} paths)`,
      `SELECT path, version, size, content FROM ${this.#db.table('documents')} WHERE repo = $1 AND path = ANY($2::text[])`,
      [this.repo, [...new Set(normalized)]],
    );
    const byPathFound = new Map(rows.map((row) => [row.path, row]));
    return normalized.map((path) => {
      const row = byPathFound.get(path);
      return row === undefined
        ? undefined
        : { path, version: row.version, size: Number(row.size), content: ownBytes(row.content) };
    });
  }

  #listQuery(prefix: string): { sql: string; values: unknown[] } {
    const values: unknown[] = [this.repo];
    let sql = `SELECT path, version, size FROM ${this.#db.table('documents')} WHERE repo = $1`;
    if (prefix !== '') {
      values.push(likePrefix(prefix));
      sql += ` AND path LIKE $2 ESCAPE '\\'`;
    }
    return { sql, values };
  }

  async list(prefix?: string): Promise<DocumentEntry[]> {
    this.#assertOpen();
    const { sql, values } = this.#listQuery(normalizePrefix(prefix));
    const rows = await this.#db.readOnce<{ path: string; version: string; size: number }>('list()', sql, values);
    return rows.map((row) => ({ path: row.path, version: row.version, size: Number(row.size) })).sort(byPath);
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredDocument[]> {
    this.#assertOpen();
    const { sql, values } = this.#listQuery(normalizePrefix(options.prefix));
    const accept = options.accept;
    return this.#db.read('readAll()', async (tx) => {
      // One snapshot: the listing and every content come from the same moment.
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const entries = (await tx.query<{ path: string; version: string; size: number }>(sql, values))
        .map((row) => ({ path: row.path, size: Number(row.size) }))
        .filter((row) => accept === undefined || accept(row.path, row.size))
        .sort(byPath);
      const documents: StoredDocument[] = [];
      for (let start = 0; start < entries.length; start += READ_ALL_CHUNK) {
        const chunk = entries.slice(start, start + READ_ALL_CHUNK);
        const rows = await tx.query<{ path: string; version: string; size: number; content: Uint8Array }>(
          `SELECT path, version, size, content FROM ${this.#db.table('documents')} WHERE repo = $1 AND path = ANY($2::text[])`,
          [this.repo, chunk.map((entry) => entry.path)],
        );
        rows.sort(byPath);
        for (const row of rows) {
          documents.push({
            path: row.path,
            version: row.version,
            size: Number(row.size),
            content: ownBytes(row.content),
          });
        }
      }
      return documents;
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
    return this.#db.transaction('write()', (tx) => this.#transact(tx, planned), {
      write: true,
      receiptRepo: this.repo,
    });
  }

  /** Lock the repository, check every expectation and apply the batch (inside one transaction). */
  async #transact(
    tx: Transaction,
    batch: readonly PlannedOperation[],
  ): Promise<{ commit: boolean; value: WriteResult }> {
    const documents = this.#db.table('documents');
    // Taking the row lock also bumps the revision; a conflict rolls the bump back.
    await tx.query(
      `INSERT INTO ${this.#db.table('repos')} (repo, revision) VALUES ($1, 1) ON CONFLICT (repo) DO UPDATE SET revision = repos.revision + 1`,
      [this.repo],
    );
    const paths = [...new Set(batch.map((operation) => operation.path))];
    const rows = await tx.query<{ path: string; version: string }>(
      `SELECT path, version FROM ${documents} WHERE repo = $1 AND path = ANY($2::text[])`,
      [this.repo, paths],
    );
    const current = new Map(rows.map((row) => [row.path, row.version]));
    const conflicts: WriteConflict[] = [];
    for (const operation of batch) {
      const actual = current.get(operation.path) ?? null;
      if (!expectationHolds(operation.expectedVersion, actual)) {
        conflicts.push({ path: operation.path, expected: operation.expectedVersion ?? null, actual });
      }
    }
    if (conflicts.length > 0) return { commit: false, value: { status: 'conflict', conflicts } };
    await this.#refusePathTwins(tx, batch, current);
    const versions: Record<string, string | null> = {};
    const deleted: string[] = [];
    for (const operation of batch) {
      if (operation.kind === 'delete') {
        versions[operation.path] = null;
        if (current.has(operation.path)) deleted.push(operation.path);
        continue;
      }
      versions[operation.path] = operation.version;
      if (current.get(operation.path) === operation.version) continue;
      const indexed = operation.indexed;
      await tx.query(
        `INSERT INTO ${documents} (repo, path, version, size, content, words, searchable_length, unindexed, updated_at)
         VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::text[] IS NULL THEN NULL ELSE array_to_tsvector($6::text[]) END, $7, $8, now())
         ON CONFLICT (repo, path) DO UPDATE SET version = excluded.version, size = excluded.size, content = excluded.content,
           words = excluded.words, searchable_length = excluded.searchable_length, unindexed = excluded.unindexed, updated_at = now()`,
        [
          this.repo,
          operation.path,
          operation.version,
          operation.content.byteLength,
          asBuffer(operation.content),
          indexed?.words === undefined ? null : indexed.words,
          indexed?.length ?? null,
          indexed !== undefined && indexed.words === undefined,
        ],
      );
    }
    if (deleted.length > 0) {
      await tx.query(`DELETE FROM ${documents} WHERE repo = $1 AND path = ANY($2::text[])`, [this.repo, deleted]);
    }
    return { commit: true, value: { status: 'committed', versions } };
  }

  /** Refuse a put creating a case or Unicode-normalisation twin of an existing path (core's rule). */
  async #refusePathTwins(
    tx: Transaction,
    batch: readonly PlannedOperation[],
    current: ReadonlyMap<string, string>,
  ): Promise<void> {
    const created = batch.filter((operation) => operation.kind === 'put' && !current.has(operation.path));
    if (created.length === 0) return;
    const rows = await tx.query<{ path: string }>(`SELECT path FROM ${this.#db.table('documents')} WHERE repo = $1`, [
      this.repo,
    ]);
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
    const rows = await this.#db.readOnce<{ revision: string }>(
      'revision()',
      `SELECT revision FROM ${this.#db.table('repos')} WHERE repo = $1`,
      [this.repo],
    );
    return `${this.#databaseId}.${rows[0]?.revision ?? '0'}`;
  }

  async searchCandidates(query: SearchCandidateQuery): Promise<SearchCandidates> {
    this.#assertOpen();
    return this.#candidates.answer(query);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#db.close();
  }
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
 * The store on an open database (package-internal: the store set builds it on a view of its
 * pool). Checks that the role may see `repo` first: a hidden repository would read as empty.
 */
export async function postgresStoreOn(
  db: PostgresDatabase,
  databaseId: string,
  repo: string,
  readOnly: boolean,
  maxDocumentBytes: number = DEFAULT_POSTGRES_MAX_DOCUMENT_BYTES,
): Promise<PostgresStore> {
  await new RepositoryAccessCheck(db).assert(repo);
  return new PostgresStoreImpl(db, databaseId, repo, readOnly, maxDocumentBytes);
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
    await new RepositoryAccessCheck(db).assert(repo);
    return createPostgresDriver({ db, databaseId, repo, readOnly: options.readOnly === true, label: labelOf(db) });
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** The server as `postgres://user@host:port/database` (never the password). */
export function labelOf(db: PostgresDatabase): string {
  return `postgres://${db.identity.user}@${db.identity.host}:${db.identity.port}/${db.identity.database}`;
}
