// Why: barrel of the prompt module (public API re-exports).
export * from './placeholders.js';
export * from './prompt-version.js';
export * from './render-prompt.js';
