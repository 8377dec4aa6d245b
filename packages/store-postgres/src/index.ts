// Why: the public entry point of @repomem/store-postgres; everything exported here is documented API.

export * from './connection-options.js';
export type {
  PostgresClientLike,
  PostgresPooledClient,
  PostgresPoolLike,
  RetryPolicy,
} from './database.js';
export { DEFAULT_RETRY_POLICY } from './database.js';
export * from './diagnose.js';
export { REPO_SCOPED_TABLES, REPOMEM_TABLES } from './migrations.js';
export type { PostgresConnectionOptions } from './open-database.js';
export * from './policies.js';
export * from './postgres-scheme.js';
export * from './postgres-set.js';
export {
  checkPostgresRepo,
  DEFAULT_POSTGRES_MAX_DOCUMENT_BYTES,
  DEFAULT_POSTGRES_REPO,
  MAX_POSTGRES_DOCUMENT_BYTES,
  MAX_POSTGRES_REPO_LENGTH,
  openPostgresDriver,
  openPostgresStore,
  type PostgresStore,
  type PostgresStoreOptions,
} from './postgres-store.js';
export {
  MEMORY_RANK_WEIGHTS,
  openPostgresRecordBackend,
  type PostgresRecordBackend,
  type PostgresRecordBackendOptions,
} from './record-backend.js';
export { POSTGRES_SCHEMA_VERSION } from './schema.js';
export {
  openPostgresTaskRecordBackend,
  type PostgresTaskRecordBackend,
  type PostgresTaskRecordBackendOptions,
} from './task-record-backend.js';
