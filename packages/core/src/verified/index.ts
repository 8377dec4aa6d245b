// Why: barrel of the verified-memory module (public API re-exports).
export * from './backend.js';
export * from './document-backend.js';
export * from './impact.js';
export * from './learned-on.js';
export * from './record.js';
// Shared by native record backends (SQLite, PostgreSQL, AgentCore): one validation, one wording.
export * from './record-checks.js';
// Shared by record backends that filter and search in memory (document-backed, AgentCore).
export * from './record-query.js';
export * from './record-text-match.js';
export * from './service.js';
export * from './service-types.js';
