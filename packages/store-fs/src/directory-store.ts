// Why: the Sepo memory layout on disk (MEMORY.md, PROJECT.md, daily/, github/...) as a store, so
// repomem works on an existing tree and can share it with Sepo's own CLIs and with people editing
// files by hand. A write touches only the files of its batch; the whole-tree revision is computed
// only when asked.
import { createHash } from 'node:crypto';
import { rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  acquireKeyedMutex,
  contentVersion,
  DEFAULT_MAX_DOCUMENT_BYTES,
  type DocumentEntry,
  expectationHolds,
  type MemoryStore,
  normalizeDocumentPath,
  normalizePrefix,
  type PreparedOperation,
  prepareWriteBatch,
  type ReadAllOptions,
  RepomemError,
  STORE_SPECIFICATION_VERSION,
  type StoreCapabilities,
  type StoredDocument,
  type StoreState,
  storeClosedError,
  type WriteConflict,
  type WriteOperation,
  type WriteResult,
} from '@repomem/core';
import { stageFile, syncDirectory } from './atomic-file.js';
import { ensureParents, errnoCode, inspectParents, readFileNoFollow, yieldToEventLoop } from './directory-files.js';
import { DirectoryListing } from './directory-listing.js';
import { assertNotReservedPath } from './directory-names.js';
import { createDirectoryState } from './directory-state.js';
import { refuseDirectoryTwins } from './directory-twins.js';
import { acquireFileLock, DEFAULT_FILE_LOCK_OPTIONS, type FileLockOptions } from './file-lock.js';
import { resolveMemoryRoot, resolveStateDirectory } from './store-location.js';
import { sweepTempFiles } from './temp-sweep.js';

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

/** A {@link MemoryStore} over a directory on disk; see {@link openDirectoryStore}. */
export interface DirectoryStore extends MemoryStore {
  /** Always `directory`. */
  readonly name: 'directory';
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

/** One batch operation resolved to its place on disk. */
interface Target {
  readonly operation: PreparedOperation;
  readonly absolutePath: string;
  /** False for a delete whose parent directory does not exist (nothing to lock or remove). */
  readonly present: boolean;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RepomemError('INVALID_ARGUMENT', `${name} must be a positive integer, got ${value}`);
  }
  return value;
}

function acceptAll(): boolean {
  return true;
}

class DirectoryStoreImpl implements DirectoryStore {
  readonly specificationVersion = STORE_SPECIFICATION_VERSION;
  readonly name = 'directory' as const;
  readonly capabilities: StoreCapabilities;
  readonly root: string;
  readonly stateDir: string;
  readonly state: StoreState;
  readonly #listing: DirectoryListing;
  readonly #lock: FileLockOptions;
  #closed = false;

  constructor(root: string, stateDir: string, maxDocumentBytes: number, lock: FileLockOptions) {
    this.root = root;
    this.stateDir = stateDir;
    this.#lock = lock;
    this.#listing = new DirectoryListing(root);
    this.state = createDirectoryState({ directory: stateDir, lock, assertOpen: () => this.#assertOpen() });
    this.capabilities = Object.freeze({
      binarySafe: true,
      atomicDocument: true,
      atomicBatch: false,
      readYourWrites: true,
      compareAndSwap: 'native',
      maxDocumentBytes,
    });
  }

  async get(path: string): Promise<StoredDocument | undefined> {
    this.#assertOpen();
    const normalized = normalizeDocumentPath(path);
    assertNotReservedPath(normalized);
    await yieldToEventLoop();
    if ((await inspectParents(this.root, normalized)).kind !== 'ok') return undefined;
    const file = await readFileNoFollow(join(this.root, normalized), normalized, this.capabilities.maxDocumentBytes);
    if (file === undefined || 'kind' in file) return undefined;
    return {
      path: normalized,
      version: contentVersion(file.content),
      size: file.content.byteLength,
      content: file.content,
    };
  }

  async list(prefix?: string): Promise<DocumentEntry[]> {
    this.#assertOpen();
    const normalized = normalizePrefix(prefix);
    await yieldToEventLoop();
    return this.#listing.list(normalized);
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredDocument[]> {
    this.#assertOpen();
    const prefix = normalizePrefix(options.prefix);
    await yieldToEventLoop();
    const accept = options.accept ?? acceptAll;
    if (options.each !== undefined) {
      this.#listing.stream(prefix, accept, this.capabilities.maxDocumentBytes, options.each, options.known);
      return [];
    }
    return this.#listing.read(prefix, accept, this.capabilities.maxDocumentBytes);
  }

  async revision(): Promise<string> {
    this.#assertOpen();
    await yieldToEventLoop();
    const hash = createHash('sha256');
    for (const entry of this.#listing.list('')) hash.update(`${entry.path}\0${entry.version}\n`);
    return hash.digest('hex');
  }

  async write(operations: readonly WriteOperation[]): Promise<WriteResult> {
    this.#assertOpen();
    const batch = prepareWriteBatch(operations, this.capabilities.maxDocumentBytes);
    await refuseDirectoryTwins(this.root, batch);
    for (const operation of batch) assertNotReservedPath(operation.path);
    const ordered = [...batch].sort((a, b) => (a.path < b.path ? -1 : 1));
    const releases: Array<() => Promise<void> | void> = [];
    const changedDirectories = new Set<string>();
    try {
      // 1. Lock every document in path order (in-process queue, then the cross-process lock file).
      const targets: Target[] = [];
      for (const operation of ordered) {
        const absolutePath = join(this.root, operation.path);
        if (operation.kind === 'delete') {
          const parents = await inspectParents(this.root, operation.path);
          if (parents.kind === 'blocked') {
            throw new RepomemError('INVALID_PATH', `cannot delete ${operation.path}: it ${parents.reason}`, {
              details: { path: operation.path },
            });
          }
          if (parents.kind === 'missing') {
            targets.push({ operation, absolutePath, present: false });
            continue;
          }
        } else {
          await ensureParents(this.root, operation.path);
        }
        releases.push(await acquireKeyedMutex(absolutePath));
        releases.push(await acquireFileLock(absolutePath, this.#lock));
        await sweepTempFiles(absolutePath);
        targets.push({ operation, absolutePath, present: true });
      }

      // 2. Check every precondition against the bytes on disk, re-read and hashed under the locks.
      const conflicts: WriteConflict[] = [];
      const modes = new Map<string, number>();
      for (const target of targets) {
        const { operation } = target;
        let actual: string | null = null;
        if (target.present) {
          const file = await readFileNoFollow(target.absolutePath, operation.path);
          if (file !== undefined && 'kind' in file) {
            throw new RepomemError('INVALID_PATH', `cannot ${operation.kind} ${operation.path}: it ${file.reason}`, {
              details: { path: operation.path },
            });
          }
          if (file !== undefined) {
            actual = contentVersion(file.content);
            modes.set(operation.path, file.mode);
          }
        }
        if (!expectationHolds(operation.expectedVersion, actual)) {
          conflicts.push({ path: operation.path, expected: operation.expectedVersion ?? null, actual });
        }
      }
      if (conflicts.length > 0) {
        const order = new Map(batch.map((operation, index) => [operation.path, index]));
        conflicts.sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0));
        return { status: 'conflict', conflicts };
      }

      // 3. Stage every new file (written and fsynced) before replacing anything.
      const staged: Array<{ temp: string; target: string }> = [];
      try {
        for (const { operation, absolutePath } of targets) {
          if (operation.kind !== 'put') continue;
          const temp = await stageFile(absolutePath, operation.content, modes.get(operation.path));
          staged.push({ temp, target: absolutePath });
        }
      } catch (error) {
        await Promise.all(staged.map(({ temp }) => unlink(temp).catch(() => {})));
        throw error;
      }

      // 4. Commit: atomic renames and unlinks.
      try {
        for (const { operation, absolutePath, present } of targets) {
          if (operation.kind === 'delete') {
            if (!present) continue;
            try {
              await unlink(absolutePath);
              changedDirectories.add(dirname(absolutePath));
            } catch (error) {
              if (errnoCode(error) !== 'ENOENT') throw error;
            }
          } else {
            const entry = staged.find((item) => item.target === absolutePath);
            if (entry === undefined) continue;
            await rename(entry.temp, absolutePath);
            entry.temp = '';
            changedDirectories.add(dirname(absolutePath));
          }
        }
      } catch (error) {
        await Promise.all(staged.filter(({ temp }) => temp !== '').map(({ temp }) => unlink(temp).catch(() => {})));
        throw error;
      }
      await Promise.all([...changedDirectories].map(syncDirectory));
    } finally {
      for (const release of releases.reverse()) await release();
    }

    const versions: Record<string, string | null> = {};
    for (const operation of batch) versions[operation.path] = operation.kind === 'put' ? operation.version : null;
    return { status: 'committed', versions };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listing.clear();
  }

  #assertOpen(): void {
    if (this.#closed) throw storeClosedError('directory');
  }
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
  return new DirectoryStoreImpl(root, stateDir, maxDocumentBytes, lock);
}
