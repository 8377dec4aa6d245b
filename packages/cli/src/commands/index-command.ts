// Why: `repomem index` builds or refreshes the vectors kept with the memory (under
// `.repomem/vectors/<embedder>/` in the chosen store): only chunks whose text has no vector yet
// are embedded, so a run after an edit costs that edit and a fresh CI runner that fetched the
// memory embeds nothing. Arguments and `--help` load nothing else; the store, core's semantic
// index and the embedder's package load when the command runs.
import { booleanOption, parseArguments, stringOption } from '../args.js';
import { embedderSpecOf } from '../embedder-spec.js';
import { CliUsageError, ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { reportError, wantsJson } from '../report-error.js';
import { INDEX } from '../tree/decl/index-command.js';
import { helpText, optionSpecsOf } from '../tree/help.js';

/** The embedder `repomem index` uses when neither `--embedder` nor `$REPOMEM_EMBEDDER` names one. */
export const DEFAULT_INDEX_EMBEDDER = 'local';

/** A bar like `[########------------] 120/300 chunks` for a terminal line. */
export function formatIndexProgress(done: number, total: number, width = 24): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} chunks`;
}

/** Run `repomem index`; returns the exit code. */
export async function runIndexCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const parsed = parseArguments(argv, optionSpecsOf(INDEX));
    if (booleanOption(parsed, 'help')) {
      io.stdout.write(helpText(INDEX));
      return ExitCode.ok;
    }
    if (parsed.positionals.length > 0) throw new CliUsageError(`unexpected argument: ${parsed.positionals[0]}`);
    const spec = embedderSpecOf(stringOption(parsed, 'embedder'), io.env) ?? DEFAULT_INDEX_EMBEDDER;
    const { runIndex } = await import('./index-run.js');
    return await runIndex(
      {
        store: stringOption(parsed, 'store'),
        dir: stringOption(parsed, 'dir'),
        repo: stringOption(parsed, 'repo'),
        spec,
        json,
      },
      io,
    );
  } catch (error) {
    return reportError(error, io, helpText(INDEX), json);
  }
}
