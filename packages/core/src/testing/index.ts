// Why: the published conformance suite entry point (@repomem/core/testing).
export * from './conformance.js';
export { INVALID_DOCUMENT_PATHS } from './conformance-documents.js';
export type { ConformanceHarness } from './conformance-support.js';
export * from './conformance-types.js';
export * from './corpus.js';
export * from './record-backend-conformance.js';
export * from './record-backend-conformance-fixtures.js';
export type { RecordBackendConformanceOptions, RecordBackendHarness } from './record-backend-conformance-types.js';
