// Why: public entry of @repomem/store-agentcore: the document store and its kit driver, the native
// record backends, the registry scheme, identifier mapping and extraction-job helpers.
export * from './chunks.js';
export * from './collection.js';
export * from './connection.js';
export * from './diagnose.js';
export * from './document-store.js';
export * from './driver.js';
export * from './errors.js';
export * from './event-log.js';
export * from './extraction.js';
export * from './fold.js';
export * from './identifiers.js';
export * from './model-patterns.js';
export * from './open-store.js';
export * from './records.js';
export * from './register.js';
export * from './scheme.js';
export * from './task-record-backend.js';
export * from './verified-backend.js';

/** Package name, for messages. */
export const PACKAGE_NAME = '@repomem/store-agentcore';
