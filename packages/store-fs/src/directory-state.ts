// Why: sync cursors and thread state of a directory store must not live in the memory tree (a
// Sepo workflow commits whatever appears there) yet need the same no-lost-update guarantee as
// documents across processes. Each key is one JSON file in a separate state directory, replaced
// with the same temp file + fsync + rename, under the same `<file>.lock` every writer takes.
import { type Dirent, readdirSync } from 'node:fs';
import { mkdir, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  acquireKeyedMutex,
  contentVersion,
  type ExpectedVersion,
  expectationHolds,
  isRepomemError,
  type JsonValue,
  normalizeStateKey,
  normalizeStatePrefix,
  parseStateValue,
  RepomemError,
  type StateEntry,
  type StateListOptions,
  type StateWriteResult,
  type StoreState,
  serializeStateValue,
} from '@repomem/core';
import { stageFile, syncDirectory } from './atomic-file.js';
import { ensureParents, errnoCode, inspectParents, readFileNoFollow, yieldToEventLoop } from './directory-files.js';
import { acquireFileLock, type FileLockOptions } from './file-lock.js';
import { stateFilePath, stateKeyOf } from './state-files.js';

/** Largest state file read (far above any value the store writes; a bigger file is foreign). */
const MAX_STATE_FILE_BYTES = 1024 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Options of {@link createDirectoryState}. */
export interface DirectoryStateOptions {
  /** Absolute state directory (created on the first write). */
  readonly directory: string;
  /** Timing of the `<file>.lock` locks. */
  readonly lock: FileLockOptions;
  /** Throws `STORE_CLOSED` once the store is closed. */
  readonly assertOpen: () => void;
}

/** A state file's bytes as found on disk. */
interface StateFile {
  readonly content: Uint8Array;
  readonly mode: number;
  readonly version: string;
}

function unreadable(key: string, problem: string, cause?: unknown): RepomemError {
  return new RepomemError('INVALID_DOCUMENT', `state value of ${key} cannot be read: ${problem}`, {
    details: { key },
    ...(cause === undefined ? {} : { cause }),
  });
}

function collectStateFiles(root: string, relativeDir: string, out: string[]): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(relativeDir === '' ? root : join(root, relativeDir), { withFileTypes: true });
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return;
    throw error;
  }
  for (const entry of entries) {
    const relative = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
    if (entry.isDirectory()) collectStateFiles(root, relative, out);
    else if (entry.isFile()) out.push(relative);
  }
}

/**
 * The state API of a directory store: key `sync/acme/app` is the file
 * `<directory>/sync/acme/app.json` holding the serialised value. A value's version is the
 * SHA-256 of the file's bytes (what `stateValueVersion` gives for the text the store writes).
 * A file that is not valid UTF-8 JSON, not a regular file, or over 1 MiB reads as
 * `INVALID_DOCUMENT`; a blind `put` or `delete` replaces or removes it.
 */
export function createDirectoryState(options: DirectoryStateOptions): StoreState {
  const { directory, lock, assertOpen } = options;

  async function readStateFile(key: string, relative: string): Promise<StateFile | undefined> {
    const parents = await inspectParents(directory, relative);
    if (parents.kind === 'missing') return undefined;
    if (parents.kind === 'blocked') throw unreadable(key, `its file ${parents.reason}`);
    let file: Awaited<ReturnType<typeof readFileNoFollow>>;
    try {
      file = await readFileNoFollow(join(directory, relative), relative, MAX_STATE_FILE_BYTES);
    } catch (error) {
      if (isRepomemError(error, 'FILE_TOO_LARGE')) {
        throw unreadable(key, `its file is larger than ${MAX_STATE_FILE_BYTES} bytes`, error);
      }
      throw error;
    }
    if (file === undefined) return undefined;
    if ('kind' in file) throw unreadable(key, `its file ${file.reason}`);
    return { content: file.content, mode: file.mode, version: contentVersion(file.content) };
  }

  function entryOf(key: string, file: StateFile): StateEntry {
    let text: string;
    try {
      text = decoder.decode(file.content);
    } catch (error) {
      throw unreadable(key, 'its file is not UTF-8 text', error);
    }
    return { key, value: parseStateValue(key, text), version: file.version };
  }

  /** Run `work` holding the in-process queue and the `<file>.lock` of `absolute` (its directory exists). */
  async function locked<T>(absolute: string, work: () => Promise<T>): Promise<T> {
    const releaseMutex = await acquireKeyedMutex(absolute);
    try {
      const releaseLock = await acquireFileLock(absolute, lock);
      try {
        return await work();
      } finally {
        await releaseLock();
      }
    } finally {
      releaseMutex();
    }
  }

  const conflict = (expected: ExpectedVersion, actual: string | null): StateWriteResult => ({
    status: 'conflict',
    expected: expected ?? null,
    actual,
  });

  return {
    async get(key: string): Promise<StateEntry | undefined> {
      assertOpen();
      const normalized = normalizeStateKey(key);
      await yieldToEventLoop();
      const file = await readStateFile(normalized, stateFilePath(normalized));
      return file === undefined ? undefined : entryOf(normalized, file);
    },

    async put(key: string, value: JsonValue, expectedVersion?: ExpectedVersion): Promise<StateWriteResult> {
      assertOpen();
      const normalized = normalizeStateKey(key);
      const content = encoder.encode(serializeStateValue(normalized, value));
      const relative = stateFilePath(normalized);
      const absolute = join(directory, relative);
      await mkdir(directory, { recursive: true });
      await ensureParents(directory, relative);
      return locked(absolute, async () => {
        const current = await readStateFile(normalized, relative);
        const actual = current?.version ?? null;
        if (!expectationHolds(expectedVersion, actual)) return conflict(expectedVersion, actual);
        const temp = await stageFile(absolute, content, current?.mode);
        try {
          await rename(temp, absolute);
        } catch (error) {
          await unlink(temp).catch(() => {});
          throw error;
        }
        await syncDirectory(dirname(absolute));
        return { status: 'committed', version: contentVersion(content) };
      });
    },

    async delete(key: string, expectedVersion?: ExpectedVersion): Promise<StateWriteResult> {
      assertOpen();
      const normalized = normalizeStateKey(key);
      const relative = stateFilePath(normalized);
      const absolute = join(directory, relative);
      if ((await readStateFile(normalized, relative)) === undefined) {
        // Nothing there (possibly not even its directory): nothing to lock or remove.
        return expectationHolds(expectedVersion, null)
          ? { status: 'committed', version: null }
          : conflict(expectedVersion, null);
      }
      return locked(absolute, async () => {
        const actual = (await readStateFile(normalized, relative))?.version ?? null;
        if (!expectationHolds(expectedVersion, actual)) return conflict(expectedVersion, actual);
        if (actual !== null) {
          try {
            await unlink(absolute);
          } catch (error) {
            if (errnoCode(error) !== 'ENOENT') throw error;
          }
          await syncDirectory(dirname(absolute));
        }
        return { status: 'committed', version: null };
      });
    },

    async list(options: StateListOptions = {}): Promise<StateEntry[]> {
      assertOpen();
      const prefix = normalizeStatePrefix(options.prefix);
      await yieldToEventLoop();
      const files: string[] = [];
      collectStateFiles(directory, '', files);
      const keyed: Array<{ key: string; relative: string }> = [];
      for (const relative of files) {
        const key = stateKeyOf(relative);
        if (key?.startsWith(prefix)) keyed.push({ key, relative });
      }
      keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      const entries: StateEntry[] = [];
      for (const { key, relative } of keyed) {
        const file = await readStateFile(key, relative);
        if (file !== undefined) entries.push(entryOf(key, file));
      }
      return entries;
    },
  };
}
