// Why: `repomem completion <bash|zsh|fish>` prints the shell's completion script, generated from
// the whole command tree (every declaration is loaded: this runs once, at install time).
import { CliUsageError, ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { reportError } from '../report-error.js';
import { completionScript, loadTree, SHELLS, type Shell } from '../tree/completion.js';
import { COMPLETION } from '../tree/decl/completion.js';
import { helpText } from '../tree/help.js';
import { parseCommand } from '../tree/parse-command.js';

/** Run `repomem completion <shell>`; returns the exit code. */
export async function runCompletionCommand(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { positionals } = parseCommand(COMPLETION, argv);
    const shell = positionals[0];
    if (shell === undefined) throw new CliUsageError(`missing shell: ${SHELLS.join(', ')}`);
    if (!(SHELLS as readonly string[]).includes(shell)) {
      throw new CliUsageError(`unknown shell: ${shell} (expected ${SHELLS.join(', ')})`);
    }
    io.stdout.write(completionScript(shell as Shell, await loadTree()));
    return ExitCode.ok;
  } catch (error) {
    return reportError(error, io, helpText(COMPLETION), false);
  }
}
