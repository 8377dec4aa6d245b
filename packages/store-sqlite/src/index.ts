// Why: the public entry point of @repomem/store-sqlite; everything exported here is documented API.

export { MEMORY_FTS_WEIGHTS } from './record-reads.js';
export { SQLITE_APPLICATION_ID, SQLITE_SCHEMA_VERSION } from './schema.js';
export * from './sqlite-record-backend.js';
export * from './sqlite-scheme.js';
export * from './sqlite-store.js';
