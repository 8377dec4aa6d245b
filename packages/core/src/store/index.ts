// Why: barrel of the store module (public API re-exports).
export * from './content-version.js';
export * from './contract.js';
export * from './history-contract.js';
export * from './keyed-mutex.js';
export * from './memory-state.js';
export * from './memory-store.js';
export * from './path-length.js';
export * from './path-twins.js';
export * from './paths.js';
export * from './search-contract.js';
export * from './secret-rules.js';
export * from './secret-scan.js';
export * from './state-contract.js';
export * from './state-values.js';
export { DEFAULT_MAX_DOCUMENT_BYTES, storeClosedError } from './store-closed.js';
// For store authors: the one batch validator every store uses, so a malformed batch is refused
// with the same codes everywhere before anything is written.
export * from './write-batch.js';
