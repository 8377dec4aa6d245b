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
export * from './postgres-store.js';
export * from './record-backend.js';
export { POSTGRES_SCHEMA_VERSION } from './schema.js';
export * from './task-record-backend.js';
