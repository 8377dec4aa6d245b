// Why: commands that only read or write documents (search, the verified-memory backends, the git
// branch commands) open the chosen store itself, without the memory facade and its Markdown and
// envelope code, which keeps a cold `repomem search` small. Missing stores become exit-code-2
// errors that name the store the way the user gave it.
import type { MemoryStore } from '@repomem/core';
import { CliDataError } from './errors.js';
import { openDirectoryAt } from './memory-dir.js';
import { openStoreFromSpec } from './open-store.js';
import type { ChosenStore } from './store-selection.js';

function repomemErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && error.name === 'RepomemError' && typeof code === 'string' ? code : undefined;
}

/** Options of {@link openChosenStore}. */
export interface OpenChosenStoreOptions {
  /** Repository slug the SQLite document store is scoped to. */
  readonly repo: string;
  /** Open SQLite read-only (never created); directory and git stores are unaffected. */
  readonly readOnly: boolean;
  /** Directories only: create a missing directory (init). Default `false`. */
  readonly create?: boolean;
}

/**
 * Open the store of `chosen`. A missing directory, database (read-only open) or repository
 * becomes a {@link CliDataError} (exit 2) naming the store: Sepo's `memory directory does not
 * exist: <dir>` for directories, `store not found: <spec>` otherwise.
 */
export async function openChosenStore(chosen: ChosenStore, options: OpenChosenStoreOptions): Promise<MemoryStore> {
  if (chosen.kind === 'dir') return openDirectoryAt(chosen.directory, { create: options.create ?? false });
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
