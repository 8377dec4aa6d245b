// Why: a mount must follow the branch without losing local edits: when the branch moves from the
// mounted commit to a new one, each path the branch changed is written only if the mount still
// holds the mounted version of it (or already holds the new one). A path edited on both sides is
// a conflict and is never overwritten.

import type { GitObjectStore } from '../objects/object-store.js';
import type { GitFileSystem } from '../repository/file-system.js';
import type { BranchFile } from './branch-files.js';
import { readDiskState, removeMountFile, writeMountFile } from './mount-files.js';

/** What a sync did, or would have done. */
export interface MountSync {
  readonly written: string[];
  readonly removed: string[];
  /** Paths changed both in the mount and on the branch (left as they are). */
  readonly conflicts: string[];
}

interface PlannedStep {
  readonly path: string;
  readonly target: BranchFile | undefined;
}

/**
 * Bring the mount at `root` from tree `base` to tree `target` (both as path -> file maps).
 * `atomic: true` writes nothing when any path conflicts; `false` applies every non-conflicting
 * path and leaves conflicting ones (local edits) in place.
 */
export async function syncMount(
  fs: GitFileSystem,
  objects: GitObjectStore,
  root: string,
  base: ReadonlyMap<string, BranchFile>,
  target: ReadonlyMap<string, BranchFile>,
  atomic: boolean,
): Promise<MountSync> {
  const paths = new Set<string>([...base.keys(), ...target.keys()]);
  const steps: PlannedStep[] = [];
  const conflicts: string[] = [];
  for (const path of [...paths].sort()) {
    const before = base.get(path);
    const after = target.get(path);
    if (before?.oid === after?.oid) continue;
    const disk = await readDiskState(fs, root, path);
    if (disk.kind === 'other') {
      conflicts.push(path);
      continue;
    }
    const current = disk.kind === 'file' ? disk.oid : undefined;
    if (current === after?.oid) continue; // already what the branch has
    if (current === before?.oid) steps.push({ path, target: after });
    else conflicts.push(path);
  }
  const result: MountSync = { written: [], removed: [], conflicts };
  if (atomic && conflicts.length > 0) return result;
  for (const step of steps) {
    if (step.target === undefined) {
      await removeMountFile(fs, root, step.path);
      result.removed.push(step.path);
    } else {
      const content = await objects.readTyped(step.target.oid, 'blob');
      await writeMountFile(fs, root, step.path, content, step.target.executable);
      result.written.push(step.path);
    }
  }
  return result;
}
