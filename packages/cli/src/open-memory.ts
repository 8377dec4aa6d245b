// Why: commands open the memory facade over whichever store was chosen and need to name files
// in messages; this module does both, keeping Sepo's `<dir>/<file>` messages for directories and
// naming documents by their path inside the store otherwise.
import { join } from 'node:path';
import { type Memory, type MemoryMode, type MemoryStore, openMemory } from '@repomem/core';
import { CliDataError } from './errors.js';
import { openMemoryAt } from './memory-dir.js';
import { openStoreFromSpec } from './open-store.js';
import type { ChosenStore } from './store-selection.js';

/** The facade over a chosen store, with how messages name its documents. */
export interface OpenedMemory {
  readonly memory: Memory;
  readonly chosen: ChosenStore;
  /**
   * How messages name a document: `<dir as given>/<path>` for directories (Sepo), the
   * document path for SQLite and git stores.
   */
  displayPath(documentPath: string): string;
}

function repomemErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && error.name === 'RepomemError' && typeof code === 'string' ? code : undefined;
}

/**
 * Open the SQLite or git store of `chosen`. A missing database (read-only open) or repository
 * becomes a {@link CliDataError} (exit 2) naming the store.
 */
export async function openChosenStore(
  chosen: Extract<ChosenStore, { kind: 'sqlite' | 'git' }>,
  options: { readonly repo: string; readonly readOnly: boolean },
): Promise<MemoryStore> {
  try {
    return await openStoreFromSpec(chosen.spec, { repo: options.repo, readOnly: options.readOnly });
  } catch (error) {
    const code = repomemErrorCode(error);
    if (code === 'NOT_FOUND' || code === 'NOT_A_DIRECTORY') {
      const hint = chosen.kind === 'sqlite' ? ' (the first write creates it: repomem init, or repomem update)' : '';
      throw new CliDataError(code, `store not found: ${chosen.label}${hint}\n${(error as Error).message}`);
    }
    throw error;
  }
}

/**
 * Open the memory facade over `chosen`. `create` lets a directory be created (init); a SQLite
 * database is created by any non-read-only open; `repo` scopes the SQLite document store.
 */
export async function openChosenMemory(
  chosen: ChosenStore,
  options: { readonly mode: MemoryMode; readonly create?: boolean; readonly repo: string },
): Promise<OpenedMemory> {
  if (chosen.kind === 'dir') {
    const memory = await openMemoryAt(chosen.directory, {
      mode: options.mode,
      ...(options.create === undefined ? {} : { create: options.create }),
    });
    return {
      memory,
      chosen,
      displayPath: (path) => join(chosen.directory.display, ...path.split('/')),
    };
  }
  const store = await openChosenStore(chosen, { repo: options.repo, readOnly: options.mode === 'read-only' });
  try {
    return { memory: openMemory({ store, mode: options.mode }), chosen, displayPath: (path) => path };
  } catch (error) {
    await store.close();
    throw error;
  }
}
