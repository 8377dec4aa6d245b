// Why: `repomem sync`: parses the request and answers `--help` and argument errors with only the
// argument code loaded; the sync itself (store, Octokit, output) is loaded on demand from sync-run.ts.
import { ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { reportError, wantsJson } from '../report-error.js';
import { SYNC_USAGE } from '../usage.js';
import { parseSyncArguments } from './sync-args.js';

/** Run `repomem sync <argv...>`; returns the exit code. */
export async function runSyncCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const request = parseSyncArguments(argv, io.env);
    if (request.help) {
      io.stdout.write(SYNC_USAGE);
      return ExitCode.ok;
    }
    const { runSync } = await import('./sync-run.js');
    return await runSync(request, io);
  } catch (error) {
    return reportError(error, io, SYNC_USAGE, json);
  }
}
