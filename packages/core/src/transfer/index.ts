// Why: barrel of the transfer module (copying memory between stores: `repomem export` / `import`).
export { type CopyEndpoint, type CopyMemoryOptions, copyMemory } from './copy-memory.js';
export type { CopyConflict, CopyCounts, CopyOutcome, CopyProgress, CopyReport } from './types.js';
