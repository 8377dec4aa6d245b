// Why: the branch commands (history, checkpoint, bootstrap, mount) only make sense on a git
// store, so they share one rule: the store named by `--store` or `$REPOMEM_STORE` must be a
// `git:` spec, and a missing repository is reported naming it (exit 2).
import type { GitStore } from '@repomem/store-git';
import { CliUsageError } from './errors.js';
import type { CliIo } from './io.js';
import { openChosenStore } from './open-chosen-store.js';
import { DEFAULT_STORE_REPO } from './open-store.js';
import { type ChosenStore, chooseStore } from './store-selection.js';

/** A chosen git store. */
export type GitChoice = Extract<ChosenStore, { kind: 'git' }>;

/**
 * The git store `--store` or `$REPOMEM_STORE` names. Throws {@link CliUsageError} for `command`
 * when none is named or the spec is not `git:`.
 */
export function chooseGitStore(store: string | undefined, io: Pick<CliIo, 'env' | 'cwd'>, command: string): GitChoice {
  const chosen = chooseStore({ store }, io);
  if (chosen.kind !== 'git') {
    const named = chosen.kind === 'dir' ? `dir:${chosen.directory.display}` : chosen.label;
    const why =
      chosen.origin === 'default' || chosen.origin === 'MEMORY_DIR'
        ? 'no git store named'
        : `${named} is not a git store`;
    throw new CliUsageError(
      `${command} needs a git store: --store git:<repo-dir>[#<branch>] or $REPOMEM_STORE (${why})`,
    );
  }
  return chosen;
}

/** Open the chosen branch in object mode (missing repository: exit 2 naming it). */
export async function openGitChoice(chosen: GitChoice): Promise<GitStore> {
  return (await openChosenStore(chosen, { repo: DEFAULT_STORE_REPO, readOnly: false })) as GitStore;
}

/** The branch options for store-git's functions (`branch` only when the spec names one). */
export function branchOptions(chosen: GitChoice): { readonly dir: string; readonly branch?: string } {
  return chosen.spec.branch === undefined
    ? { dir: chosen.spec.dir }
    : { dir: chosen.spec.dir, branch: chosen.spec.branch };
}
