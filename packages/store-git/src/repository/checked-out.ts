// Why: object mode moves the branch ref without touching any worktree; if that branch is checked
// out somewhere, its files and index would silently fall behind the branch (git refuses to push
// into a checked-out branch for the same reason). This finds such a checkout so the store can refuse.
import { join } from 'node:path';
import { errnoCode, type GitFileSystem, readFileIfExists } from './file-system.js';
import type { GitRepositoryLayout } from './repository.js';

const decoder = new TextDecoder();

/** The HEAD file that has `ref` checked out (main or linked worktree), or `undefined`. */
export async function findCheckout(
  fs: GitFileSystem,
  layout: GitRepositoryLayout,
  ref: string,
): Promise<string | undefined> {
  const heads = [join(layout.commondir, 'HEAD')];
  if (layout.gitdir !== layout.commondir) heads.push(join(layout.gitdir, 'HEAD'));
  try {
    for (const name of await fs.promises.readdir(join(layout.commondir, 'worktrees'))) {
      heads.push(join(layout.commondir, 'worktrees', name, 'HEAD'));
    }
  } catch (error) {
    const code = errnoCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  for (const head of heads) {
    const content = await readFileIfExists(fs, head);
    if (content !== undefined && decoder.decode(content).trim() === `ref: ${ref}`) {
      // A bare repository's HEAD names a branch but checks nothing out.
      if (head === join(layout.commondir, 'HEAD') && layout.bare) continue;
      return head;
    }
  }
  return undefined;
}
