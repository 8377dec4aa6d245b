// Why: isomorphic-git has no compare-and-swap ref update, and the store's atomicity rests on one.
// This follows the git CLI's own protocol so repomem and concurrent `git` commands exclude each
// other: create `<ref>.lock` with O_EXCL, re-read the ref (loose, then packed-refs) under the
// lock, compare with the expected old id, write the new id into the lock file, append the reflog,
// and rename the lock over the ref. A crash before the rename leaves the ref as it was.
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { RepomemError } from '@repomem/core';
import {
  errnoCode,
  type GitFileHandle,
  type GitFileSystem,
  makeDirectoryWhilePruned,
  readFileIfExists,
  statIfExists,
} from '../repository/file-system.js';
import { readPackedRefs, readRef } from './ref-store.js';

/** How long to wait for a ref lock and when to consider one abandoned. */
export interface RefLockTiming {
  /** Give up waiting for `<ref>.lock` after this many ms (`LOCK_TIMEOUT`). */
  readonly timeoutMs: number;
  /** A lock file older than this is left over by a crashed writer and is broken. */
  readonly staleMs: number;
}

/** One compare-and-swap ref update. */
export interface RefUpdate {
  /** Full ref name, e.g. `refs/heads/agent/memory`. */
  readonly ref: string;
  /** Id the ref must point at now, or `null` when it must not exist yet. */
  readonly expected: string | null;
  /** Id to point it at. */
  readonly next: string;
  /** Reflog entry to append (`<name> <<email>> <time> <tz>` and a message), or undefined for none. */
  readonly reflog?: { readonly identity: string; readonly message: string; readonly create: boolean } | undefined;
  /** Test hook run while the lock is held, just before the rename that publishes the update. */
  readonly beforePublish?: (() => Promise<void>) | undefined;
}

/** Outcome of {@link compareAndSwapRef}. */
export type RefUpdateResult =
  | { readonly status: 'updated' }
  | { readonly status: 'moved'; readonly actual: string | null };

const ZERO_OID = '0'.repeat(40);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A `<name>.lock` file this process created (with an open handle when the fs can open files). */
export interface HeldLock {
  /** Path of the lock file. */
  readonly path: string;
  /** Open handle to write through, or undefined. */
  readonly handle: GitFileHandle | undefined;
}

async function createLock(fs: GitFileSystem, path: string): Promise<HeldLock> {
  const { open } = fs.promises;
  if (open !== undefined) return { path, handle: await open.call(fs.promises, path, 'wx', 0o666) };
  await fs.promises.writeFile(path, '', { flag: 'wx', mode: 0o666 });
  return { path, handle: undefined };
}

async function breakIfStale(fs: GitFileSystem, path: string, staleMs: number): Promise<void> {
  const stats = await statIfExists(fs, path);
  if (stats === undefined || Date.now() - stats.mtimeMs < staleMs) return;
  // Rename first: of several processes seeing the same stale lock, only one moves it away.
  const aside = `${path}.stale-${randomBytes(4).toString('hex')}`;
  try {
    await fs.promises.rename(path, aside);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return;
    throw error;
  }
  await fs.promises.unlink(aside).catch(() => undefined);
}

/** How often a lock's directory may vanish under us (`git gc`) before the error is passed on. */
const MAX_VANISHED_DIRECTORY_RETRIES = 8;

/**
 * Create the lock file `path` (`<ref>.lock`, `packed-refs.lock`) with O_EXCL, waiting while
 * another process holds it and breaking it when stale. Throws `LOCK_TIMEOUT`, or
 * `INVALID_ARGUMENT` when a ref with a parent name of `ref` exists.
 */
export async function acquireLock(
  fs: GitFileSystem,
  path: string,
  ref: string,
  timing: RefLockTiming,
): Promise<HeldLock> {
  const makeDirectory = async (): Promise<void> => {
    try {
      await makeDirectoryWhilePruned(fs, dirname(path));
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOTDIR' || code === 'EEXIST') throw refNameClash(ref, 'a ref with a parent name of it exists');
      throw error;
    }
  };
  await makeDirectory();
  const deadline = Date.now() + timing.timeoutMs;
  let delay = 2;
  let vanished = 0;
  for (;;) {
    try {
      return await createLock(fs, path);
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOTDIR') throw refNameClash(ref, 'a ref with a parent name of it exists');
      // `git gc` (pack-refs) removes emptied ref directories: one can vanish between our mkdir
      // and our open. Re-create it and try again, a bounded number of times.
      if (code === 'ENOENT' && vanished < MAX_VANISHED_DIRECTORY_RETRIES) {
        vanished += 1;
        await makeDirectory();
        continue;
      }
      if (code !== 'EEXIST') throw error;
    }
    await breakIfStale(fs, path, timing.staleMs);
    if (Date.now() >= deadline) {
      throw new RepomemError(
        'LOCK_TIMEOUT',
        `timed out after ${timing.timeoutMs} ms waiting for ${path} (another git process is updating ${ref}; ` +
          `if none is running, the file is left over from a crash and can be deleted)`,
        { details: { ref, lock: path } },
      );
    }
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 50);
  }
}

function refNameClash(ref: string, reason: string): RepomemError {
  return new RepomemError('INVALID_ARGUMENT', `cannot create ${ref}: ${reason} (git refuses such ref names too)`, {
    details: { ref },
  });
}

async function assertNoPackedClash(fs: GitFileSystem, commondir: string, ref: string): Promise<void> {
  for (const name of (await readPackedRefs(fs, commondir)).keys()) {
    if (ref.startsWith(`${name}/`)) throw refNameClash(ref, `the ref ${name} exists`);
    if (name.startsWith(`${ref}/`)) throw refNameClash(ref, `the ref ${name} exists below it`);
  }
}

async function appendReflog(
  fs: GitFileSystem,
  commondir: string,
  update: RefUpdate,
  reflog: NonNullable<RefUpdate['reflog']>,
): Promise<void> {
  const path = join(commondir, 'logs', update.ref);
  const existing = await readFileIfExists(fs, path);
  if (existing === undefined && !reflog.create) return;
  const message = reflog.message.replace(/[\r\n]+/g, ' ').trim();
  const line = `${update.expected ?? ZERO_OID} ${update.next} ${reflog.identity}\t${message}\n`;
  await makeDirectoryWhilePruned(fs, dirname(path));
  const { appendFile } = fs.promises;
  if (appendFile !== undefined) await appendFile.call(fs.promises, path, line);
  else await fs.promises.writeFile(path, Buffer.concat([existing ?? new Uint8Array(), Buffer.from(line)]));
}

/**
 * Move `update.ref` from `update.expected` to `update.next` if and only if it still points at
 * `expected`, interoperating with the git CLI's lock files. Returns `moved` (with the current id)
 * when another writer got there first. Throws `LOCK_TIMEOUT` when the lock stays held.
 */
export async function compareAndSwapRef(
  fs: GitFileSystem,
  commondir: string,
  update: RefUpdate,
  timing: RefLockTiming,
  durable: boolean,
): Promise<RefUpdateResult> {
  const refPath = join(commondir, update.ref);
  const lock = await acquireLock(fs, `${refPath}.lock`, update.ref, timing);
  let handle = lock.handle;
  let published = false;
  try {
    const actual = await readRef(fs, commondir, update.ref);
    if (actual !== update.expected) return { status: 'moved', actual };
    if (actual === null) {
      await assertNoPackedClash(fs, commondir, update.ref);
      const existing = await statIfExists(fs, refPath);
      if (existing?.isDirectory()) throw refNameClash(update.ref, 'refs exist below it');
    }
    const value = `${update.next}\n`;
    if (handle !== undefined) {
      await handle.writeFile(value);
      if (durable) await handle.sync();
      await handle.close();
      handle = undefined;
    } else {
      await fs.promises.writeFile(lock.path, value);
    }
    if (update.reflog !== undefined) await appendReflog(fs, commondir, update, update.reflog);
    await update.beforePublish?.();
    await fs.promises.rename(lock.path, refPath);
    published = true;
    return { status: 'updated' };
  } finally {
    if (handle !== undefined) await handle.close().catch(() => undefined);
    if (!published) await fs.promises.unlink(lock.path).catch(() => undefined);
  }
}
