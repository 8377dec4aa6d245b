// Why: branch scope reads memories for the branch an agent works on. In GitHub Actions the
// checkout is often a detached merge commit, so the branch comes from the environment (core's
// `branchFromEnvironment`: `GITHUB_HEAD_REF`, else a `GITHUB_REF` naming a branch). An explicit
// `--ref` wins; outside Actions the citation reader names the clone's current branch.
import { branchFromEnvironment } from '@repomem/core';
import { CliUsageError } from './errors.js';

/**
 * The branch to scope reads to when no `--ref` is given, or `undefined` (the citation reader's
 * current branch). Throws {@link CliUsageError} naming the variable when it holds something that
 * is not a branch name.
 */
export function workingBranch(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const found = branchFromEnvironment(env);
  if (found.kind === 'invalid') throw new CliUsageError(found.message);
  return found.kind === 'branch' ? found.branch : undefined;
}
