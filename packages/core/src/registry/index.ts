// Why: barrel of the store registry (public API re-exports).
export { configuredEmbedderSpec, EMBEDDER_ENV_VARIABLE } from './embedder-config.js';
export * from './registry.js';
export * from './scheme.js';
export { redactSpec } from './spec-text.js';
