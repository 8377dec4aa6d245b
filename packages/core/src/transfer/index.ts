// Why: barrel of the transfer module (copying memory between stores: `repomem export` / `import`).

export type { HistoryOutcome } from './copy-history.js';
export { type CopyEndpoint, type CopyMemoryOptions, copyMemory } from './copy-memory.js';
export type { CopyConflict, CopyCounts, CopyOutcome, CopyProgress, CopyReport } from './types.js';
