// Why: callers (the CLI, an MCP server, library users) open a store from one string through
// core's registry; this is the git store's part of that: `git:<repo-dir>[#<branch>]`, parsed
// and checked (the branch name too) before anything is opened or written.
import type { OpenStoreContext, StoreScheme } from '@repomem/core';
import { RepomemError } from '@repomem/core';
import { branchNameProblem } from '../refs/branch-name.js';
import { formatRepositorySpec, parseRepositorySpec } from '../repository/repository-spec.js';
import { type GitStore, openGitStore } from './git-store.js';

/** A parsed `git:` store spec. */
export interface GitStoreTarget {
  /** Absolute repository directory (a worktree or a bare repository). */
  readonly dir: string;
  /** Memory branch; absent: `agent/memory`. */
  readonly branch?: string;
}

/**
 * The `git:<repo-dir>[#<branch>]` store scheme: a branch of a git repository in object mode (no
 * checkout is touched; the branch is created by the first write). A relative directory resolves
 * against the context's `cwd`; the branch is everything after the last `#` and must be a valid
 * branch name (checked when parsing, before anything is written). Opening a directory that is
 * not a repository is `NOT_FOUND`. Opening writes nothing, read-only or not.
 *
 * @example
 * ```ts
 * registerStoreScheme(storeScheme);
 * const store = await openStore('git:.#agent/memory', { cwd: '/work/app' });
 * ```
 */
export const storeScheme: StoreScheme<GitStoreTarget> = {
  scheme: 'git',
  grammar: 'git:<repo-dir>[#<branch>]',
  parse(rest, context): GitStoreTarget {
    const spec = parseRepositorySpec(rest, context.cwd, 'branch');
    if (spec.name === undefined) return { dir: spec.dir };
    const problem = branchNameProblem(spec.name);
    if (problem !== undefined) {
      throw new RepomemError('INVALID_ARGUMENT', `branch ${JSON.stringify(spec.name)} ${problem}`, {
        details: { branch: spec.name },
      });
    }
    return { dir: spec.dir, branch: spec.name };
  },
  label: (target) => formatRepositorySpec(target.dir, target.branch),
  async open(target: GitStoreTarget, context: OpenStoreContext): Promise<GitStore> {
    context.signal?.throwIfAborted();
    return openGitStore({ dir: target.dir, ...(target.branch === undefined ? {} : { branch: target.branch }) });
  },
};
