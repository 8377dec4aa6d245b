// Why: the root of the command tree, the only part every start loads: each command's name, the
// one line `repomem --help` and completion show, and a loader of its declaration (each in its own
// module under decl/, so `repomem update add` loads update's declaration and implementation and
// no other command's help or code). The root's own help (stores, environment, exit codes) is
// here too: it is what `repomem --help` prints.
import type { CommandDecl } from './types.js';

/** One command of the root. */
export interface RootEntry {
  readonly name: string;
  /** Its argument forms in the command list (`update <add|replace|remove|daily-append>`). */
  readonly label: string;
  /** One line for `repomem --help` and completion. */
  readonly summary: string;
  /** Sepo's support commands are listed apart. */
  readonly group: 'repomem' | 'sepo';
  /** Loads the command's declaration. */
  readonly declaration: () => Promise<CommandDecl>;
}

const entry = (
  name: string,
  label: string,
  summary: string,
  declaration: () => Promise<CommandDecl>,
  group: RootEntry['group'] = 'repomem',
): RootEntry => ({ name, label, summary, group, declaration });

/** Every command, in the order `repomem --help` lists them. */
export const ROOT: readonly RootEntry[] = [
  entry(
    'update',
    'update <add|replace|remove|daily-append>',
    "Edit bullets in MEMORY.md, PROJECT.md or today's daily log",
    async () => (await import('./decl/update.js')).UPDATE,
  ),
  entry('search', 'search <query...>', 'Search the memory tree', async () => (await import('./decl/search.js')).SEARCH),
  entry(
    'index',
    'index [--embedder E]',
    "Build or refresh the memory's vectors for semantic ranking",
    async () => (await import('./decl/index-command.js')).INDEX,
  ),
  entry('init', 'init', 'Seed the memory tree layout (idempotent)', async () => (await import('./decl/init.js')).INIT),
  entry(
    'memories',
    'memories <subcommand>',
    'Verified memories with code citations (store, recent, verify...)',
    async () => (await import('./decl/memories.js')).MEMORIES,
  ),
  entry(
    'context',
    'context --task "..." [--user U]',
    'Memory context of a task (rules, knowledge, past tasks, preferences); also receipts and diff',
    async () => (await import('./decl/context.js')).CONTEXT,
  ),
  entry(
    'episode',
    'episode <write|get|list>',
    'Task episodes: write at task end, read past ones',
    async () => (await import('./decl/episode.js')).EPISODE,
  ),
  entry(
    'learnings',
    'learnings <add|list>',
    "Record the agent's learnings or self-feedback; list them",
    async () => (await import('./decl/learnings.js')).LEARNINGS,
  ),
  entry(
    'prefs',
    'prefs <set|list> --user U',
    "A user's preferences (PR size, commit style, tests, docs)",
    async () => (await import('./decl/prefs.js')).PREFS,
  ),
  entry(
    'history',
    'history [path]',
    'Commits of a git memory branch (forensic history)',
    async () => (await import('./decl/branch.js')).HISTORY,
  ),
  entry(
    'checkpoint',
    'checkpoint <note>',
    'Commit a "checkpoint: <note>" moment on a git memory branch',
    async () => (await import('./decl/branch.js')).CHECKPOINT,
  ),
  entry(
    'bootstrap',
    'bootstrap',
    'Create the git memory branch with the seeded tree',
    async () => (await import('./decl/branch.js')).BOOTSTRAP,
  ),
  entry(
    'mount',
    'mount --into <dir>',
    'Materialise the git memory branch into a directory',
    async () => (await import('./decl/branch.js')).MOUNT,
  ),
  entry(
    'commit',
    'commit --into <dir> [-m <message>]',
    'Commit what changed in a mounted directory',
    async () => (await import('./decl/branch.js')).COMMIT,
  ),
  entry(
    'push',
    'push',
    'Sync the git memory branch with its remote (never loses an edit)',
    async () => (await import('./decl/branch.js')).PUSH,
  ),
  entry(
    'state',
    'state <read|write> --ref <name>',
    'Read or write the sync, scan and thread state refs',
    async () => (await import('./decl/branch.js')).STATE,
  ),
  entry(
    'envelope',
    'envelope --from-event [--route R]',
    "Build the run's envelope from the GitHub Actions event",
    async () => (await import('./decl/envelope.js')).ENVELOPE,
  ),
  entry(
    'gate',
    'gate <schedule|scan|pr-closed|commit>',
    'Decide whether a memory workflow step runs or commits',
    async () => (await import('./decl/gate.js')).GATE,
  ),
  entry(
    'doctor',
    'doctor',
    'Check that the chosen store works and explain what to fix',
    async () => (await import('./decl/doctor.js')).DOCTOR,
  ),
  entry(
    'export',
    'export --to <spec> [--dry-run]',
    "Copy the chosen store's memory to another store",
    async () => (await import('./decl/transfer.js')).EXPORT,
  ),
  entry(
    'import',
    'import --from <spec> [--dry-run]',
    "Copy another store's memory into the chosen store",
    async () => (await import('./decl/transfer.js')).IMPORT,
  ),
  entry(
    'postgres',
    'postgres policies --role R [--apply]',
    'Row-level security for a PostgreSQL store (print, or apply)',
    async () => (await import('./decl/postgres.js')).POSTGRES,
  ),
  entry(
    'mcp',
    'mcp [--http --port N]',
    'Serve the memory tools to MCP clients (stdio, or Streamable HTTP)',
    async () => (await import('./decl/mcp.js')).MCP,
  ),
  entry(
    'sync',
    'sync github [--repo OWNER/NAME]',
    'Mirror issues, pull requests and discussions into github/<owner>/<repo>/',
    async () => (await import('./decl/sync.js')).SYNC,
  ),
  entry(
    'rules',
    'rules <subcommand>',
    'Review rules: extract from PR reviews, screen, classify, decide',
    async () => (await import('./decl/rules.js')).RULES,
  ),
  entry(
    'webhook',
    'webhook [--delivery F | --body F]',
    'Handle one GitHub webhook delivery (review rules, PR outcomes)',
    async () => (await import('./decl/webhook.js')).WEBHOOK,
  ),
  entry(
    'hooks',
    'hooks <install|uninstall>',
    'Commit attribution: Task-Id and Prompt-Version trailers',
    async () => (await import('./decl/hooks.js')).HOOKS,
  ),
  entry(
    'completion',
    'completion <bash|zsh|fish>',
    'Print the shell completion script (see the CLI README to install it)',
    async () => (await import('./decl/completion.js')).COMPLETION,
  ),
  entry('help', 'help [command]', 'Show the help of a command', async () => (await import('./decl/help.js')).HELP),
  entry(
    'bootstrap-branch',
    'bootstrap-branch [--repo R] [--branch B] [--remote O]',
    'Create or complete the local memory branch',
    async () => (await import('./decl/sepo.js')).BOOTSTRAP_BRANCH,
    'sepo',
  ),
  entry(
    'read-sync-state',
    'read-sync-state',
    'Sync cursors from refs/agent-memory-state/sync',
    async () => (await import('./decl/sepo.js')).READ_SYNC_STATE,
    'sepo',
  ),
  entry(
    'write-sync-state',
    'write-sync-state',
    'Write the sync cursors (SYNC_* environment)',
    async () => (await import('./decl/sepo.js')).WRITE_SYNC_STATE,
    'sepo',
  ),
  entry(
    'resolve-policy',
    'resolve-policy [--route R]',
    'Memory mode for a route (memory_mode, write_enabled)',
    async () => (await import('./decl/sepo.js')).RESOLVE_POLICY,
    'sepo',
  ),
];

/** The root entry named `name`, if any (own names only: `constructor` is not a command). */
export function rootEntry(name: string): RootEntry | undefined {
  return ROOT.find((candidate) => candidate.name === name);
}

const ROOT_FOOTER = `Options:
  -h, --help       Show help (also: repomem <command> --help, repomem help <command>)
  -v, --version    Print the version
  --store, --dir and --repo may also come before the command (repomem --store <spec> search q).

Stores (--store <spec>, or $REPOMEM_STORE; each spec is parsed by its store's package):
  sqlite:<path>                 Embedded SQLite database (created with its directory on first write)
  dir:<path>                    Memory directory (Sepo's layout; same as --dir <path>)
  git:<repo-dir>[#<branch>]     Branch of a git repository, default branch agent/memory
  agentcore:..., postgres:...   Once @repomem/store-agentcore or @repomem/store-postgres is installed
  Order: --store, --dir, $REPOMEM_STORE, $MEMORY_DIR, then sqlite:.repomem/repomem.db at the root
  of the clone around the working directory (outside a clone: in the working directory). --repo
  scopes SQLite stores and the other stores that hold many repositories; default
  $GITHUB_REPOSITORY, then the owner/name of the clone's origin remote (said once on stderr),
  then local/default.

Environment:
  REPOMEM_STORE      Store spec when neither --store nor --dir is given
  MEMORY_DIR         Memory directory when neither --store, --dir nor REPOMEM_STORE is given
  MEMORY_QUERY       Search query when none is given on the command line
  REPOMEM_EMBEDDER   Embedder for semantic ranking: local, openai:<model>, bedrock:<model> (none: lexical)
  GITHUB_REPOSITORY  Repository slug when --repo is not given (before the clone's origin remote)
  GITHUB_TOKEN       Token of the GitHub citation source (memories --source github)

Exit codes: 0 success (including "no change"), 2 caller-fixable problem, 1 usage or unexpected error.
`;

function commandList(group: RootEntry['group']): string {
  const rows = ROOT.filter((item) => item.group === group);
  const column = 42;
  return rows
    .map((item) =>
      item.label.length > column - 1
        ? `  ${item.label}\n  ${' '.repeat(column)}${item.summary}\n`
        : `  ${item.label.padEnd(column)}${item.summary}\n`,
    )
    .join('');
}

/** `repomem --help`: the commands of the tree, then the options, stores and environment. */
export function rootHelp(): string {
  return `Usage: repomem <command> [options]

Commands:
${commandList('repomem')}
Sepo's support commands (same arguments, environment, step outputs and output as Sepo's CLIs):
${commandList('sepo')}
${ROOT_FOOTER}`;
}
