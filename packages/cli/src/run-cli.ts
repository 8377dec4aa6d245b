// Why: the single entry of the `repomem` command: picks the command, handles `--help` and
// `--version`, and always returns an exit code instead of exiting, so it can be embedded and
// tested in-process.
import { runInitCommand } from './commands/init.js';
import { runSearchCommand } from './commands/search.js';
import { runUpdateCommand } from './commands/update.js';
import { ExitCode } from './errors.js';
import type { CliIo } from './io.js';
import { INIT_USAGE, MAIN_USAGE, SEARCH_USAGE, UPDATE_USAGE } from './usage.js';
import { CLI_VERSION } from './version.js';

const COMMANDS: Readonly<
  Record<string, { run: (argv: readonly string[], io: CliIo) => Promise<number>; usage: string }>
> = {
  update: { run: runUpdateCommand, usage: UPDATE_USAGE },
  search: { run: runSearchCommand, usage: SEARCH_USAGE },
  init: { run: runInitCommand, usage: INIT_USAGE },
};

function defaultIo(io: Partial<CliIo> | undefined): CliIo {
  return {
    stdout: io?.stdout ?? process.stdout,
    stderr: io?.stderr ?? process.stderr,
    env: io?.env ?? process.env,
    cwd: io?.cwd ?? process.cwd(),
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
  const [command, ...rest] = argv;
  try {
    if (command === undefined) {
      resolved.stderr.write(`missing command\n\n${MAIN_USAGE}`);
      return ExitCode.usage;
    }
    if (command === '-h' || command === '--help') {
      resolved.stdout.write(MAIN_USAGE);
      return ExitCode.ok;
    }
    if (command === '-v' || command === '--version') {
      resolved.stdout.write(`${CLI_VERSION}\n`);
      return ExitCode.ok;
    }
    if (command === 'help') {
      const topic = rest[0];
      const entry = topic === undefined ? undefined : COMMANDS[topic];
      if (topic !== undefined && entry === undefined) {
        resolved.stderr.write(`unknown command: ${topic}\n\n${MAIN_USAGE}`);
        return ExitCode.usage;
      }
      resolved.stdout.write(entry?.usage ?? MAIN_USAGE);
      return ExitCode.ok;
    }
    const entry = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (entry === undefined) {
      resolved.stderr.write(`unknown command: ${command}\n\n${MAIN_USAGE}`);
      return ExitCode.usage;
    }
    return await entry.run(rest, resolved);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    resolved.stderr.write(`repomem: unexpected error: ${detail}\n`);
    return ExitCode.usage;
  }
}
