// Why: the published conformance suite entry point (@repomem/core/testing).
export * from './conformance.js';
export { INVALID_DOCUMENT_PATHS } from './conformance-documents.js';
export type { ConformanceHarness } from './conformance-support.js';
export * from './conformance-types.js';
export * from './corpus.js';
