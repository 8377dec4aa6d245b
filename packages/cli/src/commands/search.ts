// Why: `repomem search`: typed arguments from its declaration, `--help` and argument errors
// answered by commandRunner with only the argument code loaded; the search itself (store,
// engine, output) is loaded on demand from search-run.ts, since every agent tool call pays this
// process's start.
import { commandRunner } from '../tree/command-runner.js';
import { SEARCH } from '../tree/decl/search.js';
import type { CommandRunner } from '../tree/types.js';
import { searchRequestOf } from './search-args.js';

/** Run `repomem search <argv...>`; returns the exit code. */
export const runSearchCommand: CommandRunner = commandRunner(SEARCH, async (args, io) => {
  const request = searchRequestOf(args, io.env);
  const { runSearch } = await import('./search-run.js');
  return await runSearch(request, io);
});
