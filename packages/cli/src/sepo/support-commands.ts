// Why: Sepo's workflows call four support CLIs besides search and update (`bootstrap-branch`,
// `read-sync-state`, `write-sync-state`, `resolve-policy`). These are their counterparts with
// Sepo's arguments, environment, step outputs and stdout shapes, so a workflow step switches
// binaries by changing one word (`node .agent/dist/cli/memory/read-sync-state.js` becomes
// `repomem read-sync-state`). State goes through the store-neutral `store.state` API.
import { type JsonValue, parseSyncState, resolveMemoryMode } from '@repomem/core';
import { booleanOption, parseArguments, stringOption } from '../args.js';
import { CliUsageError, ExitCode } from '../errors.js';
import { setStepOutput } from '../github-output.js';
import type { CliIo } from '../io.js';
import { reportError } from '../report-error.js';
import { cliRegistry } from '../store-registry.js';
import { BOOTSTRAP_BRANCH, READ_SYNC_STATE, RESOLVE_POLICY, WRITE_SYNC_STATE } from '../tree/decl/sepo.js';
import { helpText, optionSpecsOf } from '../tree/help.js';
import type { CommandDecl } from '../tree/types.js';
import { checkedOutBranch, findRepositoryRoot, hasRef, remoteSlug } from './git-repository.js';

type Runner = (argv: readonly string[], io: CliIo) => Promise<number>;

/** Sepo's support commands that repomem provides under the same names. */
export type SepoSupportCommand = 'bootstrap-branch' | 'read-sync-state' | 'write-sync-state' | 'resolve-policy';

/** The declaration of each (options, help). */
const DECLS: Readonly<Record<SepoSupportCommand, CommandDecl>> = {
  'bootstrap-branch': BOOTSTRAP_BRANCH,
  'read-sync-state': READ_SYNC_STATE,
  'write-sync-state': WRITE_SYNC_STATE,
  'resolve-policy': RESOLVE_POLICY,
};

const usageOf = (name: SepoSupportCommand): string => helpText(DECLS[name]);

function firstSet(...values: readonly (string | undefined)[]): string {
  for (const value of values) if (value !== undefined && value !== '') return value;
  return '';
}

/** `repomem bootstrap-branch [--repo <slug>] [--branch <name>] [--remote <name>]` (Sepo's memory/bootstrap-branch.js). */
async function bootstrapBranch(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArguments(argv, optionSpecsOf(BOOTSTRAP_BRANCH));
  if (booleanOption(parsed, 'help')) {
    io.stdout.write(usageOf('bootstrap-branch'));
    return ExitCode.ok;
  }
  if (parsed.positionals.length > 0) throw new CliUsageError(`unexpected argument: ${parsed.positionals[0]}`);
  const root = findRepositoryRoot(io.cwd);
  const remote = firstSet(stringOption(parsed, 'remote'), 'origin');
  const branch = firstSet(stringOption(parsed, 'branch'), 'agent/memory');
  const repo =
    firstSet(stringOption(parsed, 'repo'), io.env.REPO_SLUG, io.env.GITHUB_REPOSITORY) || remoteSlug(root, remote);
  if (!repo.includes('/')) {
    throw new CliUsageError(
      `Missing or invalid repository slug (got: ${repo || 'empty'}).\nPass --repo <owner/repo> or configure a GitHub origin remote.`,
    );
  }
  if (checkedOutBranch(root) === branch) {
    io.stderr.write(
      `Branch ${branch} is already checked out in the current worktree.\nSwitch to another branch before rerunning bootstrap.\n`,
    );
    return ExitCode.usage;
  }
  if (!hasRef(root, `refs/heads/${branch}`) && hasRef(root, `refs/remotes/${remote}/${branch}`)) {
    // Sepo starts the local branch from the remote one; repomem never starts a second history.
    io.stderr.write(
      `Branch ${branch} exists on ${remote} but not locally.\nCreate it first: git branch ${branch} ${remote}/${branch}\n`,
    );
    return ExitCode.usage;
  }
  const git = await import('@repomem/store-git');
  const outcome = await git.initMemoryBranch({ dir: root, branch });
  io.stdout.write(
    `${JSON.stringify(
      {
        repoRoot: root,
        repo,
        branch,
        remote,
        createdBranch: outcome.status === 'created',
        committed: outcome.status !== 'unchanged',
        createdFiles: outcome.created,
        migratedFiles: [],
        nextStep: `git push ${remote} ${branch}`,
      },
      null,
      2,
    )}\n`,
  );
  return ExitCode.ok;
}

/** The git store of the repository Sepo's sync-state CLIs act on (`$GITHUB_WORKSPACE`, else the working directory). */
async function openWorkspaceStore(io: CliIo) {
  const root = findRepositoryRoot(firstSet(io.env.GITHUB_WORKSPACE, io.cwd));
  return cliRegistry.openStore(`git:${root}`, { cwd: io.cwd, env: io.env, repo: 'local/default', readOnly: false });
}

function syncRepo(io: CliIo): string {
  return firstSet(io.env.GITHUB_REPOSITORY, io.env.REPO_SLUG);
}

/** The `repo_slug` a state names (used when no repository is known: any state is then read). */
function ownRepo(value: unknown): string {
  const slug = (value as { repo_slug?: unknown } | null)?.repo_slug;
  return typeof slug === 'string' && /^[^/\s]+\/[^/\s]+$/.test(slug) ? slug : 'local/default';
}

/** The sync state as Sepo normalises it (every field present, `commits` cursor included). */
function sepoSyncState(state: Record<string, unknown>): Record<string, unknown> {
  const cursors = (state.cursors ?? {}) as Record<string, unknown>;
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return {
    ...state,
    schema_version: 1,
    cursors: {
      ...cursors,
      issues: text(cursors.issues),
      pulls: text(cursors.pulls),
      discussions: text(cursors.discussions),
      commits: text(cursors.commits),
    },
  };
}

/** `repomem read-sync-state` (Sepo's memory/read-sync-state.js): step outputs and the state JSON (or `{}`). */
async function readSyncState(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArguments(argv, optionSpecsOf(READ_SYNC_STATE));
  if (booleanOption(parsed, 'help')) {
    io.stdout.write(usageOf('read-sync-state'));
    return ExitCode.ok;
  }
  if (parsed.positionals.length > 0) throw new CliUsageError(`unexpected argument: ${parsed.positionals[0]}`);
  const store = await openWorkspaceStore(io);
  let state: Record<string, unknown> | undefined;
  try {
    const entry = await store.state.get('sync');
    const repo = syncRepo(io);
    // Sepo ignores a state of another repository (fresh cursor); without a repository any is read.
    const parsedState = entry === undefined ? undefined : parseSyncState(entry.value, repo || ownRepo(entry.value));
    if (parsedState?.ok) state = sepoSyncState(parsedState.state as Record<string, unknown>);
    else if (parsedState !== undefined && parsedState.reason !== 'missing') io.stderr.write(`${parsedState.message}\n`);
  } finally {
    await store.close();
  }
  const cursors = (state?.cursors ?? {}) as Record<string, string>;
  setStepOutput(io, 'found', state === undefined ? 'false' : 'true');
  setStepOutput(io, 'last_sync_at', String(state?.last_sync_at ?? ''));
  setStepOutput(io, 'issue_cursor', cursors.issues ?? '');
  setStepOutput(io, 'pull_cursor', cursors.pulls ?? '');
  setStepOutput(io, 'discussion_cursor', cursors.discussions ?? '');
  setStepOutput(io, 'commit_cursor', cursors.commits ?? '');
  setStepOutput(io, 'last_run_url', String(state?.last_run_url ?? ''));
  io.stdout.write(state === undefined ? '{}\n' : `${JSON.stringify(state, null, 2)}\n`);
  return ExitCode.ok;
}

/** `repomem write-sync-state` (Sepo's memory/write-sync-state.js): cursors from `SYNC_*`, compare-and-swap write. */
async function writeSyncState(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArguments(argv, optionSpecsOf(WRITE_SYNC_STATE));
  if (booleanOption(parsed, 'help')) {
    io.stdout.write(usageOf('write-sync-state'));
    return ExitCode.ok;
  }
  if (parsed.positionals.length > 0) throw new CliUsageError(`unexpected argument: ${parsed.positionals[0]}`);
  setStepOutput(io, 'written', 'false');
  const repo = firstSet(io.env.REPO_SLUG, io.env.GITHUB_REPOSITORY);
  const lastSyncAt = firstSet(io.env.SYNC_LAST_SYNC_AT);
  if (repo === '') {
    io.stderr.write('Missing REPO_SLUG or GITHUB_REPOSITORY\n');
    return ExitCode.failed;
  }
  if (lastSyncAt === '') {
    io.stderr.write('Missing SYNC_LAST_SYNC_AT\n');
    return ExitCode.failed;
  }
  const store = await openWorkspaceStore(io);
  try {
    for (;;) {
      const entry = await store.state.get('sync');
      const current = entry === undefined ? undefined : parseSyncState(entry.value, repo);
      const now = new Date().toISOString();
      const existing = current?.ok
        ? sepoSyncState(current.state as Record<string, unknown>)
        : sepoSyncState({ repo_slug: repo, last_sync_at: '', last_activity_at: '', last_run_url: '', created_at: now });
      const cursors = existing.cursors as Record<string, string>;
      const next = {
        ...existing,
        last_sync_at: lastSyncAt,
        last_activity_at: firstSet(io.env.SYNC_LAST_ACTIVITY_AT, existing.last_activity_at as string, lastSyncAt),
        last_run_url: io.env.SYNC_LAST_RUN_URL ?? '',
        cursors: {
          ...cursors,
          issues: firstSet(io.env.SYNC_ISSUE_CURSOR, cursors.issues),
          pulls: firstSet(io.env.SYNC_PULL_CURSOR, cursors.pulls),
          discussions: firstSet(io.env.SYNC_DISCUSSION_CURSOR, cursors.discussions),
          commits: firstSet(io.env.SYNC_COMMIT_CURSOR, cursors.commits),
        },
        updated_at: now,
      };
      const result = await store.state.put('sync', next as JsonValue, entry?.version ?? null);
      // Someone wrote between the read and the write: read their state and apply ours again.
      if (result.status === 'conflict') continue;
      setStepOutput(io, 'written', 'true');
      io.stdout.write(`${JSON.stringify(next, null, 2)}\n`);
      return ExitCode.ok;
    }
  } finally {
    await store.close();
  }
}

/** `repomem resolve-policy [--route R]`: the effective memory mode and the step outputs `memory_mode`, `write_enabled`. */
async function resolvePolicy(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArguments(argv, optionSpecsOf(RESOLVE_POLICY));
  if (booleanOption(parsed, 'help')) {
    io.stdout.write(usageOf('resolve-policy'));
    return ExitCode.ok;
  }
  if (parsed.positionals.length > 0) throw new CliUsageError(`unexpected argument: ${parsed.positionals[0]}`);
  const resolution = resolveMemoryMode({
    policy: io.env.AGENT_MEMORY_POLICY,
    route: firstSet(stringOption(parsed, 'route'), io.env.ROUTE),
    override: firstSet(
      stringOption(parsed, 'override'),
      io.env.MEMORY_MODE_OVERRIDE,
      io.env.INPUT_MEMORY_MODE_OVERRIDE,
    ),
  });
  for (const diagnostic of resolution.diagnostics) io.stderr.write(`${diagnostic}\n`);
  const writeEnabled = resolution.mode === 'enabled';
  setStepOutput(io, 'memory_mode', resolution.mode);
  setStepOutput(io, 'write_enabled', String(writeEnabled));
  io.stdout.write(`memory mode: ${resolution.mode}; write_enabled=${writeEnabled}\n`);
  return ExitCode.ok;
}

const RUNNERS: Readonly<Record<SepoSupportCommand, Runner>> = {
  'bootstrap-branch': bootstrapBranch,
  'read-sync-state': readSyncState,
  'write-sync-state': writeSyncState,
  'resolve-policy': resolvePolicy,
};

/** The runner of one of Sepo's support commands; errors are reported like every command's. */
export function sepoSupportCommand(name: SepoSupportCommand): Runner {
  return async (argv, io) => {
    try {
      return await RUNNERS[name](argv, io);
    } catch (error) {
      return reportError(error, io, usageOf(name), false);
    }
  };
}
