// Why: Sepo's workflows call four support CLIs besides search and update (`bootstrap-branch`,
// `read-sync-state`, `write-sync-state`, `resolve-policy`). These are their counterparts with
// Sepo's arguments, environment, step outputs and stdout shapes, so a workflow step switches
// binaries by changing one word (`node .agent/dist/cli/memory/read-sync-state.js` becomes
// `repomem read-sync-state`). State goes through the store-neutral `store.state` API.
import { type JsonValue, parseSyncState, resolveMemoryMode } from '@repomem/core';
import { CliUsageError, ExitCode } from '../errors.js';
import { setStepOutput } from '../github-output.js';
import type { CliIo } from '../io.js';
import { cliRegistry } from '../store-registry.js';
import { commandRunner } from '../tree/command-runner.js';
import { BOOTSTRAP_BRANCH, READ_SYNC_STATE, RESOLVE_POLICY, WRITE_SYNC_STATE } from '../tree/decl/sepo.js';
import type { ArgsOf, CommandRunner } from '../tree/types.js';
import { checkedOutBranch, findRepositoryRoot, hasRef, remoteSlug } from './git-repository.js';

/** Sepo's support commands that repomem provides under the same names. */
export type SepoSupportCommand = 'bootstrap-branch' | 'read-sync-state' | 'write-sync-state' | 'resolve-policy';

function firstSet(...values: readonly (string | undefined)[]): string {
  for (const value of values) if (value !== undefined && value !== '') return value;
  return '';
}

/** `repomem bootstrap-branch [--repo <slug>] [--branch <name>] [--remote <name>]` (Sepo's memory/bootstrap-branch.js). */
async function bootstrapBranch({ options }: ArgsOf<typeof BOOTSTRAP_BRANCH.options>, io: CliIo): Promise<number> {
  const root = findRepositoryRoot(io.cwd);
  const remote = firstSet(options.remote, 'origin');
  const branch = firstSet(options.branch, 'agent/memory');
  const repo = firstSet(options.repo, io.env.REPO_SLUG, io.env.GITHUB_REPOSITORY) || remoteSlug(root, remote);
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
async function readSyncState(_args: ArgsOf<typeof READ_SYNC_STATE.options>, io: CliIo): Promise<number> {
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
async function writeSyncState(_args: ArgsOf<typeof WRITE_SYNC_STATE.options>, io: CliIo): Promise<number> {
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
async function resolvePolicy({ options }: ArgsOf<typeof RESOLVE_POLICY.options>, io: CliIo): Promise<number> {
  const resolution = resolveMemoryMode({
    policy: io.env.AGENT_MEMORY_POLICY,
    route: firstSet(options.route, io.env.ROUTE),
    override: firstSet(options.override, io.env.MEMORY_MODE_OVERRIDE, io.env.INPUT_MEMORY_MODE_OVERRIDE),
  });
  for (const diagnostic of resolution.diagnostics) io.stderr.write(`${diagnostic}\n`);
  const writeEnabled = resolution.mode === 'enabled';
  setStepOutput(io, 'memory_mode', resolution.mode);
  setStepOutput(io, 'write_enabled', String(writeEnabled));
  io.stdout.write(`memory mode: ${resolution.mode}; write_enabled=${writeEnabled}\n`);
  return ExitCode.ok;
}

/**
 * The runner of one of Sepo's support commands: typed arguments from its declaration; errors are
 * reported like every command's (as text: these commands have no --json).
 */
export function sepoSupportCommand(name: SepoSupportCommand): CommandRunner {
  switch (name) {
    case 'bootstrap-branch':
      return commandRunner(BOOTSTRAP_BRANCH, bootstrapBranch);
    case 'read-sync-state':
      return commandRunner(READ_SYNC_STATE, readSyncState);
    case 'write-sync-state':
      return commandRunner(WRITE_SYNC_STATE, writeSyncState);
    case 'resolve-policy':
      return commandRunner(RESOLVE_POLICY, resolvePolicy);
  }
}
