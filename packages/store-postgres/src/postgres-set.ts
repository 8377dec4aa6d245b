// Why: a command that touches the store, verified memories and task records used to open three
// pools (three server connections for one `repomem context`). The set opens one pool, checks
// the schema once, and builds the three facets on views of it: a facet's close() ends only that
// facet, the set's close() ends the pool once, so closing the store early never breaks a backend
// still in use.
import { type StoreSchemeSet, schemeSetOn } from '@repomem/core';
import { openDatabase } from './open-database.js';
import {
  checkMaxBytes,
  checkPostgresRepo,
  type PostgresStore,
  type PostgresStoreOptions,
  postgresStoreOn,
} from './postgres-store.js';
import { type PostgresRecordBackend, postgresRecordBackendOn } from './record-backend.js';
import { type PostgresTaskRecordBackend, postgresTaskRecordBackendOn } from './task-record-backend.js';

/** The store and both record backends of one PostgreSQL pool ({@link openPostgresStoreSet}). */
export interface PostgresStoreSet extends StoreSchemeSet {
  readonly store: PostgresStore;
  readonly verifiedBackend: PostgresRecordBackend;
  readonly taskRecordBackend: PostgresTaskRecordBackend;
}

/**
 * Open the store, the verified-memory backend and the task-record backend on ONE pool (the
 * schema checked or migrated once). A command run sequentially uses one server connection; the
 * pool grows to `maxConnections` only under concurrent work. Close the set: it closes each facet
 * and then ends the pool (an injected `pool` or `client` is left open); closing one facet leaves
 * the others working. Same errors as {@link openPostgresStore}.
 *
 * @example
 * ```ts
 * const set = await openPostgresStoreSet({ connectionString: process.env.DATABASE_URL, repo: 'acme/app' });
 * try {
 *   await set.taskRecordBackend.list({ repo: 'acme/app', kind: 'episode' });
 * } finally {
 *   await set.close();
 * }
 * ```
 */
export async function openPostgresStoreSet(options: PostgresStoreOptions): Promise<PostgresStoreSet> {
  const repo = checkPostgresRepo(options?.repo, 'openPostgresStoreSet');
  const maxDocumentBytes = checkMaxBytes(options?.maxDocumentBytes);
  const { db, databaseId } = await openDatabase(options, 'openPostgresStoreSet');
  const readOnly = options.readOnly === true;
  let store: PostgresStore;
  try {
    store = await postgresStoreOn(db.view(), databaseId, repo, readOnly, maxDocumentBytes);
  } catch (error) {
    await db.close();
    throw error;
  }
  const verifiedBackend = postgresRecordBackendOn(db.view(), readOnly);
  const taskRecordBackend = postgresTaskRecordBackendOn(db.view(), readOnly);
  return schemeSetOn({ store, verifiedBackend, taskRecordBackend }, () => db.close());
}
