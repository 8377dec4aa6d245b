// Why: barrel of the citation module (public API re-exports).
export * from './binary-content.js';
export * from './line-diff.js';
export * from './reader.js';
export * from './snippet-hash.js';
export * from './verification-types.js';
export * from './verify.js';
