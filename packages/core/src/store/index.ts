// Why: barrel of the store module (public API re-exports).
export * from './contract.js';
export * from './paths.js';
