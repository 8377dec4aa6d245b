// Why: the published test-helper entry point (@repomem/core/testing): the conformance suites every
// store runs, the memory corpus generator, and the multi-process worker runner.
export * from './conformance.js';
export { INVALID_DOCUMENT_PATHS } from './conformance-documents.js';
export { SEARCH_PARITY_DOCUMENTS, SEARCH_PARITY_QUERIES } from './conformance-search.js';
export { INVALID_STATE_KEYS } from './conformance-state.js';
export type { ConformanceHarness } from './conformance-support.js';
export * from './conformance-types.js';
export * from './corpus.js';
export * from './cross-process.js';
export { type DriverConformanceOptions, runDriverConformance } from './driver-conformance.js';
export * from './hardening.js';
export { FAKE_CREDENTIALS } from './hardening-secrets.js';
export { type NodeWorkerResult, type NodeWorkersOptions, runNodeWorkers } from './processes.js';
export * from './record-backend-conformance.js';
export * from './record-backend-conformance-fixtures.js';
export type { RecordBackendConformanceOptions, RecordBackendHarness } from './record-backend-conformance-types.js';
export * from './task-memory-scenarios.js';
export * from './task-record-conformance.js';
export * from './task-record-conformance-fixtures.js';
export type {
  TaskRecordBackendConformanceOptions,
  TaskRecordBackendHarness,
} from './task-record-conformance-types.js';
export * from './vector-conformance.js';
