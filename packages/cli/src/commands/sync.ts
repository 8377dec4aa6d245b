// Why: `repomem sync`: typed arguments from its declaration, `--help` and argument errors answered
// by commandRunner with only the argument code loaded; the sync itself (store, Octokit, output)
// is loaded on demand from sync-run.ts.
import { repoOfOrigin } from '../store-selection.js';
import { commandRunner } from '../tree/command-runner.js';
import { SYNC } from '../tree/decl/sync.js';
import type { CommandRunner } from '../tree/types.js';
import { syncRequestOf } from './sync-args.js';

/** Run `repomem sync <argv...>`; returns the exit code. */
export const runSyncCommand: CommandRunner = commandRunner(
  SYNC,
  async (args, io) => {
    const request = syncRequestOf(args, io.env, () => repoOfOrigin(io));
    const { runSync } = await import('./sync-run.js');
    return await runSync(request, io);
  },
  { subcommand: 'own' },
);
