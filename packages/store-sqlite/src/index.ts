// Why: the public entry point of @repomem/store-sqlite; everything exported here is documented API.

export { MEMORY_FTS_WEIGHTS } from './record-reads.js';
export { SQLITE_APPLICATION_ID, SQLITE_SCHEMA_VERSION } from './schema.js';
export type { SqliteDriver } from './sqlite-driver.js';
export {
  openSqliteRecordBackend,
  type SqliteRecordBackend,
  type SqliteRecordBackendOptions,
} from './sqlite-record-backend.js';
export * from './sqlite-scheme.js';
export * from './sqlite-set.js';
export {
  createSqliteDriver,
  DEFAULT_SQLITE_BUSY_TIMEOUT_MS,
  DEFAULT_SQLITE_MAX_DOCUMENT_BYTES,
  DEFAULT_SQLITE_REPO,
  MAX_SQLITE_DOCUMENT_BYTES,
  MAX_SQLITE_REPO_LENGTH,
  openSqliteStore,
  type SqliteStore,
  type SqliteStoreOptions,
} from './sqlite-store.js';
