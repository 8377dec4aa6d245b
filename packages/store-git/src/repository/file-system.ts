// Why: the store reads and writes git's files through one injected file system (Node's `fs` by
// default, an in-memory fs in tests or browsers), the same object isomorphic-git is given. This
// module names the subset repomem itself relies on, so a custom fs knows what it must provide.
import * as nodeFs from 'node:fs';

/** A stat result, as far as the store looks at it. */
export interface GitFileStats {
  /** True for a directory. */
  isDirectory(): boolean;
  /** True for a regular file. */
  isFile(): boolean;
  /** Modification time in milliseconds. */
  readonly mtimeMs: number;
  /** Inode number (0 when the fs has none). */
  readonly ino: number | bigint;
}

/** An open file, used to fsync objects and lock files before they are renamed into place. */
export interface GitFileHandle {
  /** Write all of `data`. */
  writeFile(data: Uint8Array | string): Promise<void>;
  /** Flush the file to stable storage. */
  sync(): Promise<void>;
  /** Close the handle. */
  close(): Promise<void>;
}

/**
 * The promise-based file system API the git store uses: a subset of `node:fs/promises` (and a
 * superset of isomorphic-git's `PromiseFsClient`). `open` is optional; without it files are
 * written with `writeFile` and not fsynced.
 */
export interface GitFileSystemPromises {
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array | string, options?: { flag?: string; mode?: number }): Promise<void>;
  appendFile?(path: string, data: Uint8Array | string): Promise<void>;
  unlink(path: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<unknown>;
  rmdir(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  stat(path: string): Promise<GitFileStats>;
  lstat(path: string): Promise<GitFileStats>;
  readlink?(path: string): Promise<unknown>;
  symlink?(target: string, path: string): Promise<void>;
  chmod?(path: string, mode: number): Promise<void>;
  open?(path: string, flags: string, mode?: number): Promise<GitFileHandle>;
}

/** A file system object shaped like `node:fs` (only its `promises` member is used). */
export interface GitFileSystem {
  /** Promise-based API. */
  readonly promises: GitFileSystemPromises;
}

/** Node's own file system, the default. */
export const nodeFileSystem: GitFileSystem = nodeFs as unknown as GitFileSystem;

/** The `code` of a Node-style file system error (`ENOENT`...), or undefined. */
export function errnoCode(error: unknown): string | undefined {
  if (error !== null && typeof error === 'object' && 'code' in error) {
    const { code } = error as { code: unknown };
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/** How often a directory may vanish under a `mkdir -p` before the error is passed on. */
const MAX_PRUNED_DIRECTORY_RETRIES = 8;

/**
 * `mkdir -p` that survives `git gc`, `git pack-refs` and `git prune` removing emptied directories
 * while it runs: Node's recursive mkdir fails with ENOENT when a directory it found (or just made)
 * is removed before its next step. Retried a bounded number of times.
 */
export async function makeDirectoryWhilePruned(fs: GitFileSystem, directory: string): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await fs.promises.mkdir(directory, { recursive: true });
      return;
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT' || attempt >= MAX_PRUNED_DIRECTORY_RETRIES) throw error;
    }
  }
}

/** Read a file, or `undefined` when it (or a parent) does not exist or is a directory. */
export async function readFileIfExists(fs: GitFileSystem, path: string): Promise<Uint8Array | undefined> {
  try {
    return await fs.promises.readFile(path);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw error;
  }
}

/** Stat a path, or `undefined` when it does not exist. */
export async function statIfExists(fs: GitFileSystem, path: string): Promise<GitFileStats | undefined> {
  try {
    return await fs.promises.stat(path);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * Create `path` exclusively (fails with `EEXIST` when it exists) holding `data`, fsynced when the
 * fs can open files and `durable` is set.
 */
export async function writeExclusive(
  fs: GitFileSystem,
  path: string,
  data: Uint8Array | string,
  options: { mode?: number; durable: boolean },
): Promise<void> {
  const mode = options.mode ?? 0o666;
  try {
    await createAndWrite(fs, path, data, mode, options.durable);
  } catch (error) {
    // POSIX lets the creating call write a file it creates read-only (git's 0444 objects); some
    // in-memory file systems (memfs) refuse with EACCES and leave an empty file. Retry writable,
    // then apply the mode.
    const chmod = fs.promises.chmod;
    if ((error as { code?: unknown }).code !== 'EACCES' || (mode & 0o200) !== 0 || chmod === undefined) throw error;
    await fs.promises.unlink(path).catch(() => undefined);
    await createAndWrite(fs, path, data, mode | 0o200, options.durable);
    await chmod.call(fs.promises, path, mode);
  }
}

async function createAndWrite(
  fs: GitFileSystem,
  path: string,
  data: Uint8Array | string,
  mode: number,
  durable: boolean,
): Promise<void> {
  const { open } = fs.promises;
  if (durable && open !== undefined) {
    const handle = await open.call(fs.promises, path, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return;
  }
  await fs.promises.writeFile(path, data, { flag: 'wx', mode });
}
