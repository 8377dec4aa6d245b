// Why: checkout mode (the Sepo flow): agents edit memory with ordinary tools in a directory, so
// the branch tip is materialised there without touching the user's worktree, index or HEAD. A
// directory is only ever (re)used for the mount it already is, so no one's files get mixed in.
import { isAbsolute, relative, resolve } from 'node:path';
import { RepomemError } from '@repomem/core';
import { GitObjectStore } from '../objects/object-store.js';
import { branchRef, DEFAULT_MEMORY_BRANCH } from '../refs/branch-name.js';
import { readRef } from '../refs/ref-store.js';
import { type GitFileSystem, nodeFileSystem, statIfExists } from '../repository/file-system.js';
import { type GitRepositoryLayout, locateRepository } from '../repository/repository.js';
import { type BranchFiles, readBranchFiles } from './branch-files.js';
import { ensureMountGitignore } from './mount-gitignore.js';
import { MOUNT_MARKER_FILE, type MountMarker, readMountMarker, writeMountMarker } from './mount-marker.js';
import { syncMount } from './sync-mount.js';
import type { MountOptions, MountOutcome } from './types.js';

function isInside(parent: string, child: string): boolean {
  const path = relative(parent, child);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

/** Files of the tree of `commit` (`null` = empty). */
export async function commitFiles(objects: GitObjectStore, commit: string | null): Promise<BranchFiles> {
  if (commit === null) return { files: new Map(), skipped: [] };
  return readBranchFiles(objects, (await objects.readCommit(commit)).tree);
}

async function prepareDirectory(
  fs: GitFileSystem,
  into: string,
  layout: GitRepositoryLayout,
  branch: string,
): Promise<MountMarker | undefined> {
  for (const internal of [layout.gitdir, layout.commondir]) {
    if (isInside(internal, into)) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `cannot mount into ${into}: it is inside the git directory ${internal}`,
        {
          details: { into },
        },
      );
    }
  }
  const stats = await statIfExists(fs, into);
  if (stats === undefined) {
    await fs.promises.mkdir(into, { recursive: true });
    return undefined;
  }
  if (!stats.isDirectory()) {
    throw new RepomemError('NOT_A_DIRECTORY', `cannot mount into ${into}: it is not a directory`, {
      details: { into },
    });
  }
  const marker = await readMountMarker(fs, into);
  if (marker === undefined) {
    if ((await fs.promises.readdir(into)).length > 0) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `cannot mount ${branch} into ${into}: the directory is not empty and is not a mount (no ${MOUNT_MARKER_FILE}); ` +
          'choose a new or empty directory. Nothing was changed',
        { details: { into, branch } },
      );
    }
    return undefined;
  }
  if (marker.gitdir !== layout.commondir || marker.branch !== branch) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `cannot mount ${branch} of ${layout.dir} into ${into}: it is a mount of ${marker.branch} of ${marker.repository}. Nothing was changed`,
      { details: { into, branch, mountedBranch: marker.branch, mountedRepository: marker.repository } },
    );
  }
  return marker;
}

/**
 * Materialise the tip of the memory branch into `into` (created when missing), writing each file
 * atomically, with an auto-maintained `.gitignore` and a `.repomem-mount.json` marker recording
 * the commit. Mounting again into the same mount brings it up to the tip, keeping local edits;
 * when the branch changed a path that was also edited locally, the outcome is `conflict` and
 * nothing is written.
 *
 * Throws `NOT_FOUND` (no repository, or the branch does not exist), `INVALID_ARGUMENT` (bad
 * branch name; `into` is not empty and not a mount of this branch, or is inside the git
 * directory), `NOT_A_DIRECTORY`, `INVALID_DOCUMENT` (a corrupt marker).
 */
export async function mountMemoryBranch(options: MountOptions): Promise<MountOutcome> {
  if (options === null || typeof options !== 'object') {
    throw new RepomemError('INVALID_ARGUMENT', 'mountMemoryBranch expects an options object { dir, into, branch? }');
  }
  if (typeof options.into !== 'string' || options.into.length === 0) {
    throw new RepomemError('INVALID_ARGUMENT', 'mountMemoryBranch: into must be a non-empty directory path');
  }
  const branch = options.branch ?? DEFAULT_MEMORY_BRANCH;
  const ref = branchRef(branch);
  const fs = options.fs ?? nodeFileSystem;
  const layout = await locateRepository(fs, options.dir);
  const objects = new GitObjectStore(fs, layout.commondir, false);
  const tip = await readRef(fs, layout.commondir, ref);
  if (tip === null) {
    throw new RepomemError(
      'NOT_FOUND',
      `branch ${branch} does not exist in ${layout.dir}; create it first (bootstrapMemoryBranch or initMemoryBranch, ` +
        '`repomem bootstrap`)',
      { details: { branch, dir: layout.dir } },
    );
  }
  const into = resolve(options.into);
  const marker = await prepareDirectory(fs, into, layout, branch);
  const base = await commitFiles(objects, marker?.commit ?? null);
  const target = await commitFiles(objects, tip);
  const synced = await syncMount(fs, objects, into, base.files, target.files, true);
  if (synced.conflicts.length > 0) return { status: 'conflict', into, paths: synced.conflicts };
  await ensureMountGitignore(fs, into);
  await writeMountMarker(fs, into, { repository: layout.dir, gitdir: layout.commondir, branch, commit: tip });
  return {
    status: 'mounted',
    into,
    commit: tip,
    fresh: marker === undefined,
    written: synced.written,
    removed: synced.removed,
    skipped: target.skipped,
  };
}
