// Why: barrel of the citation module (public API re-exports).
export * from './reader.js';
export * from './verification-types.js';
