// Why: branch scope needs the branch a clone is on (its HEAD) and the repository's default branch
// (what `origin/HEAD` names, as `git clone` sets it; else `main` or `master`, whichever exists),
// read straight from the repository's files: no process, nothing written.
import { join } from 'node:path';
import type { BranchNames } from '@repomem/core';
import { readRef } from '../refs/ref-store.js';
import { type GitFileSystem, readFileIfExists } from '../repository/file-system.js';
import type { GitRepositoryLayout } from '../repository/repository.js';

const decoder = new TextDecoder();
const SYMBOLIC = /^ref:\s*refs\/(heads|remotes\/[^/]+)\/(\S+)$/;

async function symbolicTarget(fs: GitFileSystem, file: string): Promise<RegExpExecArray | null> {
  const content = await readFileIfExists(fs, file);
  return content === undefined ? null : SYMBOLIC.exec(decoder.decode(content).trim());
}

async function exists(fs: GitFileSystem, layout: GitRepositoryLayout, ref: string): Promise<boolean> {
  try {
    return (await readRef(fs, layout.commondir, ref)) !== null;
  } catch {
    return false;
  }
}

/**
 * The branch HEAD is on (`undefined` when detached) and the default branch: the branch
 * `refs/remotes/origin/HEAD` points at, else `main` or `master` when that branch exists locally
 * or on origin, else `undefined`.
 */
export async function readBranchNames(fs: GitFileSystem, layout: GitRepositoryLayout): Promise<BranchNames> {
  const head = await symbolicTarget(fs, join(layout.gitdir, 'HEAD'));
  const current = head?.[1] === 'heads' ? head[2] : undefined;
  const originHead = await symbolicTarget(fs, join(layout.commondir, 'refs', 'remotes', 'origin', 'HEAD'));
  let defaultBranch = originHead?.[2];
  for (const candidate of ['main', 'master']) {
    if (defaultBranch !== undefined) break;
    if (
      (await exists(fs, layout, `refs/heads/${candidate}`)) ||
      (await exists(fs, layout, `refs/remotes/origin/${candidate}`))
    ) {
      defaultBranch = candidate;
    }
  }
  return {
    ...(current === undefined ? {} : { current }),
    ...(defaultBranch === undefined ? {} : { defaultBranch }),
  };
}
