// Why: a state value can be removed, and removing it must be as safe as changing it: a ref is
// deleted only while it still holds the expected id, under the same `<ref>.lock` protocol the git
// CLI uses. A packed copy is removed first (under `packed-refs.lock`), then the loose file, so a
// reader never falls back to an older packed value.
import { join } from 'node:path';
import { type GitFileSystem, readFileIfExists } from '../repository/file-system.js';
import { acquireLock, type RefLockTiming, type RefUpdateResult } from './ref-lock.js';
import { readRef } from './ref-store.js';

const decoder = new TextDecoder();

/** `packed-refs` text without `ref` (and the peeled `^` line that follows it), or undefined when it is not there. */
export function withoutPackedRef(text: string, ref: string): string | undefined {
  const lines = text.split('\n');
  const kept: string[] = [];
  let removed = false;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (line.length > 41 && line.slice(41).trimEnd() === ref && !line.startsWith('#') && !line.startsWith('^')) {
      removed = true;
      while ((lines[index + 1] ?? '').startsWith('^')) index += 1;
      continue;
    }
    kept.push(line);
  }
  return removed ? kept.join('\n') : undefined;
}

async function removePacked(fs: GitFileSystem, commondir: string, ref: string, timing: RefLockTiming): Promise<void> {
  const path = join(commondir, 'packed-refs');
  const current = await readFileIfExists(fs, path);
  if (current === undefined) return;
  if (withoutPackedRef(decoder.decode(current), ref) === undefined) return;
  const lock = await acquireLock(fs, `${path}.lock`, 'packed-refs', timing);
  let published = false;
  try {
    // Re-read under the lock: another writer may have rewritten it since.
    const text = decoder.decode((await readFileIfExists(fs, path)) ?? new Uint8Array());
    const next = withoutPackedRef(text, ref);
    if (next === undefined) return;
    if (lock.handle !== undefined) {
      await lock.handle.writeFile(next);
      await lock.handle.close();
    } else {
      await fs.promises.writeFile(lock.path, next);
    }
    await fs.promises.rename(lock.path, path);
    published = true;
  } finally {
    if (!published) {
      await lock.handle?.close().catch(() => undefined);
      await fs.promises.unlink(lock.path).catch(() => undefined);
    }
  }
}

/**
 * Delete `ref` if and only if it points at `expected`, interoperating with the git CLI's lock
 * files; its reflog goes with it. Returns `moved` (with the current id, `null` when it is gone)
 * when it holds something else. Throws `LOCK_TIMEOUT` when a lock stays held.
 */
export async function compareAndDeleteRef(
  fs: GitFileSystem,
  commondir: string,
  update: { readonly ref: string; readonly expected: string },
  timing: RefLockTiming,
): Promise<RefUpdateResult> {
  const refPath = join(commondir, update.ref);
  const lock = await acquireLock(fs, `${refPath}.lock`, update.ref, timing);
  try {
    await lock.handle?.close();
    const actual = await readRef(fs, commondir, update.ref);
    if (actual !== update.expected) return { status: 'moved', actual };
    await removePacked(fs, commondir, update.ref, timing);
    await fs.promises.unlink(refPath).catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
    });
    await fs.promises.unlink(join(commondir, 'logs', update.ref)).catch(() => undefined);
    return { status: 'updated' };
  } finally {
    await fs.promises.unlink(lock.path).catch(() => undefined);
  }
}
