// Why: Sepo's support commands that repomem provides under the same names (their argument forms,
// environment, step outputs and output are Sepo's), declared once.
import { type CommandDecl, defineCommand } from '../types.js';

type SepoName = 'bootstrap-branch' | 'read-sync-state' | 'write-sync-state' | 'resolve-policy';

const load =
  (name: SepoName): CommandDecl['load'] =>
  async () =>
    (await import('../../sepo/support-commands.js')).sepoSupportCommand(name);

/** `repomem bootstrap-branch` (Sepo's memory/bootstrap-branch.js). */
export const BOOTSTRAP_BRANCH = defineCommand({
  name: 'bootstrap-branch',
  sepo: true,
  usage: ['[--repo <slug>] [--branch <name>] [--remote <name>]'],
  description: `Creates the local memory branch in the git repository around the working directory, or adds the
seed files it lacks, without touching the checkout (Sepo's memory/bootstrap-branch.js). Prints
{ repoRoot, repo, branch, remote, createdBranch, committed, createdFiles, migratedFiles, nextStep }.
Push it separately when ready.`,
  options: {
    repo: {
      type: 'string',
      value: 'slug',
      description: "Repository slug (default $REPO_SLUG, $GITHUB_REPOSITORY, or the remote's URL)",
    },
    branch: {
      type: 'string',
      value: 'name',
      default: 'agent/memory',
      description: 'Memory branch (default agent/memory)',
    },
    remote: {
      type: 'string',
      value: 'name',
      default: 'origin',
      description: 'Remote used for slug inference and the next-step hint (default origin)',
    },
  },
  examples: [
    { command: 'bootstrap-branch --branch agent/memory', description: 'Create the memory branch of this clone' },
  ],
  load: load('bootstrap-branch'),
});

/** `repomem read-sync-state` (Sepo's memory/read-sync-state.js). */
export const READ_SYNC_STATE = defineCommand({
  name: 'read-sync-state',
  sepo: true,
  usage: [''],
  description: `Reads the sync state (refs/agent-memory-state/sync, state.json) of the git repository at
$GITHUB_WORKSPACE or the working directory, as Sepo's memory/read-sync-state.js: step outputs
found, last_sync_at, issue_cursor, pull_cursor, discussion_cursor, commit_cursor, last_run_url
(appended to $GITHUB_OUTPUT) and the state JSON on stdout ({} when there is none, or when it
belongs to another repository than $GITHUB_REPOSITORY / $REPO_SLUG).`,
  options: {},
  examples: [{ command: 'read-sync-state', description: 'The sync cursors of this clone' }],
  load: load('read-sync-state'),
});

/** `repomem write-sync-state` (Sepo's memory/write-sync-state.js). */
export const WRITE_SYNC_STATE = defineCommand({
  name: 'write-sync-state',
  sepo: true,
  usage: [''],
  description: `Writes the sync state (refs/agent-memory-state/sync) with compare-and-swap, as Sepo's
memory/write-sync-state.js: $SYNC_LAST_SYNC_AT (required), $SYNC_LAST_ACTIVITY_AT,
$SYNC_LAST_RUN_URL, $SYNC_ISSUE_CURSOR, $SYNC_PULL_CURSOR, $SYNC_DISCUSSION_CURSOR,
$SYNC_COMMIT_CURSOR; repository from $REPO_SLUG or $GITHUB_REPOSITORY (required). Step output
written (true/false); the new state JSON on stdout. Missing inputs: exit 2.`,
  options: {},
  examples: [{ command: 'write-sync-state', description: 'Write the cursors given in the SYNC_* environment' }],
  load: load('write-sync-state'),
});

/** `repomem resolve-policy` (Sepo's memory/resolve-policy.js). */
export const RESOLVE_POLICY = defineCommand({
  name: 'resolve-policy',
  sepo: true,
  usage: ['[--route <route>] [--override <mode>]'],
  description: `Resolves the memory mode of a run from $AGENT_MEMORY_POLICY for the route (--route, else $ROUTE),
an override (--override, else $MEMORY_MODE_OVERRIDE or $INPUT_MEMORY_MODE_OVERRIDE) winning.
Step outputs memory_mode (enabled | read-only | disabled) and write_enabled (true | false) are
appended to $GITHUB_OUTPUT; stdout: "memory mode: <mode>; write_enabled=<bool>"; problems on
stderr. An invalid policy or override resolves to disabled (fail closed). Always exit 0.`,
  options: {
    route: { type: 'string', value: 'route', description: 'The route (default $ROUTE)' },
    override: {
      type: 'string',
      value: 'mode',
      choices: ['enabled', 'read-only', 'disabled'],
      description: 'Memory mode override (default $MEMORY_MODE_OVERRIDE, then $INPUT_MEMORY_MODE_OVERRIDE)',
    },
  },
  examples: [{ command: 'resolve-policy --route implement', description: 'The memory mode of the implement route' }],
  load: load('resolve-policy'),
});
