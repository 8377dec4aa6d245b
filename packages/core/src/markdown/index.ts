// Why: barrel of the markdown module (public API re-exports): pure bullet operations on text.
export * from './arguments.js';
export * from './bullet.js';
export { MAX_BULLET_BYTES } from './bullet-text-rules.js';
export { codeLineMask } from './code-blocks.js';
export * from './document.js';
export * from './operations.js';
