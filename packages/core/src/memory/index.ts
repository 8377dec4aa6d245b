// Why: barrel of the memory facade module (public API re-exports).
export * from './outcomes.js';
export * from './types.js';
