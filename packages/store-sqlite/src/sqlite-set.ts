// Why: the store and the verified-memory tables live in one file, and each used to open its own
// handle (two connections, two schema checks, per `repomem context`). The set opens the file
// once and builds both facets on that handle (task records are documents in the store): a
// facet's close() ends only that facet, the set's close() closes the handle once, so closing the
// store early never breaks the backend still in use.
import { type StoreSchemeSet, schemeSetOn } from '@repomem/core';
import { openConnection } from './connection.js';
import { checkConnectionOptions, type SqliteRecordBackend, sqliteRecordBackendOn } from './sqlite-record-backend.js';
import { type SqliteStore, type SqliteStoreOptions, sqliteStoreOn } from './sqlite-store.js';

/** A SQLite store and its verified-memory backend on one database handle ({@link openSqliteStoreSet}). */
export interface SqliteStoreSet extends StoreSchemeSet {
  readonly store: SqliteStore;
  readonly verifiedBackend: SqliteRecordBackend;
}

/**
 * Open the store and the verified-memory backend of one SQLite file on ONE handle (the schema
 * checked or migrated once; `:memory:` then shares one private database). Task records are kept
 * as documents in the store. Close the set: it closes both facets, then the handle; closing one
 * facet leaves the other working. Same options and errors as {@link openSqliteStore}.
 *
 * @example
 * ```ts
 * const set = await openSqliteStoreSet({ path: '.repomem/repomem.db', repo: 'acme/app' });
 * try {
 *   await set.verifiedBackend.recent({ repo: 'acme/app' });
 * } finally {
 *   await set.close();
 * }
 * ```
 */
export async function openSqliteStoreSet(options: SqliteStoreOptions): Promise<SqliteStoreSet> {
  const connection = openConnection(checkConnectionOptions(options, 'openSqliteStoreSet'));
  let store: SqliteStore;
  let verifiedBackend: SqliteRecordBackend;
  try {
    store = sqliteStoreOn(options, connection);
    verifiedBackend = sqliteRecordBackendOn(connection);
  } catch (error) {
    connection.db.close();
    throw error;
  }
  return schemeSetOn({ store, verifiedBackend }, () => connection.db.close());
}
