// Why: a memory directory is named the same way by every command (`--dir`, then `$MEMORY_DIR`;
// store-selection.ts decides when a directory is the store at all), and messages name it as the
// user gave it, so "does not exist" and "is a file" read the same everywhere.
import { isAbsolute, resolve } from 'node:path';
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
