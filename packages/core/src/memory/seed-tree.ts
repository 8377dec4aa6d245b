// Why: `init` must be safe to run on any existing tree: it creates only the files that are
// missing, each written with "must not exist" as its expected version, so an existing file (or one
// created concurrently) is never modified.
import { RepomemError } from '../errors.js';
import type { MemoryStore, WriteMetadata } from '../store/contract.js';
import { MEMORY_README } from './readme-template.js';
import { encodeMemoryText } from './text-codec.js';
import type { InitResult } from './types.js';

/** The files `init` seeds, in order, with their initial content. */
export const MEMORY_TREE_SEEDS: readonly { readonly path: string; readonly content: string }[] = [
  { path: 'daily/.gitkeep', content: '' },
  { path: 'github/.gitkeep', content: '' },
  { path: 'PROJECT.md', content: '' },
  { path: 'MEMORY.md', content: '' },
  { path: 'README.md', content: MEMORY_README },
];

/**
 * Create the missing seed files of the memory layout in one batch; existing files are left
 * untouched. Re-checks and retries when another writer creates a seed file at the same time.
 */
export async function seedMemoryTree(
  store: MemoryStore,
  metadata: WriteMetadata,
  maxConflictRetries: number,
): Promise<InitResult> {
  for (let attempt = 0; ; attempt += 1) {
    const present = await Promise.all(
      MEMORY_TREE_SEEDS.map(async (seed) => (await store.get(seed.path)) !== undefined),
    );
    const existing = MEMORY_TREE_SEEDS.filter((_, index) => present[index]).map((seed) => seed.path);
    const missing = MEMORY_TREE_SEEDS.filter((_, index) => !present[index]);
    if (missing.length === 0) return { created: [], existing };
    const result = await store.write(
      missing.map((seed) => ({
        kind: 'put' as const,
        path: seed.path,
        content: encodeMemoryText(seed.content),
        expectedVersion: null,
      })),
      metadata,
    );
    if (result.status === 'committed') return { created: missing.map((seed) => seed.path), existing };
    if (attempt >= maxConflictRetries) {
      throw new RepomemError(
        'CONFLICT',
        `memory tree kept changing while seeding it; gave up after ${attempt + 1} attempts`,
        {
          details: { conflicts: result.conflicts },
        },
      );
    }
  }
}
