// Why: `repomem search`: thin wiring from a parsed request to the memory facade's search and
// Sepo's text or JSON output.
import { ExitCode } from '../errors.js';
import { formatSearchJson, formatSearchText } from '../format/search-output.js';
import type { CliIo } from '../io.js';
import { chooseMemoryDirectory, openMemoryAt } from '../memory-dir.js';
import { reportError, wantsJson } from '../report-error.js';
import { SEARCH_USAGE } from '../usage.js';
import { parseSearchArguments } from './search-args.js';

/** Run `repomem search <argv...>`; returns the exit code. */
export async function runSearchCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const request = parseSearchArguments(argv, io.env);
    if (request.help) {
      io.stdout.write(SEARCH_USAGE);
      return ExitCode.ok;
    }
    const directory = chooseMemoryDirectory(request.dir, io);
    const memory = await openMemoryAt(directory, { mode: 'read-only' });
    try {
      const response = await memory.search(request.query, { limit: request.limit, snippets: request.snippets });
      io.stdout.write(
        request.json
          ? formatSearchJson(request.query, response, directory.absolute)
          : formatSearchText(request.query, response, directory.absolute),
      );
    } finally {
      await memory.store.close();
    }
    return ExitCode.ok;
  } catch (error) {
    return reportError(error, io, SEARCH_USAGE, json);
  }
}
