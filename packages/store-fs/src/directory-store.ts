// Why: the Sepo memory layout on disk (MEMORY.md, PROJECT.md, daily/, github/...) as a store, so
// repomem works on an existing tree and can share it with Sepo's own CLIs and with people editing
// files by hand. It is the embedded default of the CLI and the demo.
import { createHash } from 'node:crypto';
import { mkdir, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { RepomemError } from '../errors.js';
import { contentVersion } from './content-version.js';
import {
  type DocumentEntry,
  type MemoryStore,
  type ReadAllOptions,
  STORE_SPECIFICATION_VERSION,
  type StoreCapabilities,
  type StoredDocument,
  type WriteConflict,
  type WriteOperation,
  type WriteResult,
} from './contract.js';
import { ensureParents, errnoCode, inspectParents, readFileNoFollow } from './directory-files.js';
import { DirectoryListing } from './directory-listing.js';
import { assertNotReservedPath, tempFileName } from './directory-names.js';
import { acquireFileLock, DEFAULT_FILE_LOCK_OPTIONS, type FileLockOptions } from './file-lock.js';
import { acquireKeyedMutex } from './keyed-mutex.js';
import { normalizeDocumentPath, normalizePrefix } from './paths.js';
import { DEFAULT_MAX_DOCUMENT_BYTES, storeClosedError } from './store-closed.js';
import { expectationHolds, type PreparedOperation, prepareWriteBatch } from './write-batch.js';

/** Options of {@link openDirectoryStore}. */
export interface DirectoryStoreOptions {
  /** The memory directory (relative paths resolve against the working directory). */
  readonly root: string;
  /** Create `root` (and its parents) when it does not exist. Default `false`: `NOT_FOUND`. */
  readonly create?: boolean;
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
  /** Always present: each file is read once for both its bytes and its version. */
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

async function resolveRoot(root: string, create: boolean): Promise<string> {
  if (typeof root !== 'string' || root.length === 0) {
    throw new RepomemError('INVALID_ARGUMENT', 'openDirectoryStore: root must be a non-empty path');
  }
  const absolute = resolve(root);
  try {
    const stats = await stat(absolute);
    if (!stats.isDirectory()) {
      throw new RepomemError('NOT_A_DIRECTORY', `memory directory is not a directory: ${absolute}`, {
        details: { path: absolute },
      });
    }
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOTDIR') {
      throw new RepomemError('NOT_A_DIRECTORY', `memory directory is not a directory: ${absolute}`, {
        details: { path: absolute },
        cause: error,
      });
    }
    if (code !== 'ENOENT') throw error;
    if (!create) {
      throw new RepomemError('NOT_FOUND', `memory directory does not exist: ${absolute}`, {
        details: { path: absolute },
        cause: error,
      });
    }
    try {
      await mkdir(absolute, { recursive: true });
    } catch (mkdirError) {
      const mkdirCode = errnoCode(mkdirError);
      if (mkdirCode === 'ENOTDIR' || mkdirCode === 'EEXIST') {
        throw new RepomemError('NOT_A_DIRECTORY', `cannot create memory directory ${absolute}: a parent is a file`, {
          details: { path: absolute },
          cause: mkdirError,
        });
      }
      throw mkdirError;
    }
  }
  return realpath(absolute);
}

/** Write `content` to a new temp file next to `absolutePath`, fsync it, and return the temp path. */
async function stageFile(absolutePath: string, content: Uint8Array, mode: number | undefined): Promise<string> {
  const temp = join(dirname(absolutePath), tempFileName(basename(absolutePath)));
  const handle = await open(temp, 'wx', 0o666);
  try {
    await handle.writeFile(content);
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw error;
  }
  await handle.close();
  return temp;
}

/** Make renames and unlinks in `directory` durable (best effort: not every platform allows it). */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Directory fsync is unsupported on some platforms; the rename itself is still atomic.
  }
}

function acceptAll(): boolean {
  return true;
}

class DirectoryStoreImpl implements DirectoryStore {
  readonly specificationVersion = STORE_SPECIFICATION_VERSION;
  readonly name = 'directory' as const;
  readonly capabilities: StoreCapabilities;
  readonly root: string;
  readonly #listing: DirectoryListing;
  readonly #lock: FileLockOptions;
  #closed = false;

  constructor(root: string, maxDocumentBytes: number, lock: FileLockOptions) {
    this.root = root;
    this.#lock = lock;
    this.#listing = new DirectoryListing(root);
    this.capabilities = Object.freeze({
      binarySafe: true,
      atomicMultiDocument: false,
      history: false,
      nativeSearch: false,
      multiProcess: true,
      maxDocumentBytes,
    });
  }

  async get(path: string): Promise<StoredDocument | undefined> {
    this.#assertOpen();
    const normalized = normalizeDocumentPath(path);
    assertNotReservedPath(normalized);
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
    return this.#listing.list(normalizePrefix(prefix));
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredDocument[]> {
    this.#assertOpen();
    return this.#listing.read(
      normalizePrefix(options.prefix),
      options.accept ?? acceptAll,
      this.capabilities.maxDocumentBytes,
    );
  }

  async revision(): Promise<string> {
    this.#assertOpen();
    const hash = createHash('sha256');
    for (const entry of this.#listing.list('')) hash.update(`${entry.path}\0${entry.version}\n`);
    return hash.digest('hex');
  }

  async write(operations: readonly WriteOperation[]): Promise<WriteResult> {
    this.#assertOpen();
    const batch = prepareWriteBatch(operations, this.capabilities.maxDocumentBytes);
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
    return { status: 'committed', versions, revision: await this.revision() };
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
 *   reads the tree once instead of hashing it in `list()` and reading it again in `get()`).
 * - `revision()` is the SHA-256 of the sorted `(path, version)` list, so it changes whenever any
 *   document changes, including edits made by other processes or by hand.
 * - Listing skips `.git`, `.hg`, `.svn`, `node_modules`, symbolic links (files and directories),
 *   special files, the store's temp files (`*.repomem-tmp`) and lock files (`*.lock`). No access
 *   ever follows a symbolic link: `get()` of a path that is or passes through one returns
 *   `undefined`, and writing or deleting through one throws `INVALID_PATH`.
 * - `write()` takes a `<file>.lock` per document (O_EXCL, like Sepo's `update.js`: 5 s timeout
 *   then `LOCK_TIMEOUT`, a lock older than 30 s, or owned by a dead process on this host, is
 *   broken) in path order, checks every expected version, stages each new file as a temp file in
 *   the same directory (fsynced), then renames them into place and fsyncs the directories. A
 *   crash leaves each file old or new, never torn. Batches are atomic against concurrent writers
 *   (in this or other processes) but not across a crash between two renames, hence
 *   `atomicMultiDocument: false`; `multiProcess: true`. Write metadata is ignored (no history).
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
  const root = await resolveRoot(options.root, options.create === true);
  return new DirectoryStoreImpl(root, maxDocumentBytes, lock);
}
