// Why: the directory store must never follow a symbolic link (a link inside the memory tree could
// otherwise expose or overwrite files outside it). Every file access goes through these helpers,
// which walk the path one component at a time with lstat and open the final file with O_NOFOLLOW.
// Reads use synchronous calls on purpose: each is a few microseconds on a local filesystem, while
// the promise API pays a thread-pool round trip per call (measured: a cold `repomem search` spent
// 100-200 µs per file in async lstat/open/stat/read/close against ~15 µs synchronously).
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync } from 'node:fs';
import { lstat, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { RepomemError } from '@repomem/core';

/** Errno code of a Node.js system error, if any. */
export function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

/**
 * Let the event loop run once. Reads are synchronous inside, so a call that did no other await
 * would settle in microtasks only, and a caller looping on it (polling a document while another
 * task writes it) would starve every pending I/O callback. Each public read yields here first.
 */
export function yieldToEventLoop(): Promise<void> {
  return nextTurn();
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Where the parent directories of a document stand: `ok` (all real directories), `missing`
 * (some component does not exist), or `blocked` (a component is a symlink or not a directory).
 */
export type ParentState =
  | { readonly kind: 'ok' }
  | { readonly kind: 'missing' }
  | { readonly kind: 'blocked'; readonly reason: string };

/** Check the directories leading to `path` (relative, normalised) under `root` without following links. */
export async function inspectParents(root: string, path: string): Promise<ParentState> {
  const segments = path.split('/');
  let current = root;
  for (const segment of segments.slice(0, -1)) {
    current = join(current, segment);
    try {
      const stats = lstatSync(current);
      if (stats.isSymbolicLink()) return { kind: 'blocked', reason: `passes through a symbolic link (${current})` };
      if (!stats.isDirectory()) return { kind: 'blocked', reason: `has a parent that is not a directory (${current})` };
    } catch (error) {
      // A name too long for the file system cannot exist here (core refuses writing one).
      if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENAMETOOLONG') return { kind: 'missing' };
      throw error;
    }
  }
  return { kind: 'ok' };
}

/**
 * Create the missing parent directories of `path` one level at a time, refusing (INVALID_PATH)
 * when a component is a symlink or a file. Returns the absolute directory that holds the document.
 */
export async function ensureParents(root: string, path: string): Promise<string> {
  const segments = path.split('/');
  let current = root;
  for (const segment of segments.slice(0, -1)) {
    current = join(current, segment);
    for (let attempt = 0; ; attempt += 1) {
      try {
        const stats = await lstat(current);
        if (stats.isSymbolicLink() || !stats.isDirectory()) {
          const what = stats.isSymbolicLink() ? 'a symbolic link' : 'not a directory';
          throw new RepomemError('INVALID_PATH', `cannot write ${path}: ${current} is ${what}`, { details: { path } });
        }
        break;
      } catch (error) {
        if (errnoCode(error) !== 'ENOENT' || attempt > 0) throw error;
      }
      try {
        await mkdir(current);
      } catch (error) {
        if (errnoCode(error) !== 'EEXIST') throw error;
      }
    }
  }
  return current;
}

/** The `FILE_TOO_LARGE` error of a document on disk larger than the store reads. */
export function fileTooLargeError(documentPath: string, size: number, maxBytes: number): RepomemError {
  return new RepomemError(
    'FILE_TOO_LARGE',
    `document too large: ${documentPath} is ${size} bytes, the store reads at most ${maxBytes}`,
    { details: { path: documentPath, size, maxDocumentBytes: maxBytes } },
  );
}

/** A regular file read fresh from disk. */
export interface FreshFile {
  readonly content: Uint8Array;
  /** Permission bits, so a rewrite can keep them. */
  readonly mode: number;
}

/**
 * Read the file at `absolutePath` without following a final symlink. Resolves `undefined` when it
 * does not exist; `{ kind: 'not-a-file' }` for a symlink, directory or special file; rejects with
 * `FILE_TOO_LARGE` when it is larger than `maxBytes` (unless `maxBytes` is omitted). The parents
 * must have been checked with {@link inspectParents} or {@link ensureParents}.
 */
export async function readFileNoFollow(
  absolutePath: string,
  documentPath: string,
  maxBytes?: number,
): Promise<FreshFile | { readonly kind: 'not-a-file'; readonly reason: string } | undefined> {
  let fd: number;
  try {
    fd = openSync(absolutePath, READ_FLAGS);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG') return undefined;
    if (code === 'ELOOP') return { kind: 'not-a-file', reason: 'is a symbolic link' };
    if (code === 'EISDIR') return { kind: 'not-a-file', reason: 'is a directory' };
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      return { kind: 'not-a-file', reason: stats.isDirectory() ? 'is a directory' : 'is not a regular file' };
    }
    if (maxBytes !== undefined && stats.size > maxBytes) throw fileTooLargeError(documentPath, stats.size, maxBytes);
    const content = readFileSync(fd);
    return {
      content: new Uint8Array(content.buffer, content.byteOffset, content.byteLength),
      mode: stats.mode & 0o7777,
    };
  } finally {
    closeSync(fd);
  }
}
