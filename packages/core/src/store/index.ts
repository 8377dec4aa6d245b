// Why: barrel of the store module (public API re-exports).
export * from './content-version.js';
export * from './contract.js';
export * from './directory-store.js';
export * from './memory-store.js';
export * from './paths.js';
