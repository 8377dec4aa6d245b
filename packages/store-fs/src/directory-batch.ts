// Why: the one batch write a directory can make isolated. Every file of the batch is locked (the
// in-process queue, then Sepo's `<file>.lock`) in path order, every precondition is checked
// against the bytes on disk under the locks, every new file is staged and fsynced, then renamed
// into place. Writers of every process are serialised and a failed precondition changes nothing;
// a crash between two renames leaves the batch half-applied (each file old or new, never torn),
// hence the kit's `isolated` guarantee rather than `atomic`.
import { existsSync } from 'node:fs';
import { mkdir, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { acquireKeyedMutex, contentVersion, type KitChange, type KitConflict, RepomemError } from '@repomem/core';
import { stageFile, syncDirectory } from './atomic-file.js';
import { ensureParents, errnoCode, inspectParents, readFileNoFollow } from './directory-files.js';
import type { DirectorySpace } from './directory-spaces.js';
import { acquireFileLock, type FileLockOptions } from './file-lock.js';
import { sweepTempFiles } from './temp-sweep.js';

/** One change of a batch with the namespace it goes to. */
export interface BatchChange {
  readonly change: KitChange;
  readonly space: DirectorySpace;
}

/** A change resolved to its file. */
interface Target extends BatchChange {
  readonly relative: string;
  readonly absolute: string;
  /** False for a delete whose parent directory does not exist (nothing to lock or remove). */
  present: boolean;
}

function what(change: KitChange): string {
  return `${change.value === null ? 'delete' : 'put'} ${change.key}`;
}

/** Lock every target in path order; `releases` receives each release as it is taken. */
async function lockAll(targets: readonly Target[], lock: FileLockOptions, releases: Array<() => unknown>) {
  for (const target of [...targets].sort((a, b) => (a.absolute < b.absolute ? -1 : 1))) {
    const { change, space, relative } = target;
    if (change.value === null) {
      const parents = await inspectParents(space.directory, relative);
      if (parents.kind === 'blocked') {
        throw new RepomemError('INVALID_PATH', `cannot ${what(change)}: it ${parents.reason}`, {
          details: { path: change.key },
        });
      }
      if (parents.kind === 'missing' || (space.createOnWrite && !existsSync(space.directory))) {
        target.present = false;
        continue;
      }
    } else {
      if (space.createOnWrite) await mkdir(space.directory, { recursive: true });
      await ensureParents(space.directory, relative);
    }
    releases.push(await acquireKeyedMutex(target.absolute));
    releases.push(await acquireFileLock(target.absolute, lock));
    await sweepTempFiles(target.absolute);
  }
}

/**
 * Apply `changes` under their locks: `conflicts` (nothing written) when an expected version does
 * not match the SHA-256 of the file on disk, else every put renamed into place and every delete
 * unlinked. A symbolic link, a directory or a special file where a file goes is `INVALID_PATH`.
 */
export async function applyLockedBatch(
  changes: readonly BatchChange[],
  lock: FileLockOptions,
): Promise<{ conflicts: KitConflict[] }> {
  const targets: Target[] = changes.map(({ change, space }) => {
    const relative = space.fileOf(change.key);
    return { change, space, relative, absolute: join(space.directory, relative), present: true };
  });
  const releases: Array<() => unknown> = [];
  const changedDirectories = new Set<string>();
  try {
    await lockAll(targets, lock, releases);
    const conflicts: KitConflict[] = [];
    const modes = new Map<Target, number>();
    for (const target of targets) {
      const { change } = target;
      let actual: string | null = null;
      if (target.present) {
        const file = await readFileNoFollow(target.absolute, change.key);
        if (file !== undefined && 'kind' in file) {
          throw new RepomemError('INVALID_PATH', `cannot ${what(change)}: it ${file.reason}`, {
            details: { path: change.key },
          });
        }
        if (file !== undefined) {
          actual = contentVersion(file.content);
          modes.set(target, file.mode);
        }
      }
      if (change.expected !== undefined && change.expected !== actual) {
        conflicts.push({ namespace: change.namespace, key: change.key, actual });
      }
    }
    if (conflicts.length > 0) return { conflicts };

    // Stage every new file (written and fsynced) before replacing anything.
    const staged = new Map<Target, string>();
    try {
      for (const target of targets) {
        if (target.change.value === null) continue;
        staged.set(target, await stageFile(target.absolute, target.change.value, modes.get(target)));
      }
      // Commit: atomic renames and unlinks.
      for (const target of targets) {
        const temp = staged.get(target);
        if (temp !== undefined) {
          await rename(temp, target.absolute);
          staged.delete(target);
        } else if (target.present) {
          try {
            await unlink(target.absolute);
          } catch (error) {
            if (errnoCode(error) !== 'ENOENT') throw error;
            continue;
          }
        } else {
          continue;
        }
        changedDirectories.add(dirname(target.absolute));
      }
    } finally {
      await Promise.all([...staged.values()].map((temp) => unlink(temp).catch(() => {})));
    }
    await Promise.all([...changedDirectories].map(syncDirectory));
    return { conflicts: [] };
  } finally {
    for (const release of releases.reverse()) await release();
  }
}
