// Why: the branch commands (history, checkpoint, bootstrap, mount, push, state) only make sense
// on a git store, so they share one rule: the store named by `--store` or `$REPOMEM_STORE` must
// be a `git:` spec, and a missing repository is reported naming it (exit 2).
import { DEFAULT_STORE_REPO } from '@repomem/core';
import type { GitStore } from '@repomem/store-git';
import { CliUsageError } from './errors.js';
import type { CliIo } from './io.js';
import { openChosenStore } from './open-chosen-store.js';
import { chooseStore, type GitChoice } from './store-selection.js';

export type { GitChoice } from './store-selection.js';

/**
 * The git store `--store` or `$REPOMEM_STORE` names, its spec resolved. Throws
 * {@link CliUsageError} for `command` when none is named or the spec is not `git:`.
 */
export async function chooseGitStore(
  store: string | undefined,
  io: Pick<CliIo, 'env' | 'cwd'>,
  command: string,
): Promise<GitChoice> {
  const refuse = (why: string): CliUsageError =>
    new CliUsageError(`${command} needs a git store: --store git:<repo-dir>[#<branch>] or $REPOMEM_STORE (${why})`);
  // Neither names a store: nothing to resolve ($MEMORY_DIR and the default are never git stores).
  if ((store ?? '') === '' && (io.env.REPOMEM_STORE ?? '') === '') throw refuse('no git store named');
  const chosen = await chooseStore({ store }, io);
  if (chosen.kind !== 'git') {
    throw refuse(`${chosen.kind === 'dir' ? `dir:${chosen.directory.display}` : chosen.label} is not a git store`);
  }
  return chosen;
}

/** Open the chosen branch in object mode (missing repository: exit 2 naming it). */
export async function openGitChoice(chosen: GitChoice): Promise<GitStore> {
  return (await openChosenStore(chosen, { repo: DEFAULT_STORE_REPO, readOnly: false })) as GitStore;
}

/** The branch options for store-git's functions (`branch` only when the spec names one). */
export function branchOptions(chosen: GitChoice): { readonly dir: string; readonly branch?: string } {
  return chosen.branch === undefined ? { dir: chosen.dir } : { dir: chosen.dir, branch: chosen.branch };
}
