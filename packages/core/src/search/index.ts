// Why: barrel of the search module (public API re-exports).
export * from './types.js';
