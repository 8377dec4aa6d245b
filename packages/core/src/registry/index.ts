// Why: barrel of the store registry (public API re-exports).
export * from './registry.js';
export * from './scheme.js';
export { redactSpec } from './spec-text.js';
