// Why: barrel of the memory facade module (public API re-exports).
export { type EditDocumentOptions, editDocument } from './edit-document.js';
export { commitMessage, DEFAULT_MAX_CONFLICT_RETRIES, openMemory } from './facade.js';
export * from './outcomes.js';
export { MEMORY_README } from './readme-template.js';
export { MEMORY_TREE_SEEDS, seedMemoryTree } from './seed-tree.js';
export { decodeMemoryText, encodeMemoryText } from './text-codec.js';
export * from './types.js';
