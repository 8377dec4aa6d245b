// Why: `repomem search`: parses the request and answers `--help` and argument errors with only
// the argument code loaded; the search itself (store, engine, output) is loaded on demand from
// search-run.ts, since every agent tool call pays this process's start.
import { ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { reportError, wantsJson } from '../report-error.js';
import { SEARCH } from '../tree/decl/search.js';
import { helpText } from '../tree/help.js';
import { parseSearchArguments } from './search-args.js';

/** Run `repomem search <argv...>`; returns the exit code. */
export async function runSearchCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const request = parseSearchArguments(argv, io.env);
    if (request.help) {
      io.stdout.write(helpText(SEARCH));
      return ExitCode.ok;
    }
    const { runSearch } = await import('./search-run.js');
    return await runSearch(request, io);
  } catch (error) {
    return reportError(error, io, helpText(SEARCH), json);
  }
}
