// Why: commands open the memory facade over whichever store was chosen and need to name files
// in messages; this module does both, keeping Sepo's `<dir>/<file>` messages for directories and
// naming documents by their path inside the store otherwise.
import { join } from 'node:path';
import { type Memory, type MemoryMode, openMemory } from '@repomem/core';
import { openChosenStore } from './open-chosen-store.js';
import type { ChosenStore } from './store-selection.js';

/** The facade over a chosen store, with how messages name its documents. */
export interface OpenedMemory {
  readonly memory: Memory;
  readonly chosen: ChosenStore;
  /**
   * How messages name a document: `<dir as given>/<path>` for directories (Sepo), the
   * document path for every other store.
   */
  displayPath(documentPath: string): string;
}

/**
 * Open the memory facade over `chosen`. `create` lets a directory be created (init); a SQLite
 * database is created by any open that is not read-only; `repo` scopes a store holding many
 * repositories.
 */
export async function openChosenMemory(
  chosen: ChosenStore,
  options: { readonly mode: MemoryMode; readonly create?: boolean; readonly repo: string },
): Promise<OpenedMemory> {
  const store = await openChosenStore(chosen, {
    repo: options.repo,
    readOnly: options.mode === 'read-only',
    ...(options.create === undefined ? {} : { create: options.create }),
  });
  try {
    const memory = openMemory({ store, mode: options.mode });
    const displayPath =
      chosen.kind === 'dir'
        ? (path: string) => join(chosen.directory.display, ...path.split('/'))
        : (path: string) => path;
    return { memory, chosen, displayPath };
  } catch (error) {
    await store.close();
    throw error;
  }
}
