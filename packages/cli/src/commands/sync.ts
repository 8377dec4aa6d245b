// Why: `repomem sync`: parses the request and answers `--help` and argument errors with only the
// argument code loaded; the sync itself (store, Octokit, output) is loaded on demand from sync-run.ts.
import { ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { reportError, wantsJson } from '../report-error.js';
import { repoOfOrigin } from '../store-selection.js';
import { SYNC } from '../tree/decl/sync.js';
import { helpText } from '../tree/help.js';
import { parseSyncArguments } from './sync-args.js';

/** Run `repomem sync <argv...>`; returns the exit code. */
export async function runSyncCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const request = parseSyncArguments(argv, io.env, () => repoOfOrigin(io));
    if (request.help) {
      io.stdout.write(helpText(SYNC));
      return ExitCode.ok;
    }
    const { runSync } = await import('./sync-run.js');
    return await runSync(request, io);
  } catch (error) {
    return reportError(error, io, helpText(SYNC), json);
  }
}
