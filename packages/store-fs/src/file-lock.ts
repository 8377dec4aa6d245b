// Why: several processes (repomem instances, Sepo's `update.js`) may write the same memory file.
// A `<file>.lock` created with O_EXCL serialises them exactly like Sepo does (5 s timeout, a
// lock older than 30 s is stale), so both tools can share one tree. A lock whose owner is a dead
// process on this host is also broken at once, so a crashed writer does not block for 30 s.
import { randomBytes } from 'node:crypto';
import { link, lstat, open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { RepomemError } from '@repomem/core';
import { errnoCode } from './directory-files.js';
import { LOCK_FILE_SUFFIX, TEMP_FILE_SUFFIX } from './directory-names.js';

/** Timing of lock acquisition. */
export interface FileLockOptions {
  /** Give up after this long with `LOCK_TIMEOUT` (Sepo: 5000 ms). */
  readonly timeoutMs: number;
  /** A lock file older than this (by mtime) is stale and broken (Sepo: 30000 ms). */
  readonly staleMs: number;
  /** Base delay between attempts while the lock is held elsewhere (jittered). */
  readonly retryMs: number;
}

/** Sepo-compatible defaults: 5 s timeout, 30 s stale, 25 ms polling. */
export const DEFAULT_FILE_LOCK_OPTIONS: FileLockOptions = Object.freeze({
  timeoutMs: 5_000,
  staleMs: 30_000,
  retryMs: 25,
});

/**
 * What repomem writes into a lock file (`{pid, host}`), or `undefined` for anything else (other
 * tools may write anything, or nothing). Checked by hand rather than with zod: this runs on
 * every contended `repomem update`, and loading zod there cost more than the update itself.
 */
function lockOwner(parsed: unknown): { readonly pid: number; readonly host: string } | undefined {
  if (parsed === null || typeof parsed !== 'object') return undefined;
  const { pid, host } = parsed as { pid?: unknown; host?: unknown };
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0 || typeof host !== 'string') return undefined;
  return { pid, host };
}

/** Path of the lock file guarding `filePath`. */
export function lockPathFor(filePath: string): string {
  return `${filePath}${LOCK_FILE_SUFFIX}`;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) !== 'ESRCH';
  }
}

/** Whether the lock at `lockPath` (last modified at `mtimeMs`) may be broken. */
async function isStale(lockPath: string, mtimeMs: number, staleMs: number): Promise<boolean> {
  if (Date.now() - mtimeMs > staleMs) return true;
  let text: string;
  try {
    text = await readFile(lockPath, 'utf8');
  } catch {
    return false;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false; // a foreign lock (e.g. Sepo's): age is the only staleness signal
  }
  const owner = lockOwner(parsed);
  if (owner === undefined || owner.host !== hostname() || owner.pid === process.pid) return false;
  return !processIsAlive(owner.pid);
}

/**
 * Break a stale lock without ever deleting a fresh one: move it aside under a unique temp name,
 * then check it is the very file (inode and mtime) judged stale; if a new lock was moved by mistake, put it
 * back with `link` (which never overwrites).
 */
async function breakStaleLock(lockPath: string, stale: { ino: bigint; mtimeNs: bigint }): Promise<void> {
  const aside = `${lockPath}.${randomBytes(6).toString('hex')}${TEMP_FILE_SUFFIX}`;
  try {
    await rename(lockPath, aside);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return; // someone else broke or released it
    throw error;
  }
  try {
    const moved = await lstat(aside, { bigint: true });
    if (moved.ino !== stale.ino || moved.mtimeNs !== stale.mtimeNs) {
      await link(aside, lockPath).catch(() => {});
    }
  } finally {
    await unlink(aside).catch(() => {});
  }
}

/** File systems without hard links answer `link` with one of these: fall back to O_EXCL. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * Create `lockPath` holding `owner`, or return `undefined` when it exists. The owner is written to
 * a temp file first and hard-linked into place (atomic, never overwrites, like O_EXCL), so a lock
 * file is never seen empty: a writer killed at any moment leaves a lock naming its pid, which the
 * next writer breaks at once once that process is gone. Without hard links: O_EXCL, then write.
 */
async function createLockFile(lockPath: string, owner: string): Promise<bigint | undefined> {
  const temp = `${lockPath}.${randomBytes(6).toString('hex')}${TEMP_FILE_SUFFIX}`;
  await writeFile(temp, owner, { flag: 'wx' });
  try {
    const { ino } = await lstat(temp, { bigint: true });
    await link(temp, lockPath);
    return ino;
  } catch (error) {
    const code = errnoCode(error);
    // EEXIST: held. ENOENT: the lock holder swept our temp file as a leftover; try again.
    if (code === 'EEXIST' || code === 'ENOENT') return undefined;
    if (code === undefined || !NO_HARD_LINKS.has(code)) throw error;
  } finally {
    await unlink(temp).catch(() => {});
  }
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(lockPath, 'wx');
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return undefined;
    throw error;
  }
  try {
    await handle.writeFile(owner);
    return (await handle.stat({ bigint: true })).ino;
  } finally {
    await handle.close();
  }
}

/**
 * Acquire the lock file of `filePath` (its directory must exist). Resolves to a release function
 * that removes the lock only if it is still ours. Throws `LOCK_TIMEOUT` naming the lock file when
 * another holder keeps it past `timeoutMs`.
 */
export async function acquireFileLock(filePath: string, options: FileLockOptions): Promise<() => Promise<void>> {
  const lockPath = lockPathFor(filePath);
  const deadline = Date.now() + options.timeoutMs;
  const owner = JSON.stringify({ pid: process.pid, host: hostname(), acquiredAt: new Date().toISOString() });
  for (;;) {
    const ino = await createLockFile(lockPath, owner);
    if (ino !== undefined) {
      return async () => {
        try {
          const current = await lstat(lockPath, { bigint: true });
          if (current.ino === ino) await unlink(lockPath);
        } catch (error) {
          if (errnoCode(error) !== 'ENOENT') throw error;
        }
      };
    }
    let held: { ino: bigint; mtimeNs: bigint };
    try {
      held = await lstat(lockPath, { bigint: true });
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') continue; // released between our attempt and the stat
      throw error;
    }
    if (await isStale(lockPath, Number(held.mtimeNs / 1_000_000n), options.staleMs)) {
      await breakStaleLock(lockPath, held);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new RepomemError(
        'LOCK_TIMEOUT',
        `timed out after ${options.timeoutMs} ms waiting for lock ${lockPath} (held by another writer; it is treated as stale after ${options.staleMs} ms)`,
        { details: { lockPath, timeoutMs: options.timeoutMs } },
      );
    }
    await sleep(options.retryMs / 2 + Math.random() * options.retryMs);
  }
}
