// Why: a branch name becomes a path under refs/heads and a lock file name, so it must obey
// exactly the rules of `git check-ref-format --branch`; anything else is refused before it can
// reach the file system.
import { gitRefComponentProblem, RepomemError } from '@repomem/core';

/** The branch repomem keeps memory on unless told otherwise (the Sepo convention). */
export const DEFAULT_MEMORY_BRANCH = 'agent/memory';

/** Why `branch` is not a valid branch name, or `undefined` when it is. */
export function branchNameProblem(branch: string): string | undefined {
  if (typeof branch !== 'string' || branch.length === 0) return 'is empty';
  if (branch.startsWith('-')) return 'starts with "-"';
  if (branch === 'HEAD') return 'is "HEAD"';
  if (branch.startsWith('refs/')) return 'starts with "refs/" (give the short name, e.g. agent/memory)';
  if (branch.endsWith('/')) return 'ends with "/"';
  if (branch.startsWith('/')) return 'starts with "/"';
  if (branch.includes('@{')) return 'contains "@{"';
  if (branch === '@') return 'is "@"';
  for (const component of branch.split('/')) {
    const problem = gitRefComponentProblem(component);
    if (problem !== undefined) {
      return component === '' ? 'contains "//"' : `has a component ${JSON.stringify(component)} that ${problem}`;
    }
  }
  return undefined;
}

/** Validate a branch name and return its full ref (`refs/heads/<branch>`). Throws `INVALID_ARGUMENT`. */
export function branchRef(branch: string): string {
  const problem = branchNameProblem(branch);
  if (problem !== undefined) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid branch name ${JSON.stringify(branch)}: it ${problem}`, {
      details: { branch },
    });
  }
  return `refs/heads/${branch}`;
}
