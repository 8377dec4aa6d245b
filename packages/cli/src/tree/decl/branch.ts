// Why: the git memory branch commands (history, checkpoint, bootstrap, mount, commit, push,
// state), declared once; they share one module as their implementation does.
import { type CommandDecl, defineCommand } from '../types.js';
import { JSON_OUTPUT } from './common.js';

const GIT_STORE = {
  type: 'string',
  value: 'spec',
  description: 'git:<repo-dir>[#<branch>] (default branch agent/memory), or $REPOMEM_STORE',
} as const;
const JSON_RESULT = { ...JSON_OUTPUT, description: 'Print one JSON object: { ok, outcome, ... }' } as const;
const INTO = { type: 'string', value: 'dir', complete: 'directory' } as const;
const TRAILER = { type: 'string', value: 'K=V', multiple: true } as const;

const load =
  (name: 'history' | 'checkpoint' | 'bootstrap' | 'mount' | 'commit' | 'push' | 'state'): CommandDecl['load'] =>
  async () =>
    (await import('../../commands/branch.js')).branchCommand(name);

/** `repomem history`. */
export const HISTORY = defineCommand({
  name: 'history',
  usage: ['[path] --store git:<repo-dir>[#<branch>] [--limit <n>] [--json]'],
  description: `Lists the commits of the memory branch, newest first, with their trailers; with a path, only the
commits that changed that document ("what did the agent know, and when?").`,
  positionals: [{ name: 'path', complete: 'file', description: 'Only the commits that changed this document' }],
  options: {
    limit: { type: 'integer', value: 'n', description: 'At most n revisions' },
    store: GIT_STORE,
    json: JSON_RESULT,
  },
  examples: [
    {
      command: 'history MEMORY.md --store git:. --limit 5',
      description: 'The last five commits that changed MEMORY.md',
    },
  ],
  load: load('history'),
});

/** `repomem checkpoint`. */
export const CHECKPOINT = defineCommand({
  name: 'checkpoint',
  usage: ['<note...> (--store git:<repo-dir>[#<branch>] | --into <mount>) [--trailer K=V] [--json]'],
  description: `Commits a "checkpoint: <note>" moment: a commit with a fixed, greppable message marking a point
in the memory's history. With --into, the changes made in a mounted directory are committed under
that message; without, the store commits nothing new unless there are changes (no empty commits),
and says so.`,
  positionals: [{ name: 'note', variadic: true, description: 'The checkpoint note' }],
  options: {
    into: { ...INTO, description: 'A directory made by repomem mount' },
    trailer: { ...TRAILER, description: 'Attribution trailer (Task-Id=42, Prompt-Version=3...); repeatable' },
    store: GIT_STORE,
    json: JSON_RESULT,
  },
  examples: [
    { command: 'checkpoint before the migration --store git:.', description: 'Mark a point in the memory history' },
  ],
  load: load('checkpoint'),
});

/** `repomem bootstrap`. */
export const BOOTSTRAP = defineCommand({
  name: 'bootstrap',
  usage: ['--store git:<repo-dir>[#<branch>] [--json]'],
  description: `Creates the memory branch with the seeded tree in one root commit. Fails (exit 2) when the branch
exists; repomem init --store git:... adds missing seed files to an existing branch. Never pushes.`,
  options: { store: GIT_STORE, json: JSON_RESULT },
  examples: [
    { command: 'bootstrap --store git:.#agent/memory', description: 'Create the memory branch of this clone' },
  ],
  load: load('bootstrap'),
});

/** `repomem mount`. */
export const MOUNT = defineCommand({
  name: 'mount',
  usage: ['--into <dir> --store git:<repo-dir>[#<branch>] [--json]'],
  description: `Materialises the branch into <dir> so agents edit it with ordinary tools (repomem update --dir <dir>
works there); mounting again brings it up to the branch tip, keeping local edits. A local edit to a
file the branch also changed is a conflict (exit 2, nothing written).`,
  options: {
    into: { ...INTO, description: 'Mount directory (created when missing)' },
    store: GIT_STORE,
    json: JSON_RESULT,
  },
  examples: [{ command: 'mount --into memory --store git:.', description: 'Mount the memory branch into ./memory' }],
  load: load('mount'),
});

/** `repomem commit`. */
export const COMMIT = defineCommand({
  name: 'commit',
  usage: ['--into <dir> [-m <message>] [--trailer K=V] [--json]'],
  description: `Commits what changed in a mounted directory to its branch, after the gates: files over 1 MiB,
secrets (.env*, *.pem, *.key...), ignored paths and symlinks are skipped with a warning. Nothing
changed: no commit. The branch changed the same file differently since the mount: conflict (exit 2).`,
  options: {
    into: { ...INTO, description: 'The mount directory' },
    message: {
      type: 'string',
      short: 'm',
      value: 'msg',
      description: 'Commit message (default "chore(memory): update memory")',
    },
    trailer: { ...TRAILER, description: 'Attribution trailer; repeatable' },
    store: GIT_STORE,
    json: JSON_RESULT,
  },
  examples: [
    {
      command: 'commit --into memory -m "memory: note the release steps" --trailer Task-Id=42',
      description: 'Commit the mounted edits',
    },
  ],
  load: load('commit'),
});

/** `repomem push`. */
export const PUSH = defineCommand({
  name: 'push',
  usage: ['--store git:<repo-dir>[#<branch>] [--remote <name> | --url <url>] [--json]'],
  description: `Syncs the memory branch with the remote (default origin, smart HTTP): fetches, pushes, and when
someone else pushed first, re-applies this repository's commits on the new tip and pushes again
(a conflict on the same lines is resolved in favour of this run and reported). No edit is lost: on
failure the local commits are kept. $GITHUB_TOKEN, when set, authenticates.`,
  options: {
    remote: { type: 'string', value: 'name', description: 'Configured remote (default origin)' },
    url: { type: 'string', value: 'url', description: 'An http(s) URL instead of a configured remote' },
    store: GIT_STORE,
    json: JSON_RESULT,
  },
  examples: [{ command: 'push --store git:.', description: 'Push the memory branch to origin' }],
  load: load('push'),
});

/** `repomem state`. */
export const STATE = defineCommand({
  name: 'state',
  usage: [
    'read --ref <sync|scan|thread:<key>> --store git:<repo-dir> [--repo <o/n>] [--json]',
    'write --ref <...> (--state <json> | --file <path>) [--expected <commit>|none] --store git:<repo-dir>',
  ],
  description: `Reads or writes the state refs kept off the memory branch: refs/agent-memory-state/sync,
refs/agent-memory-state/scan and refs/agent-state/<encoded thread key>. read prints the state JSON
(exit 2 when there is none, it belongs to another repository, or it is invalid: start fresh).
write validates the state and updates the ref with compare-and-swap: --expected is the commit your
read returned (none: the ref must not exist); without it the current commit is used.`,
  subcommands: [
    { name: 'read', summary: 'Print the state JSON' },
    { name: 'write', summary: 'Validate a state and update its ref with compare-and-swap' },
  ],
  options: {
    ref: {
      type: 'string',
      value: 'name',
      choices: ['sync', 'scan'],
      description: 'sync, scan, or thread:<owner/repo:kind:number:route:lane>',
    },
    repo: {
      type: 'string',
      value: 'o/n',
      description: "This repository (default $GITHUB_REPOSITORY): another repository's state is ignored",
    },
    state: { type: 'string', value: 'json', description: 'The state to write' },
    file: { type: 'string', value: 'path', complete: 'file', description: 'A file holding the state JSON' },
    expected: { type: 'string', value: 'c', description: 'Commit the ref must hold now, or none' },
    store: GIT_STORE,
    json: JSON_RESULT,
  },
  examples: [
    { command: 'state read --ref sync --store git:.', description: 'The sync cursors' },
    {
      command: 'state write --ref scan --file scan.json --expected none --store git:.',
      description: 'Create the scan state',
    },
  ],
  load: load('state'),
});
