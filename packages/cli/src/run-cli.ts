// Why: the single entry of the `repomem` command: picks the command from the command tree
// (tree/root.ts), answers `--help`, `help <command>` and `--version` from the declarations, and
// always returns an exit code instead of exiting, so it can be embedded and tested in-process.
// A command's declaration and implementation are loaded on demand, and each store package only
// when its scheme is used, so `repomem search --dir` never loads the SQLite or git stores or
// another command's help (a smaller cold start).
import { ExitCode } from './errors.js';
import { terminalSafe } from './format/terminal-text.js';
import type { CliIo } from './io.js';
// Static: every command loads it (its parser table and help); a dynamic import would add a file.
import { asksForHelp, helpText } from './tree/help.js';
import { rootEntry, rootHelp } from './tree/root.js';
import { CLI_VERSION } from './version.js';

/** Store options that may come before the command (`repomem --store sqlite:a.db search q`). */
const LEADING_OPTIONS: ReadonlySet<string> = new Set(['--store', '--dir', '--repo']);

/**
 * Move leading store options (`--store <spec>`, `--dir <path>`, `--repo <o/n>`, or their
 * `--name=value` forms) after the command name, where the command parses them like its own.
 */
export function hoistLeadingOptions(argv: readonly string[]): readonly string[] {
  let index = 0;
  while (index < argv.length) {
    const token = argv[index] as string;
    const equals = token.indexOf('=');
    if (!LEADING_OPTIONS.has(equals === -1 ? token : token.slice(0, equals))) break;
    index += equals === -1 ? 2 : 1;
  }
  if (index === 0) return argv;
  // Options but no command: nothing to run (reported as a missing command).
  if (index >= argv.length) return [];
  return [argv[index] as string, ...argv.slice(0, index), ...argv.slice(index + 1)];
}

function defaultIo(io: Partial<CliIo> | undefined): CliIo {
  return {
    // Memory text may hold terminal escapes: printed as visible \uXXXX (see terminal-text.ts).
    stdout: terminalSafe(io?.stdout ?? process.stdout),
    stderr: terminalSafe(io?.stderr ?? process.stderr),
    env: io?.env ?? process.env,
    cwd: io?.cwd ?? process.cwd(),
    ...(io?.stdin === undefined ? {} : { stdin: io.stdin }),
  };
}

/**
 * Run the `repomem` command line in-process.
 *
 * @param argv - Arguments after the program name, e.g. `['search', '--dir', 'memory', 'flaky test']`.
 * @param io - Streams, environment and working directory; each defaults to the current process's.
 * @returns The exit code: 0 success (including "no change"), 2 caller-fixable problem (no match,
 *   ambiguous match, missing section, bad memory directory, read-only), 1 usage or unexpected error.
 *   Never throws and never calls `process.exit`.
 *
 * @example
 * ```ts
 * const code = await runCli(['update', 'add', '--dir', 'memory', '--file', 'MEMORY.md', '--section', 'Durable', 'Use pnpm']);
 * ```
 */
export async function runCli(argv: readonly string[], io?: Partial<CliIo>): Promise<number> {
  const resolved = defaultIo(io);
  const [command, ...rest] = hoistLeadingOptions(argv);
  try {
    if (command === undefined) {
      resolved.stderr.write(`missing command\n\n${rootHelp()}`);
      return ExitCode.usage;
    }
    if (command === '-h' || command === '--help') {
      resolved.stdout.write(rootHelp());
      return ExitCode.ok;
    }
    if (command === '-v' || command === '--version') {
      resolved.stdout.write(`${CLI_VERSION}\n`);
      return ExitCode.ok;
    }
    if (command === 'help') {
      // `help --help` is the help of `help`.
      const topic = rest[0] === '-h' || rest[0] === '--help' ? 'help' : rest[0];
      if (topic === undefined) {
        resolved.stdout.write(rootHelp());
        return ExitCode.ok;
      }
      const entry = rootEntry(topic);
      if (entry === undefined) {
        resolved.stderr.write(`unknown command: ${topic}\n\n${rootHelp()}`);
        return ExitCode.usage;
      }
      resolved.stdout.write(helpText(await entry.declaration()));
      return ExitCode.ok;
    }
    const entry = rootEntry(command);
    if (entry === undefined) {
      resolved.stderr.write(`unknown command: ${command}\n\n${rootHelp()}`);
      return ExitCode.usage;
    }
    const declaration = await entry.declaration();
    // `<command> --help` is answered from the declaration, before the implementation loads.
    if (asksForHelp(declaration, rest)) {
      resolved.stdout.write(helpText(declaration));
      return ExitCode.ok;
    }
    const run = await declaration.load();
    return await run(rest, resolved);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    resolved.stderr.write(`repomem: unexpected error: ${detail}\n`);
    return ExitCode.usage;
  }
}
