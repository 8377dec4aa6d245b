// Why: barrel of the store module (public API re-exports).
export * from './content-version.js';
export * from './contract.js';
export * from './directory-store.js';
export * from './keyed-mutex.js';
export * from './memory-store.js';
export * from './paths.js';
// For store authors: the one batch validator every store uses, so a malformed batch is refused
// with the same codes everywhere before anything is written.
export * from './write-batch.js';
