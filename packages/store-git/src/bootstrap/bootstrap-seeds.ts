// Why: a new memory branch starts with the same seeded tree `openMemory(...).init()` creates in
// any store (core's MEMORY_TREE_SEEDS), plus the auto-maintained `.gitignore` checkout mode keeps,
// so a freshly mounted branch has nothing to commit.
import { MEMORY_TREE_SEEDS, normalizeDocumentPath, RepomemError } from '@repomem/core';
import { DEFAULT_IGNORE_LINES } from '../checkout/gates.js';

/** One file of a seeded tree. */
export interface SeedFile {
  /** Document path (relative, `/`-separated). */
  readonly path: string;
  /** Initial content (text is written as UTF-8). */
  readonly content: string | Uint8Array;
}

/** The files a bootstrapped memory branch holds: core's seeds, then `.gitignore`. */
export const MEMORY_BRANCH_SEEDS: readonly SeedFile[] = Object.freeze([
  ...MEMORY_TREE_SEEDS,
  { path: '.gitignore', content: `${DEFAULT_IGNORE_LINES.join('\n')}\n` },
]);

/** A validated seed: normalised path and bytes. */
export interface PreparedSeed {
  readonly path: string;
  readonly content: Uint8Array;
}

/** Validate seeds (paths, content type, no duplicates). Throws `INVALID_ARGUMENT` or `INVALID_PATH`. */
export function prepareSeeds(seeds: readonly SeedFile[]): PreparedSeed[] {
  if (!Array.isArray(seeds)) throw new RepomemError('INVALID_ARGUMENT', 'seed must be an array of { path, content }');
  const seen = new Set<string>();
  return seeds.map((seed, index) => {
    if (seed === null || typeof seed !== 'object') {
      throw new RepomemError('INVALID_ARGUMENT', `seed ${index} must be an object { path, content }`);
    }
    const path = normalizeDocumentPath(seed.path);
    if (seen.has(path)) throw new RepomemError('INVALID_ARGUMENT', `seed path appears twice: ${path}`);
    seen.add(path);
    const { content } = seed;
    if (typeof content === 'string') return { path, content: new TextEncoder().encode(content) };
    if (content instanceof Uint8Array) return { path, content: new Uint8Array(content) };
    throw new RepomemError('INVALID_ARGUMENT', `seed ${path}: content must be a string or a Uint8Array`);
  });
}
