// Why: the directory store shares the tree with people, Sepo's CLIs and its own in-flight files.
// One place decides which names are the store's own (temp files, `<file>.lock` locks) or VCS /
// dependency directories, so listing skips exactly those and writes never target them.
import { randomBytes } from 'node:crypto';
import { RepomemError } from '@repomem/core';

/** Directories never walked (same set Sepo's search skips). */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['.git', '.hg', '.svn', 'node_modules']);

/** Suffix of every temp file the directory store creates (staged writes, broken stale locks). */
export const TEMP_FILE_SUFFIX = '.repomem-tmp';

/** Suffix of lock files (`MEMORY.md.lock`), the convention of Sepo's `update.js`. */
export const LOCK_FILE_SUFFIX = '.lock';

/** True for names the store owns or that must never be a document: temp files and lock files. */
export function isReservedFileName(name: string): boolean {
  return name.endsWith(TEMP_FILE_SUFFIX) || name.endsWith(LOCK_FILE_SUFFIX);
}

/** Throw `INVALID_PATH` when a normalised document path names a reserved file. */
export function assertNotReservedPath(path: string): void {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (isReservedFileName(base)) {
    throw new RepomemError(
      'INVALID_PATH',
      `path names a lock or temp file reserved by the directory store (*${LOCK_FILE_SUFFIX}, *${TEMP_FILE_SUFFIX}): ${path}`,
      { details: { path } },
    );
  }
}

/** A unique temp file name next to `baseName`, hidden and ending in {@link TEMP_FILE_SUFFIX}. */
export function tempFileName(baseName: string): string {
  return `.${baseName}.${process.pid}.${randomBytes(6).toString('hex')}${TEMP_FILE_SUFFIX}`;
}
