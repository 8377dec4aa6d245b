// Why: barrel of the task-memory module (public API re-exports).
export * from './document-backend.js';
export * from './memory/index.js';
export * from './record-backend.js';
export { escapeRecordSegment } from './record-paths.js';
export * from './record-rules.js';
export * from './rules/index.js';
