// Why: branch scope reads memories for the branch an agent works on. In GitHub Actions the
// checkout is often a detached merge commit, so the branch comes from the environment:
// `GITHUB_HEAD_REF` on pull-request events, else `GITHUB_REF` when it names a branch. An explicit
// `--ref` wins; outside Actions the citation reader names the clone's current branch.
import { learnedRefProblem } from '@repomem/core';
import { CliUsageError } from './errors.js';

/**
 * The branch to scope reads to when no `--ref` is given: `$GITHUB_HEAD_REF`, else
 * `$GITHUB_REF` without `refs/heads/` (a tag or `refs/pull/...` names no branch), else
 * `undefined` (the citation reader's current branch). Throws {@link CliUsageError} naming the
 * variable when it holds something that is not a branch name.
 */
export function workingBranch(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const check = (name: string, branch: string): string => {
    const problem = learnedRefProblem(branch);
    if (problem !== undefined) {
      throw new CliUsageError(`$${name} ${JSON.stringify(env[name])} is not a branch name: it ${problem}`);
    }
    return branch;
  };
  const head = env.GITHUB_HEAD_REF;
  if (head !== undefined && head !== '') return check('GITHUB_HEAD_REF', head.replace(/^refs\/heads\//, ''));
  const ref = env.GITHUB_REF;
  if (ref !== undefined && ref.startsWith('refs/heads/')) return check('GITHUB_REF', ref.slice('refs/heads/'.length));
  return undefined;
}
