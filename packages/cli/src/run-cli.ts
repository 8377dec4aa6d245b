// Why: the single entry of the `repomem` command: picks the command, handles `--help` and
// `--version`, and always returns an exit code instead of exiting, so it can be embedded and
// tested in-process. Commands are loaded on demand, and each store package only when its scheme
// is used, so `repomem search --dir` never loads the SQLite or git stores (a smaller cold start).
import type { BranchCommand } from './commands/branch-args.js';
import { ExitCode } from './errors.js';
import { terminalSafe } from './format/terminal-text.js';
import type { CliIo } from './io.js';
import {
  BRANCH_USAGE,
  CONTEXT_USAGE,
  DOCTOR_USAGE,
  ENVELOPE_USAGE,
  EPISODE_USAGE,
  EXPORT_USAGE,
  GATE_USAGE,
  HOOKS_USAGE,
  IMPORT_USAGE,
  INDEX_USAGE,
  INIT_USAGE,
  LEARNINGS_USAGE,
  MAIN_USAGE,
  MCP_USAGE,
  MEMORIES_USAGE,
  POSTGRES_USAGE,
  PREFS_USAGE,
  RULES_USAGE,
  SEARCH_USAGE,
  SEPO_SUPPORT_USAGE,
  type SepoSupportCommand,
  SYNC_USAGE,
  UPDATE_USAGE,
  WEBHOOK_USAGE,
} from './usage.js';
import { CLI_VERSION } from './version.js';

type CommandRunner = (argv: readonly string[], io: CliIo) => Promise<number>;

/** A git branch command, loaded with the others of its module. */
function branchEntry(name: BranchCommand): { load: () => Promise<CommandRunner>; usage: string } {
  return { load: async () => (await import('./commands/branch.js')).branchCommand(name), usage: BRANCH_USAGE[name] };
}

/** One of Sepo's support commands (bootstrap-branch, read-sync-state...), loaded with the others. */
function sepoEntry(name: SepoSupportCommand): { load: () => Promise<CommandRunner>; usage: string } {
  return {
    load: async () => (await import('./sepo/support-commands.js')).sepoSupportCommand(name),
    usage: SEPO_SUPPORT_USAGE[name],
  };
}

const COMMANDS: Readonly<Record<string, { load: () => Promise<CommandRunner>; usage: string }>> = {
  update: { load: async () => (await import('./commands/update.js')).runUpdateCommand, usage: UPDATE_USAGE },
  search: { load: async () => (await import('./commands/search.js')).runSearchCommand, usage: SEARCH_USAGE },
  index: { load: async () => (await import('./commands/index-command.js')).runIndexCommand, usage: INDEX_USAGE },
  init: { load: async () => (await import('./commands/init.js')).runInitCommand, usage: INIT_USAGE },
  memories: { load: async () => (await import('./commands/memories.js')).runMemoriesCommand, usage: MEMORIES_USAGE },
  context: { load: async () => (await import('./commands/context.js')).runContextCommand, usage: CONTEXT_USAGE },
  episode: { load: async () => (await import('./commands/episode.js')).runEpisodeCommand, usage: EPISODE_USAGE },
  learnings: {
    load: async () => (await import('./commands/learnings.js')).runLearningsCommand,
    usage: LEARNINGS_USAGE,
  },
  prefs: { load: async () => (await import('./commands/prefs.js')).runPrefsCommand, usage: PREFS_USAGE },
  history: branchEntry('history'),
  checkpoint: branchEntry('checkpoint'),
  bootstrap: branchEntry('bootstrap'),
  mount: branchEntry('mount'),
  commit: branchEntry('commit'),
  push: branchEntry('push'),
  state: branchEntry('state'),
  envelope: { load: async () => (await import('./commands/envelope.js')).runEnvelopeCommand, usage: ENVELOPE_USAGE },
  mcp: { load: async () => (await import('./commands/mcp.js')).runMcpCommand, usage: MCP_USAGE },
  gate: { load: async () => (await import('./commands/gate.js')).runGateCommand, usage: GATE_USAGE },
  rules: { load: async () => (await import('./commands/rules.js')).runRulesCommand, usage: RULES_USAGE },
  webhook: { load: async () => (await import('./commands/webhook.js')).runWebhookCommand, usage: WEBHOOK_USAGE },
  hooks: { load: async () => (await import('./commands/hooks.js')).runHooksCommand, usage: HOOKS_USAGE },
  sync: { load: async () => (await import('./commands/sync.js')).runSyncCommand, usage: SYNC_USAGE },
  doctor: { load: async () => (await import('./commands/doctor.js')).runDoctorCommand, usage: DOCTOR_USAGE },
  export: {
    load: async () => {
      const { runTransferCommand } = await import('./commands/transfer.js');
      return (argv, io) => runTransferCommand('export', argv, io);
    },
    usage: EXPORT_USAGE,
  },
  import: {
    load: async () => {
      const { runTransferCommand } = await import('./commands/transfer.js');
      return (argv, io) => runTransferCommand('import', argv, io);
    },
    usage: IMPORT_USAGE,
  },
  postgres: { load: async () => (await import('./commands/postgres.js')).runPostgresCommand, usage: POSTGRES_USAGE },
  'bootstrap-branch': sepoEntry('bootstrap-branch'),
  'read-sync-state': sepoEntry('read-sync-state'),
  'write-sync-state': sepoEntry('write-sync-state'),
  'resolve-policy': sepoEntry('resolve-policy'),
};

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
    const run = await entry.load();
    return await run(rest, resolved);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    resolved.stderr.write(`repomem: unexpected error: ${detail}\n`);
    return ExitCode.usage;
  }
}
