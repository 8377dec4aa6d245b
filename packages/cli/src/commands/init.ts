// Why: `repomem init`: seeds the memory tree through the facade (creating the directory or the
// SQLite database when missing), or a git memory branch with store-git's idempotent init, and
// reports what was created.
import type { InitResult } from '@repomem/core';
import { ExitCode } from '../errors.js';
import { formatInitText, initJson } from '../format/init-output.js';
import { branchOptions, type GitChoice } from '../git-store-choice.js';
import { openChosenMemory } from '../open-memory.js';
import { type ChosenStore, chooseStore, documentRepoFor } from '../store-selection.js';
import { commandRunner } from '../tree/command-runner.js';
import { INIT } from '../tree/decl/init.js';
import type { CommandRunner } from '../tree/types.js';
import { initRequestOf } from './init-args.js';

/** Seed a store through the memory facade (a directory is created when missing). */
async function initThroughFacade(chosen: ChosenStore, repo: string): Promise<InitResult> {
  const { memory } = await openChosenMemory(chosen, { mode: 'enabled', create: true, repo });
  try {
    return await memory.init();
  } finally {
    await memory.store.close();
  }
}

/** Seed a git memory branch: created when missing, missing seed files added in one commit (store-git's init). */
async function initBranch(chosen: GitChoice): Promise<InitResult> {
  const { initMemoryBranch } = await import('@repomem/store-git');
  const outcome = await initMemoryBranch(branchOptions(chosen));
  return { created: [...outcome.created], existing: [...outcome.existing] };
}

/** Run `repomem init <argv...>`; returns the exit code. */
export const runInitCommand: CommandRunner = commandRunner(
  INIT,
  async (args, io) => {
    const request = initRequestOf(args);
    const chosen = await chooseStore(request, io);
    const repo = documentRepoFor(chosen, request.repo, io);
    const location = chosen.kind === 'dir' ? chosen.directory.display : { store: chosen.label };
    const result = chosen.kind === 'git' ? await initBranch(chosen) : await initThroughFacade(chosen, repo);
    io.stdout.write(
      request.json ? `${JSON.stringify(initJson(result, location))}\n` : formatInitText(result, location),
    );
    return ExitCode.ok;
  },
  { positionals: 'own' },
);
