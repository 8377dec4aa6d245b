// Why: the boilerplate every command repeated (read `--json` early, parse, answer `--help`,
// report a thrown error with the command's usage and the right exit code) lives here once: a
// command declares itself and writes only what it does with its typed arguments.
import { ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { reportError, wantsJson } from '../report-error.js';
import { asksForHelp, helpText } from './help.js';
import { type ParseCommandOptions, parseCommand } from './parse-command.js';
import type { ArgsOf, CommandDecl, CommandRunner, OptionDecls } from './types.js';

/**
 * The runner of a declared command: `run` receives the typed arguments of `decl` (see
 * {@link parseCommand}) and returns the exit code; `--help` prints the declaration's help, and
 * anything thrown is reported like every command's error (usage errors with the help, exit 1;
 * one JSON object under `--json` when the command declares it). `how` is passed to {@link parseCommand} (a command whose
 * subcommand messages predate the tree reports a missing or unknown one itself).
 */
export function commandRunner<O extends OptionDecls>(
  decl: CommandDecl<O>,
  run: (args: ArgsOf<O>, io: CliIo) => Promise<number>,
  how: ParseCommandOptions = {},
): CommandRunner {
  return async (argv, io) => {
    // A command without a --json option reports as text (`--json` is then an unknown option).
    const json = Object.hasOwn(decl.options, 'json') && wantsJson(argv);
    try {
      if (asksForHelp(decl, argv)) {
        io.stdout.write(helpText(decl));
        return ExitCode.ok;
      }
      return await run(parseCommand(decl, argv, how), io);
    } catch (error) {
      return reportError(error, io, helpText(decl), json);
    }
  };
}
