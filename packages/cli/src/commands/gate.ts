// Why: the memory workflows decide whether to run, and whether to commit, from repository
// variables, the event and the state refs (seed 000's gates: AGENT_ENABLED, the schedule policy,
// the scan gate, PR-closed fork safety, the three commit gates). The decisions are core's pure
// functions; this command feeds them from the Actions environment and hands the result to later
// steps as step outputs, so the gates are enforced by repomem itself and not only by a job's `if`.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  type CommitGateDecision,
  decideMemoryCommit,
  isPrClosedCurationAllowed,
  type JsonValue,
  type MemoryStore,
  readAgentEnabled,
  resolveScheduleMode,
  shouldRunScan,
} from '@repomem/core';
import { parseArguments, stringOption } from '../args.js';
import { CliUsageError, ExitCode } from '../errors.js';
import { readGitHubEvent } from '../github-event.js';
import { setStepOutput } from '../github-output.js';
import type { CliIo } from '../io.js';
import { CLI_MAX_CONNECTIONS } from '../open-chosen-store.js';
import { reportError, wantsJson } from '../report-error.js';
import { findRepositoryRoot } from '../sepo/git-repository.js';
import { cliRegistry } from '../store-registry.js';
import { repoOfOrigin } from '../store-selection.js';
import { GATE } from '../tree/decl/gate.js';
import { helpText, optionSpecsOf } from '../tree/help.js';

/** The gates `repomem gate` decides. */
export const GATE_NAMES = ['schedule', 'scan', 'pr-closed', 'commit'] as const;
type GateName = (typeof GATE_NAMES)[number];

/** One decision as printed and as step outputs. */
interface GateOutcome {
  readonly gate: GateName;
  readonly run: boolean;
  readonly reason: string;
  readonly message: string;
  readonly diagnostics: readonly string[];
  readonly outputs: Readonly<Record<string, string>>;
}

const DEFAULT_WORKFLOWS: Readonly<Record<'schedule' | 'scan', string>> = {
  schedule: '',
  scan: 'agent-memory-scan.yml',
};

function firstSet(...values: readonly (string | undefined)[]): string {
  for (const value of values) if (value !== undefined && value !== '') return value;
  return '';
}

/** The store holding the sync and scan state: `--store`, else the workspace repository's state refs. */
async function openStateStore(spec: string | undefined, io: CliIo): Promise<MemoryStore> {
  const chosen = spec ?? `git:${findRepositoryRoot(firstSet(io.env.GITHUB_WORKSPACE, io.cwd))}`;
  return cliRegistry.openStore(chosen, {
    cwd: io.cwd,
    env: io.env,
    repo: 'local/default',
    readOnly: true,
    maxConnections: CLI_MAX_CONNECTIONS,
  });
}

async function readState(store: MemoryStore, key: string): Promise<JsonValue | undefined> {
  return (await store.state.get(key))?.value;
}

function scheduleGate(workflow: string, io: CliIo): GateOutcome {
  const decision = resolveScheduleMode({
    policy: io.env.AGENT_SCHEDULE_POLICY,
    workflow,
    event: io.env.GITHUB_EVENT_NAME,
    agentEnabled: io.env.AGENT_ENABLED,
  });
  return {
    gate: 'schedule',
    run: decision.run,
    reason: decision.reason,
    message: decision.message,
    diagnostics: decision.diagnostics,
    outputs: { mode: decision.mode, check_activity: String(decision.checkActivity) },
  };
}

async function scanGate(workflow: string, storeSpec: string | undefined, io: CliIo): Promise<GateOutcome> {
  const schedule = scheduleGate(workflow, io);
  if (!schedule.run || schedule.outputs.check_activity !== 'true') return { ...schedule, gate: 'scan' };
  const store = await openStateStore(storeSpec, io);
  try {
    // The state of another repository is ignored: this one is $GITHUB_REPOSITORY, $REPO_SLUG,
    // else the clone's origin remote (said on stderr).
    const repo = firstSet(io.env.GITHUB_REPOSITORY, io.env.REPO_SLUG) || (repoOfOrigin(io) ?? '');
    const decision = shouldRunScan({
      syncState: await readState(store, 'sync'),
      scanState: await readState(store, 'scan'),
      event: io.env.GITHUB_EVENT_NAME,
      ...(repo === '' ? {} : { currentRepo: repo }),
    });
    return { ...schedule, gate: 'scan', run: decision.run, reason: decision.reason, message: decision.message };
  } finally {
    await store.close();
  }
}

async function prClosedGate(io: CliIo): Promise<GateOutcome> {
  const paused = readAgentEnabled(io.env.AGENT_ENABLED);
  if (paused.paused) {
    return {
      gate: 'pr-closed',
      run: false,
      reason: 'paused',
      message: 'AGENT_ENABLED is false: every agent workflow is paused',
      diagnostics: paused.diagnostic === undefined ? [] : [paused.diagnostic],
      outputs: {},
    };
  }
  const payload = (await readGitHubEvent(io.env.GITHUB_EVENT_PATH, false)) as { pull_request?: unknown } | undefined;
  const decision = isPrClosedCurationAllowed({ event: io.env.GITHUB_EVENT_NAME ?? '', pr: payload?.pull_request });
  return {
    gate: 'pr-closed',
    run: decision.allowed,
    reason: decision.reason,
    message: decision.message,
    diagnostics: [],
    outputs: {},
  };
}

function commitGate(
  exitCode: string | undefined,
  memoryDir: string | undefined,
  route: string,
  override: string,
  io: CliIo,
): GateOutcome {
  const mounted = memoryDir !== undefined && memoryDir !== '' && findMounted(memoryDir, io);
  const decision: CommitGateDecision = decideMemoryCommit({
    agentExitCode: exitCode,
    memoryMounted: mounted,
    policy: io.env.AGENT_MEMORY_POLICY,
    route,
    override,
  });
  return {
    gate: 'commit',
    run: decision.commit,
    reason: decision.reason,
    message: decision.message,
    diagnostics: decision.diagnostics,
    outputs: { commit: String(decision.commit), memory_mode: decision.mode },
  };
}

/** Memory counts as mounted when the memory directory exists and is a directory. */
function findMounted(memoryDir: string, io: CliIo): boolean {
  try {
    return statSync(resolve(io.cwd, memoryDir)).isDirectory();
  } catch {
    return false;
  }
}

async function decide(gate: GateName, argv: readonly string[], io: CliIo): Promise<GateOutcome> {
  const parsed = parseArguments(argv, optionSpecsOf(GATE));
  if (parsed.positionals.length > 0) throw new CliUsageError(`unexpected argument: ${parsed.positionals[0]}`);
  switch (gate) {
    case 'schedule': {
      const workflow = stringOption(parsed, 'workflow') ?? DEFAULT_WORKFLOWS.schedule;
      if (workflow === '') throw new CliUsageError('gate schedule needs --workflow <file.yml>');
      return scheduleGate(workflow, io);
    }
    case 'scan':
      return scanGate(stringOption(parsed, 'workflow') ?? DEFAULT_WORKFLOWS.scan, stringOption(parsed, 'store'), io);
    case 'pr-closed':
      return prClosedGate(io);
    case 'commit':
      return commitGate(
        stringOption(parsed, 'agent-exit-code'),
        stringOption(parsed, 'memory-dir') ?? io.env.MEMORY_DIR,
        firstSet(stringOption(parsed, 'route'), io.env.ROUTE),
        firstSet(stringOption(parsed, 'override'), io.env.MEMORY_MODE_OVERRIDE),
        io,
      );
  }
}

/** Run `repomem gate <schedule|scan|pr-closed|commit> [options]`; returns the exit code. */
export async function runGateCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const [name, ...rest] = argv;
    if (name === undefined || name === '-h' || name === '--help' || rest.includes('--help') || rest.includes('-h')) {
      io.stdout.write(helpText(GATE));
      return name === undefined ? ExitCode.usage : ExitCode.ok;
    }
    if (!(GATE_NAMES as readonly string[]).includes(name)) {
      throw new CliUsageError(`unknown gate "${name}" (known: ${GATE_NAMES.join(', ')})`);
    }
    const outcome = await decide(name as GateName, rest, io);
    for (const diagnostic of outcome.diagnostics) io.stderr.write(`${diagnostic}\n`);
    setStepOutput(io, 'run', String(outcome.run));
    setStepOutput(io, 'reason', outcome.reason);
    for (const [key, value] of Object.entries(outcome.outputs)) setStepOutput(io, key, value);
    if (json) {
      io.stdout.write(`${JSON.stringify({ ...outcome })}\n`);
    } else {
      io.stdout.write(
        `gate ${outcome.gate}: ${outcome.run ? 'run' : 'skip'} (${outcome.reason}): ${outcome.message}\n`,
      );
    }
    return ExitCode.ok;
  } catch (error) {
    return reportError(error, io, helpText(GATE), json);
  }
}
