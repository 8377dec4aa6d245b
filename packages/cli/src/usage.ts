// Why: the help texts, kept together so `--help`, usage errors and the README agree.

/** Top-level help: `repomem --help`. */
export const MAIN_USAGE = `Usage: repomem <command> [options]

Commands:
  update <add|replace|remove|daily-append>  Edit bullets in MEMORY.md, PROJECT.md or today's daily log
  search <query...>                         Search the memory tree
  init                                      Seed the memory tree layout (idempotent)
  memories <subcommand>                     Verified memories with code citations (store, recent, verify...)
  history [path]                            Commits of a git memory branch (forensic history)
  checkpoint <note>                         Commit a "checkpoint: <note>" moment on a git memory branch
  bootstrap                                 Create the git memory branch with the seeded tree
  mount --into <dir>                        Materialise the git memory branch into a directory
  commit --into <dir> [-m <message>]        Commit what changed in a mounted directory
  push                                      Sync the git memory branch with its remote (never loses an edit)
  state <read|write> --ref <name>           Read or write the sync, scan and thread state refs

Options:
  -h, --help       Show help (also: repomem <command> --help)
  -v, --version    Print the version
  --store, --dir and --repo may also come before the command (repomem --store <spec> search q).

Stores (--store <spec>, or $REPOMEM_STORE; each spec is parsed by its store's package):
  sqlite:<path>                 Embedded SQLite database (created with its directory on first write)
  dir:<path>                    Memory directory (Sepo's layout; same as --dir <path>)
  git:<repo-dir>[#<branch>]     Branch of a git repository, default branch agent/memory
  agentcore:..., postgres:...   Once @repomem/store-agentcore or @repomem/store-postgres is installed
  Order: --store, --dir, $REPOMEM_STORE, $MEMORY_DIR, then sqlite:.repomem/repomem.db in the
  working directory. --repo (default $GITHUB_REPOSITORY, then local/default) scopes SQLite
  stores and the other stores that hold many repositories.

Environment:
  REPOMEM_STORE      Store spec when neither --store nor --dir is given
  MEMORY_DIR         Memory directory when neither --store, --dir nor REPOMEM_STORE is given
  MEMORY_QUERY       Search query when none is given on the command line
  GITHUB_REPOSITORY  Repository slug when --repo is not given
  GITHUB_TOKEN       Token of the GitHub citation source (memories --source github)

Exit codes: 0 success (including "no change"), 2 caller-fixable problem, 1 usage or unexpected error.
`;

/** `repomem update --help`. */
export const UPDATE_USAGE = `Usage: repomem update <subcommand> [options] [text...]

Subcommands:
  add --file <MEMORY.md|PROJECT.md> --section <name> <bullet>
  replace --file <MEMORY.md|PROJECT.md> --section <name> --match <text> --with <new bullet>
  remove --file <MEMORY.md|PROJECT.md> --section <name> --match <text>
  daily-append <bullet>

Options:
  --dir <path>     Memory directory (Sepo); see repomem --help for the store order
  --store <spec>   sqlite:<path>, dir:<path>, git:<repo-dir>[#<branch>]... (see repomem --help)
  --repo <o/n>     Repository scope of a SQLite store (default $GITHUB_REPOSITORY, then local/default)
  --json           Print one JSON object describing the outcome on stdout
  --read-only      Open the memory read-only (any write fails with exit code 2)
  -h, --help       Show this message

Remaining arguments are joined with one space to form the bullet text.
Exit codes: 0 changed or no change, 2 no match / ambiguous / missing section / bad memory dir,
1 usage or unexpected error.
`;

/** `repomem search --help`. */
export const SEARCH_USAGE = `Usage: repomem search [--dir <path> | --store <spec>] [--limit <n>] [--snippets <n>] [--json] <query...>

Options:
  --dir <path>       Memory directory to search (Sepo); see repomem --help for the store order
  --store <spec>     sqlite:<path>, dir:<path>, git:<repo-dir>[#<branch>]... (see repomem --help)
  --repo <o/n>       Repository scope of a SQLite store (default $GITHUB_REPOSITORY, then local/default)
  --limit <n>        Maximum number of files to return (default: 5)
  --snippets <n>     Maximum snippets per file (default: 3)
  --json             Emit machine-readable JSON instead of text
  -h, --help         Show this message

The query is the remaining arguments joined with one space, or MEMORY_QUERY when none are given.
`;

/** `repomem init --help`. */
export const INIT_USAGE = `Usage: repomem init [--dir <path> | --store <spec>] [--json]

Seeds the memory tree layout: PROJECT.md, MEMORY.md, README.md, daily/.gitkeep, github/.gitkeep.
The seeded README.md describes the layout and is not searched while its first line is unchanged.
Only missing files are created (existing files are never modified); the directory or SQLite
database is created when missing.

Options:
  --dir <path>     Memory directory (Sepo); see repomem --help for the store order
  --store <spec>   sqlite:<path>, dir:<path>, git:<repo-dir>[#<branch>]... (see repomem --help)
  --repo <o/n>     Repository scope of a SQLite store (default $GITHUB_REPOSITORY, then local/default)
  --json           Print one JSON object listing created and existing files
  -h, --help       Show this message
`;

/** `repomem memories --help`. */
export const MEMORIES_USAGE = `Usage: repomem memories <subcommand> [--store <spec>] [--repo <owner/name>] [--json] [options]

Verified memories: facts with code citations that are re-read before use.

Subcommands:
  store --subject S --fact F --cite <path>:<start>-<end> [--cite ...] [--reason R] [--scope SC] [--by ID]
  recent [--limit 50]                 Active, unexpired memories, most recently refreshed first
  search <query...> [--limit 50]      Active memories matching every word (literally)
  get --id ID                         One memory in any status
  verify --id ID | --all [--limit 50] Check citations: valid ones are refreshed, stale ones invalidated
  invalidate --id ID --reason R       Mark a memory invalid
  supersede --id ID --fact F --cite ... [--subject S] [--reason R] [--scope SC] [--by ID]
  stats                               Counts by status and event, verification success rate

Options:
  --store <spec>     sqlite:<path> (records stored natively), dir:<path> or git:<repo-dir>[#<branch>]
                     (records as JSON under .repomem/verified/); default as in repomem --help
  --repo <o/n>       Repository of the memories (default $GITHUB_REPOSITORY, then local/default)
  --source <src>     Where cited code is read (store, supersede, verify): dir:<worktree>,
                     git:<repo-dir>[#<ref>] or github ($GITHUB_TOKEN, $GITHUB_API_URL);
                     default: the git repository around the working directory, else the directory
  --ref <rev>        Revision to read citations at (git and github sources; default HEAD)
  --json             Print one JSON object: { ok, outcome, ... }
  -h, --help         Show this message

A citation is <path>:<start>-<end> or <path>:<line> (1-based, inclusive, repository-relative).
Exit codes: 0 success (including verify results that invalidated memories), 2 not found, not
active, rejected citations or citations that could not be read now, 1 usage or unexpected error.
`;

const GIT_STORE_OPTION = `  --store <spec>   git:<repo-dir>[#<branch>] (default branch agent/memory), or $REPOMEM_STORE
  --json           Print one JSON object: { ok, outcome, ... }
  -h, --help       Show this message`;

/** Help of the git branch commands, by command. */
export const BRANCH_USAGE: Readonly<
  Record<'history' | 'checkpoint' | 'bootstrap' | 'mount' | 'commit' | 'push' | 'state', string>
> = {
  history: `Usage: repomem history [path] --store git:<repo-dir>[#<branch>] [--limit <n>] [--json]

Lists the commits of the memory branch, newest first, with their trailers; with a path, only the
commits that changed that document ("what did the agent know, and when?").

Options:
  --limit <n>      At most n revisions
${GIT_STORE_OPTION}
`,
  checkpoint: `Usage: repomem checkpoint <note...> (--store git:<repo-dir>[#<branch>] | --into <mount>) [--trailer K=V] [--json]

Commits a "checkpoint: <note>" moment: a commit with a fixed, greppable message marking a point
in the memory's history. With --into, the changes made in a mounted directory are committed under
that message; without, the store commits nothing new unless there are changes (no empty commits),
and says so.

Options:
  --into <dir>     A directory made by repomem mount
  --trailer K=V    Attribution trailer (Task-Id=42, Prompt-Version=3...); repeatable
${GIT_STORE_OPTION}
`,
  bootstrap: `Usage: repomem bootstrap --store git:<repo-dir>[#<branch>] [--json]

Creates the memory branch with the seeded tree in one root commit. Fails (exit 2) when the branch
exists; repomem init --store git:... adds missing seed files to an existing branch. Never pushes.

Options:
${GIT_STORE_OPTION}
`,
  mount: `Usage: repomem mount --into <dir> --store git:<repo-dir>[#<branch>] [--json]

Materialises the branch into <dir> so agents edit it with ordinary tools (repomem update --dir <dir>
works there); mounting again brings it up to the branch tip, keeping local edits. A local edit to a
file the branch also changed is a conflict (exit 2, nothing written).

Options:
  --into <dir>     Mount directory (created when missing)
${GIT_STORE_OPTION}
`,
  commit: `Usage: repomem commit --into <dir> [-m <message>] [--trailer K=V] [--json]

Commits what changed in a mounted directory to its branch, after the gates: files over 1 MiB,
secrets (.env*, *.pem, *.key...), ignored paths and symlinks are skipped with a warning. Nothing
changed: no commit. The branch changed the same file differently since the mount: conflict (exit 2).

Options:
  --into <dir>         The mount directory
  -m, --message <msg>  Commit message (default "chore(memory): update memory")
  --trailer K=V        Attribution trailer; repeatable
  --json               Print one JSON object: { ok, outcome, ... }
  -h, --help           Show this message
`,
  push: `Usage: repomem push --store git:<repo-dir>[#<branch>] [--remote <name> | --url <url>] [--json]

Syncs the memory branch with the remote (default origin, smart HTTP): fetches, pushes, and when
someone else pushed first, re-applies this repository's commits on the new tip and pushes again
(a conflict on the same lines is resolved in favour of this run and reported). No edit is lost: on
failure the local commits are kept. $GITHUB_TOKEN, when set, authenticates.

Options:
  --remote <name>  Configured remote (default origin)
  --url <url>      An http(s) URL instead of a configured remote
${GIT_STORE_OPTION}
`,
  state: `Usage: repomem state read --ref <sync|scan|thread:<key>> --store git:<repo-dir> [--repo <o/n>] [--json]
       repomem state write --ref <...> (--state <json> | --file <path>) [--expected <commit>|none] --store git:<repo-dir>

Reads or writes the state refs kept off the memory branch: refs/agent-memory-state/sync,
refs/agent-memory-state/scan and refs/agent-state/<encoded thread key>. read prints the state JSON
(exit 2 when there is none, it belongs to another repository, or it is invalid: start fresh).
write validates the state and updates the ref with compare-and-swap: --expected is the commit your
read returned (none: the ref must not exist); without it the current commit is used.

Options:
  --ref <name>     sync, scan, or thread:<owner/repo:kind:number:route:lane>
  --repo <o/n>     This repository (default $GITHUB_REPOSITORY): another repository's state is ignored
  --state <json>   The state to write
  --file <path>    A file holding the state JSON
  --expected <c>   Commit the ref must hold now, or none
${GIT_STORE_OPTION}
`,
};
