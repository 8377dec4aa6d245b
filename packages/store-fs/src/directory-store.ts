// Why: the Sepo memory layout on disk (MEMORY.md, PROJECT.md, daily/, github/...) as a store, so
// repomem works on an existing tree and can share it with Sepo's own CLIs and with people editing
// files by hand. The store is core's `createStore` over the directory driver; this module decides
// where the files live and checks the options.
import {
  createStore,
  DEFAULT_MAX_DOCUMENT_BYTES,
  type KitStore,
  type ReadAllOptions,
  RepomemError,
  type StoredDocument,
} from '@repomem/core';
import { type DirectoryDriver, directoryDriverAt } from './directory-driver.js';
import { DEFAULT_FILE_LOCK_OPTIONS, type FileLockOptions } from './file-lock.js';
import { resolveMemoryRoot, resolveStateDirectory } from './store-location.js';

/** Options of {@link openDirectoryStore}. */
export interface DirectoryStoreOptions {
  /** The memory directory (relative paths resolve against the working directory). */
  readonly root: string;
  /** Create `root` (and its parents) when it does not exist. Default `false`: `NOT_FOUND`. */
  readonly create?: boolean;
  /**
   * Directory of the state values (`store.state`), created on the first state write. Default:
   * `<parent of root>/.repomem-state/<name of root>`, outside the memory tree so a workflow that
   * commits the memory directory never commits state. Must not overlap the memory directory;
   * required when `root` is the filesystem root.
   */
  readonly stateDir?: string;
  /** Largest document written or read, in bytes (default 16 MiB). */
  readonly maxDocumentBytes?: number;
  /** How long a write waits for a `<file>.lock` held by another writer (default 5000 ms, like Sepo). */
  readonly lockTimeoutMs?: number;
  /** Age after which a lock file is considered abandoned and broken (default 30000 ms, like Sepo). */
  readonly lockStaleMs?: number;
  /** Base polling interval while waiting for a lock (default 25 ms, jittered). */
  readonly lockRetryMs?: number;
}

/** A store over a directory on disk (core's `createStore` on the directory driver); see {@link openDirectoryStore}. */
export interface DirectoryStore extends KitStore {
  /** Always `directory`. */
  readonly name: 'directory';
  /** The directory driver underneath. */
  readonly driver: DirectoryDriver;
  /** Absolute real path of the memory directory. */
  readonly root: string;
  /** Absolute path of the directory holding the state values (it may not exist yet). */
  readonly stateDir: string;
  /**
   * Always present: each file is read once for both its bytes and its version; with `each`,
   * files are streamed one at a time (versions hashed only when read).
   */
  readAll(options?: ReadAllOptions): Promise<StoredDocument[]>;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RepomemError('INVALID_ARGUMENT', `${name} must be a positive integer, got ${value}`);
  }
  return value;
}

/**
 * The directory driver of {@link openDirectoryStore}, for a caller building its own store on it
 * (`createStore(await createDirectoryDriver({ root }))`). Same options, same checks and errors.
 */
export async function createDirectoryDriver(options: DirectoryStoreOptions): Promise<DirectoryDriver> {
  if (options === null || typeof options !== 'object') {
    throw new RepomemError('INVALID_ARGUMENT', 'openDirectoryStore expects an options object with a root');
  }
  const maxDocumentBytes = positiveInteger('maxDocumentBytes', options.maxDocumentBytes, DEFAULT_MAX_DOCUMENT_BYTES);
  const lock: FileLockOptions = {
    timeoutMs: positiveInteger('lockTimeoutMs', options.lockTimeoutMs, DEFAULT_FILE_LOCK_OPTIONS.timeoutMs),
    staleMs: positiveInteger('lockStaleMs', options.lockStaleMs, DEFAULT_FILE_LOCK_OPTIONS.staleMs),
    retryMs: positiveInteger('lockRetryMs', options.lockRetryMs, DEFAULT_FILE_LOCK_OPTIONS.retryMs),
  };
  if (options.stateDir !== undefined && (typeof options.stateDir !== 'string' || options.stateDir === '')) {
    throw new RepomemError('INVALID_ARGUMENT', 'openDirectoryStore: stateDir must be a non-empty path');
  }
  const root = await resolveMemoryRoot(options.root, options.create === true);
  const stateDir = await resolveStateDirectory(root, options.stateDir);
  return directoryDriverAt({ root, stateDir, maxDocumentBytes, lock });
}

/**
 * Open a memory directory (the Sepo layout) as a store.
 *
 * - `root` must exist and be a directory (`NOT_FOUND` / `NOT_A_DIRECTORY`, naming the path),
 *   unless `create: true`, which creates it like `mkdir -p`.
 * - A document is a regular file; its `version` is the SHA-256 (hex) of its bytes, so
 *   compare-and-swap is exact. `list()` caches hashes under a stat stamp (device, inode, size,
 *   mtime and ctime in ns) and re-hashes only changed files; files modified within the last
 *   2 seconds are always re-hashed (timestamps are coarse). `write()` never trusts that cache:
 *   it re-reads and hashes every file of the batch under its lock before checking expectations.
 * - `readAll()` reads each listed file once for both its bytes and its version (a cold search
 *   reads the tree once instead of hashing it in `list()` and reading it again in `get()`);
 *   with `each` it streams one file at a time and hashes a version only when it is read.
 * - `revision()` is the SHA-256 of the sorted `(path, version)` list, so it changes whenever any
 *   document changes, including edits made by other processes or by hand. It is computed only
 *   when called (it lists the tree, re-hashing changed files); `write()` never computes it and
 *   touches only the files of its batch, so a write costs the same in a tree of 10 or 20,000 files.
 * - Listing skips `.git`, `.hg`, `.svn`, `node_modules`, symbolic links (files and directories),
 *   special files, the store's temp files (`*.repomem-tmp`) and lock files (`*.lock`). No access
 *   ever follows a symbolic link: `get()` of a path that is or passes through one returns
 *   `undefined`, and writing or deleting through one throws `INVALID_PATH`.
 * - `write()` takes a `<file>.lock` per document (O_EXCL, like Sepo's `update.js`: 5 s timeout
 *   then `LOCK_TIMEOUT`, a lock older than 30 s, or owned by a dead process on this host, is
 *   broken) in path order, checks every expected version, stages each new file as a temp file in
 *   the same directory (fsynced), then renames them into place and fsyncs the directories. A
 *   crash leaves each file old or new, never torn (`atomicDocument: true`). Batches are atomic
 *   against concurrent writers (in this or other processes: `compareAndSwap: 'native'`) but not
 *   across a crash between two renames, hence `atomicBatch: false`. Write metadata is ignored
 *   (no history).
 * - `state` keeps JSON values as files `<stateDir>/<key>.json` (a directory segment ending in
 *   `.json` gets a `~`), outside the memory tree: by default
 *   `<parent of root>/.repomem-state/<name of root>/`. They are written like documents (temp
 *   file, fsync, rename, under a `<file>.lock`), so compare-and-swap holds across processes, and
 *   they never appear in `list()`, `readAll()` or search. A `stateDir` that overlaps the memory
 *   directory is refused with `INVALID_ARGUMENT`.
 * - Documents above `maxDocumentBytes` (16 MiB by default) are refused with `FILE_TOO_LARGE`
 *   before anything is written; `get()` of a larger file on disk throws `FILE_TOO_LARGE`.
 * - Parent directories are created as needed; directories are never removed.
 */
export async function openDirectoryStore(options: DirectoryStoreOptions): Promise<DirectoryStore> {
  const driver = await createDirectoryDriver(options);
  // No content cache: the driver's readAll reads files itself, and a get always reads the file.
  const store = createStore(driver, { maxDocumentBytes: driver.maxValueBytes, cacheBytes: 0 });
  return Object.assign(store, { root: driver.root, stateDir: driver.stateDir }) as DirectoryStore;
}
