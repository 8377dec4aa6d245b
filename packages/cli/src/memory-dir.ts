// Why: a memory directory is named the same way by every command (`--dir`, then `$MEMORY_DIR`;
// store-selection.ts decides when a directory is the store at all) and opened with errors that
// name the directory, so "does not exist" and "is a file" read the same everywhere. It opens the
// store only (the memory facade is open-memory.ts's job), so `repomem search` never loads the
// facade.
import { isAbsolute, resolve } from 'node:path';
import { type DirectoryStore, openDirectoryStore } from '@repomem/core';
import { CliDataError } from './errors.js';
import type { CliIo } from './io.js';

/** The memory directory as the user named it and as an absolute path. */
export interface MemoryDirectory {
  /** As given (`--dir`, `$MEMORY_DIR`) or the working directory; used in messages. */
  readonly display: string;
  /** Absolute path (relative values are resolved against `io.cwd`). */
  readonly absolute: string;
}

/** Pick the memory directory: `--dir` value, then `$MEMORY_DIR`, then `io.cwd`. Empty values are ignored. */
export function chooseMemoryDirectory(dirOption: string | undefined, io: Pick<CliIo, 'env' | 'cwd'>): MemoryDirectory {
  const fromEnv = io.env.MEMORY_DIR;
  const display = dirOption ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : io.cwd);
  return { display, absolute: isAbsolute(display) ? resolve(display) : resolve(io.cwd, display) };
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && error.name === 'RepomemError' && typeof code === 'string' ? code : undefined;
}

/**
 * Open the directory store at `directory`. With `create`, a missing directory is created (init);
 * otherwise a missing directory or a file fails with a {@link CliDataError} (exit code 2) naming
 * the directory as the user gave it.
 */
export async function openDirectoryAt(
  directory: MemoryDirectory,
  options: { readonly create?: boolean } = {},
): Promise<DirectoryStore> {
  try {
    return await openDirectoryStore({ root: directory.absolute, create: options.create ?? false });
  } catch (error) {
    const code = errorCode(error);
    if (code === 'NOT_FOUND') {
      throw new CliDataError(code, `memory directory does not exist: ${directory.display}`);
    }
    if (code === 'NOT_A_DIRECTORY') {
      throw new CliDataError(code, `memory directory is not a directory: ${directory.display}`);
    }
    throw error;
  }
}
