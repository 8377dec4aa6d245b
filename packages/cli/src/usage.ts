// Why: the help texts, kept together so `--help`, usage errors and the README agree.

/** Top-level help: `repomem --help`. */
export const MAIN_USAGE = `Usage: repomem <command> [options]

Commands:
  update <add|replace|remove|daily-append>  Edit bullets in MEMORY.md, PROJECT.md or today's daily log
  search <query...>                         Search the memory tree
  index [--embedder E]                      Build or refresh the memory's vectors for semantic ranking
  init                                      Seed the memory tree layout (idempotent)
  memories <subcommand>                     Verified memories with code citations (store, recent, verify...)
  context --task "..." [--user U]           Memory context of a task (rules, knowledge, past tasks, preferences)
  context <receipts --task T | diff A B>    What a task's context held, or what changed between two
  episode <write|get|list>                  Task episodes: write at task end, read past ones
  learnings add (--text T | --file F)       Record the agent's learnings or self-feedback
  prefs <set|list> --user U                 A user's preferences (PR size, commit style, tests, docs)
  history [path]                            Commits of a git memory branch (forensic history)
  checkpoint <note>                         Commit a "checkpoint: <note>" moment on a git memory branch
  bootstrap                                 Create the git memory branch with the seeded tree
  mount --into <dir>                        Materialise the git memory branch into a directory
  commit --into <dir> [-m <message>]        Commit what changed in a mounted directory
  push                                      Sync the git memory branch with its remote (never loses an edit)
  state <read|write> --ref <name>           Read or write the sync, scan and thread state refs
  envelope --from-event [--route R]         Build the run's envelope from the GitHub Actions event
  gate <schedule|scan|pr-closed|commit>     Decide whether a memory workflow step runs or commits
  doctor                                    Check that the chosen store works and explain what to fix
  export --to <spec> [--dry-run]            Copy the chosen store's memory to another store
  import --from <spec> [--dry-run]          Copy another store's memory into the chosen store
  postgres policies --role R [--apply]      Row-level security for a PostgreSQL store (print, or apply)
  mcp [--http --port N]                     Serve the memory tools to MCP clients (stdio, or Streamable HTTP)
  sync github --repo OWNER/NAME             Mirror issues, pull requests and discussions into github/<owner>/<repo>/
  rules <extract|parse|list|approve|reject|supersede>
                                            Review rules: extract from PR reviews, screen, classify, decide
  webhook [--delivery F | --body F]         Handle one GitHub webhook delivery (review rules, PR outcomes)
  hooks <install|uninstall>                 Commit attribution: Task-Id and Prompt-Version trailers

Sepo's support commands (same arguments, environment, step outputs and output as Sepo's CLIs):
  bootstrap-branch [--repo R] [--branch B] [--remote O]   Create or complete the local memory branch
  read-sync-state                           Sync cursors from refs/agent-memory-state/sync
  write-sync-state                          Write the sync cursors (SYNC_* environment)
  resolve-policy [--route R]                Memory mode for a route (memory_mode, write_enabled)

Options:
  -h, --help       Show help (also: repomem <command> --help)
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

/** `repomem index --help`. */
export const INDEX_USAGE = `Usage: repomem index [--store <spec> | --dir <path>] [--repo <owner/name>] [--embedder <spec>] [--json]

Builds or refreshes the vectors of the memory for semantic retrieval, and keeps them with the
memory (under .repomem/vectors/<embedder>/ in the store, never returned by search). Only chunks
whose text has no vector yet are embedded: a Markdown bullet or paragraph with its heading, a
mirrored issue or pull request's title and body, then each comment and review. Vectors of chunks
that no longer exist are dropped. A progress bar is shown on a terminal.

Options:
  --store <spec>      Store to index (same choice as every command: --store, --dir, $REPOMEM_STORE,
                      $MEMORY_DIR, then sqlite:.repomem/repomem.db)
  --dir <path>        Memory directory to index
  --repo <o/n>        Repository scope (default $GITHUB_REPOSITORY, then the origin remote's)
  --embedder <spec>   local (default: the model shipped in @repomem/embedder-local), openai:<model>,
                      bedrock:<model id> (from @repomem/embedders); default $REPOMEM_EMBEDDER, then local
  --json              One JSON object {ok, store, embedder, dimensions, embedded, reused, removed, chunks, missing, seconds}
  -h, --help          Show this message
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
  --repo <o/n>     Repository scope of a SQLite store (default $GITHUB_REPOSITORY, then the origin remote's)
  --json           Print one JSON object describing the outcome on stdout
  --read-only      Open the memory read-only (any write fails with exit code 2)
  -h, --help       Show this message

Remaining arguments are joined with one space to form the bullet text.
Exit codes: 0 changed or no change, 2 no match / ambiguous / missing section / bad memory dir,
1 usage or unexpected error.
`;

/** `repomem search --help`. */
export const SEARCH_USAGE = `Usage: repomem search [--dir <path> | --store <spec>] [--limit <n>] [--snippets <n>] [--embedder <spec>] [--json] <query...>

Options:
  --dir <path>       Memory directory to search (Sepo); see repomem --help for the store order
  --store <spec>     sqlite:<path>, dir:<path>, git:<repo-dir>[#<branch>]... (see repomem --help)
  --repo <o/n>       Repository scope of a SQLite store (default $GITHUB_REPOSITORY, then the origin remote's)
  --limit <n>        Maximum number of files to return (default: 5)
  --snippets <n>     Maximum snippets per file (default: 3)
  --embedder <spec>  Rank by meaning too: local, openai:<model>, bedrock:<model> (default
                     $REPOMEM_EMBEDDER; none: words only). Lexical and semantic rankings are fused;
                     vectors come from repomem index (documents without vectors rank by words)
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
  --repo <o/n>     Repository scope of a SQLite store (default $GITHUB_REPOSITORY, then the origin remote's)
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
  impact --base REF [--head HEAD]     Memories whose cited lines the diff base..head touches: still
                                      valid, re-anchored (renamed, moved) or would be invalidated

Options:
  --store <spec>     sqlite:<path> (records stored natively), dir:<path> or git:<repo-dir>[#<branch>]
                     (records as JSON under .repomem/verified/); default as in repomem --help
  --repo <o/n>       Repository of the memories (default $GITHUB_REPOSITORY, then the origin remote's)
  --source <src>     Where cited code is read (store, supersede, verify, impact): dir:<worktree>,
                     git:<repo-dir>[#<ref>] or github ($GITHUB_TOKEN, $GITHUB_API_URL);
                     default: the git repository around the working directory, else the directory
  --ref <rev>        Revision to read citations at (git and github sources; default HEAD)
  --json             Print one JSON object: { ok, outcome, ... }
  -h, --help         Show this message

A citation is <path>:<start>-<end> or <path>:<line> (1-based, inclusive, repository-relative).
Exit codes: 0 success (including verify results that invalidated memories), 2 not found, not
active, rejected citations or citations that could not be read now, 1 usage or unexpected error.
`;

/** `repomem context --help`. */
export const CONTEXT_USAGE = `Usage: repomem context --task <description> [--task-id <id>] [--user <login>] [--budget <tokens>]
                       [--file <path>]... [--embedder <spec>] [--record] [--note-rules [--rule-expiry <n>]]
                       [--verified [--source <spec>] [--ref <rev>]] [--strict] [--json | --markdown]
       repomem context receipts --task <task id> [--json]
       repomem context diff <task id A> <task id B> [--json]

Builds the memory context of a task from the chosen store (every source read in parallel, each
within its timeout): every active review rule first, then verified memories (with --verified,
checked against the code first), repository knowledge, similar past tasks (a pull request closed
unmerged included, its outcome shown) and the user's preferences share the rest of a token budget
(default 2000, estimated as characters / 4) by relevance to the task; a memory that matches
nothing of the task is left out ("below the relevance floor"). Prints the Markdown block for the agent's prompt, or with --json the block,
the structured context and the context receipt: every candidate memory with its id, revision,
score and tokens, included or dropped and why. A failing source is skipped with a warning
(outage, throttling, timeout) or an error (configuration, corrupt record); --strict fails instead.

Options:
  --store <spec>        Store (default sqlite:.repomem/repomem.db, or $REPOMEM_STORE)
  --dir <path>          A memory directory as the store
  --repo <o/n>          Repository (default $GITHUB_REPOSITORY, then the origin remote's)
  --task <text>         Task description (receipts: the task id)
  --task-id <id>        Task id: skips the task's own episode; names the stored receipt
  --user <login>        Submitting user (their preferences are read)
  --file <path>         A file the task is about (repeatable): memories scoped to its directory rank up
  --embedder <spec>     Rank by meaning too: local, openai:<model>, bedrock:<model> (default
                        $REPOMEM_EMBEDDER; none: words only); a first run embeds the memory's records
  --budget <n>          Token budget (default 2000)
  --timeout-ms <n>      Timeout of each source (default 5000)
  --record              Store the receipt under --task-id
  --note-rules          Count the task against the review rules (a rule not given as relevant in
                        50 tasks expires); needs --task-id
  --rule-expiry <n>     With --note-rules: tasks without relevance before a rule expires (default 50)
  --verified            Include verified memories (--source/--ref: where their code is read)
  --prompt-version <v>  Prompt version recorded in the receipt
  --commit <sha>        Repository commit recorded in the receipt
  --strict              Fail when any source fails
  --markdown            Print the Markdown block (the default)
  --json                Print one JSON object
  -h, --help            Show this message
`;

/** `repomem episode --help`. */
export const EPISODE_USAGE = `Usage: repomem episode write --task-id <id> --status <completed|failed|cancelled|timed_out> [fields] [--minimal]
       repomem episode write --outcome <merged|closed> (--pr-number <n> | --pr-url <url> | --task-id <id>) [--at <time>]
       repomem episode get --task-id <id>
       repomem episode list [--limit <n>]
       (all: [--store <spec> | --dir <path>] [--repo <owner/name>] [--json])

Writes a task's episode at task end: idempotent by task id (the same episode again changes
nothing; more fields update it), retried up to 3 times on a transient failure, and never a
failed task: a write that still fails exits 2 with the reason. --minimal is the orchestrator's
fallback: written only when the task has no episode yet.

--outcome records a pull request's outcome without a webhook, on the episodes of the tasks that
opened it (found by --pr-url, else --pr-number, or the one --task-id names): merged is positive,
closed unmerged negative. Outcomes are ordered by --at, the ISO 8601 time of the pull request
state you report (mergedAt / closedAt; default now), as webhook deliveries are: an older state
never replaces a newer one, and at the same instant merged wins. No such episode: exit 2.

Fields:
  --description <text>  --approach <text>  --difficulties <text>  --self-feedback <text>
  --pr-url <url>  --pr-number <n>  --branch <name>  --file <path> (repeatable)
  --cost <usd>  --duration <seconds>  --prompt-version <v>  --user <login>

Options:
  --limit <n>    Most episodes listed (default 20)
  --strict       Throw the failure instead of reporting it
  --json         Print one JSON object
  -h, --help     Show this message
`;

/** `repomem learnings --help`. */
export const LEARNINGS_USAGE = `Usage: repomem learnings add (--text <answer> | --file <path>) [--task-id <id>] [--self-feedback]
       repomem learnings list [--all] [--limit <n>]
       (both: [--store <spec> | --dir <path>] [--repo <owner/name>] [--json])

Records the agent's answer to the post-task learnings prompt ("**[Topic]:** learning" paragraphs,
a topic may end with a scope: "**[Testing (src/legacy/)]:** ...") as repository knowledge. The
same learning again is a duplicate; a new one on the same topic and scope supersedes the older;
other scopes coexist. "No new repository learnings." records nothing. --self-feedback takes the
answer to the self-feedback prompt (free paragraphs allowed). list prints the stored
learnings, newest first: id, last write, subject (scope): fact.

Options:
  --text <answer>    The answer
  --file <path>      Read the answer from a file
  --task-id <id>     Task the learnings come from
  --self-feedback    The answer is self-feedback (missing context)
  --all              list: superseded learnings too
  --limit <n>        list: most learnings printed (default 50)
  --json             Print one JSON object
  -h, --help         Show this message
`;

/** `repomem prefs --help`. */
export const PREFS_USAGE = `Usage: repomem prefs set --user <login> (--text <preference> [--topic <topic>] | --from-task <description>)
       repomem prefs list --user <login>
       (both: [--store <spec> | --dir <path>] [--repo <owner/name>] [--json])

A user's preferences, read last (lowest priority) when a task of theirs is hydrated. A newer
preference on a topic (pr-size, commit-style, tests, docs, review, or one derived from the
text) replaces the older. --from-task keeps only explicit statements of a task description
("I prefer...", "please always...").

Options:
  --user <login>          GitHub login
  --text <preference>     The preference
  --topic <topic>         Topic (default: derived from the text)
  --from-task <text>      Take the explicit preferences of a task description
  --task-id <id>          Task the preference comes from
  --json                  Print one JSON object
  -h, --help              Show this message
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

/** Sepo's support commands that repomem provides under the same names. */
export type SepoSupportCommand = 'bootstrap-branch' | 'read-sync-state' | 'write-sync-state' | 'resolve-policy';

/** `repomem <Sepo support command> --help`. */
export const SEPO_SUPPORT_USAGE: Readonly<Record<SepoSupportCommand, string>> = {
  'bootstrap-branch': `Usage: repomem bootstrap-branch [--repo <slug>] [--branch <name>] [--remote <name>]

Creates the local memory branch in the git repository around the working directory, or adds the
seed files it lacks, without touching the checkout (Sepo's memory/bootstrap-branch.js). Prints
{ repoRoot, repo, branch, remote, createdBranch, committed, createdFiles, migratedFiles, nextStep }.
Push it separately when ready.

Options:
  --repo <slug>      Repository slug (default $REPO_SLUG, $GITHUB_REPOSITORY, or the remote's URL)
  --branch <name>    Memory branch (default agent/memory)
  --remote <name>    Remote used for slug inference and the next-step hint (default origin)
  -h, --help         Show this message
`,
  'read-sync-state': `Usage: repomem read-sync-state

Reads the sync state (refs/agent-memory-state/sync, state.json) of the git repository at
$GITHUB_WORKSPACE or the working directory, as Sepo's memory/read-sync-state.js: step outputs
found, last_sync_at, issue_cursor, pull_cursor, discussion_cursor, commit_cursor, last_run_url
(appended to $GITHUB_OUTPUT) and the state JSON on stdout ({} when there is none, or when it
belongs to another repository than $GITHUB_REPOSITORY / $REPO_SLUG).
`,
  'write-sync-state': `Usage: repomem write-sync-state

Writes the sync state (refs/agent-memory-state/sync) with compare-and-swap, as Sepo's
memory/write-sync-state.js: $SYNC_LAST_SYNC_AT (required), $SYNC_LAST_ACTIVITY_AT,
$SYNC_LAST_RUN_URL, $SYNC_ISSUE_CURSOR, $SYNC_PULL_CURSOR, $SYNC_DISCUSSION_CURSOR,
$SYNC_COMMIT_CURSOR; repository from $REPO_SLUG or $GITHUB_REPOSITORY (required). Step output
written (true/false); the new state JSON on stdout. Missing inputs: exit 2.
`,
  'resolve-policy': `Usage: repomem resolve-policy [--route <route>] [--override <mode>]

Resolves the memory mode of a run from $AGENT_MEMORY_POLICY for the route (--route, else $ROUTE),
an override (--override, else $MEMORY_MODE_OVERRIDE or $INPUT_MEMORY_MODE_OVERRIDE) winning.
Step outputs memory_mode (enabled | read-only | disabled) and write_enabled (true | false) are
appended to $GITHUB_OUTPUT; stdout: "memory mode: <mode>; write_enabled=<bool>"; problems on
stderr. An invalid policy or override resolves to disabled (fail closed). Always exit 0.
`,
};

/** `repomem envelope --help`. */
export const ENVELOPE_USAGE = `Usage: repomem envelope --from-event [--route <route>] [--lane <lane>] [--workflow <file>] [--json]

Builds the run's RuntimeEnvelope from the GitHub Actions event, as Sepo does: reads the payload at
$GITHUB_EVENT_PATH, $GITHUB_EVENT_NAME, $GITHUB_REPOSITORY, $GITHUB_ACTOR, $GITHUB_SERVER_URL and
$GITHUB_WORKFLOW_REF. Events: issue_comment, issues, pull_request, pull_request_target,
pull_request_review, pull_request_review_comment, discussion, discussion_comment,
workflow_dispatch, schedule. Prints the envelope JSON (one line with --json, indented otherwise);
an invalid envelope or event names every problem on stderr (exit 2).

Options:
  --route <route>     The route (default $ROUTE); required
  --lane <lane>       Session lane (default $LANE, then default)
  --workflow <file>   Workflow file name (default: from $GITHUB_WORKFLOW_REF)
  --custom-route <r>  Accept a route outside the documented list (repeatable)
  --json              One-line JSON
  -h, --help          Show this message
`;

/** `repomem gate --help`. */
export const GATE_USAGE = `Usage: repomem gate <schedule|scan|pr-closed|commit> [options] [--json]

Decides whether a memory workflow step runs, from the repository variables, the event and the
state refs, and hands the decision to later steps as step outputs (appended to $GITHUB_OUTPUT):
run (true | false) and reason, plus the outputs listed below. Prints one line
"gate <name>: run|skip (<reason>): <why>" (the decision as JSON with --json). Always exits 0 once
the inputs parse: the decision is in the outputs.

Gates:
  schedule --workflow <file.yml>
      AGENT_ENABLED=false pauses everything; AGENT_SCHEDULE_POLICY decides scheduled runs
      ($GITHUB_EVENT_NAME schedule); any other event runs. Outputs: mode, check_activity.
  scan [--workflow agent-memory-scan.yml] [--store <spec>]
      The schedule gate, then (skip_no_updates) the scan gate: a scheduled scan runs only when the
      sync state's last_activity_at is newer than the scan state's last_scan_at. State comes from
      --store, else the state refs of the repository at $GITHUB_WORKSPACE (or here). Dispatch
      bypasses the gate.
  pr-closed
      Fork safety for curation on pull_request_target closed ($GITHUB_EVENT_PATH): same-repository
      pull requests, merged fork pull requests and manual dispatch run; closed unmerged fork pull
      requests, unreadable events and AGENT_ENABLED=false skip.
  commit --agent-exit-code <n> [--memory-dir <dir>] [--route <route>] [--override <mode>]
      The three commit gates of an agent run: the agent exited 0, AGENT_MEMORY_POLICY (or the
      override, $MEMORY_MODE_OVERRIDE) makes memory writable for the route ($ROUTE), and the memory
      directory ($MEMORY_DIR) is mounted. Outputs: commit, memory_mode.

Options:
  --json       The decision as one JSON line
  -h, --help   Show this message
`;

/** `repomem doctor --help`. */
export const DOCTOR_USAGE = `Usage: repomem doctor [--store <spec> | --dir <path>] [--repo <owner/name>] [--embedder <spec>] [--json]

Checks the store the other commands would use (same choice: --store, --dir, $REPOMEM_STORE,
$MEMORY_DIR, then the default SQLite file) and explains each failure with a fix. Network stores
check more (PostgreSQL: reachability, server version, privileges, schema version, pooler mode,
row-level security; AgentCore: reachability, permissions, identifier mapping); every store is at
least opened read-only, listed and its state read. Passwords never appear in the report. The
last line names the embedder (--embedder, else $REPOMEM_EMBEDDER) and how many chunks of the
memory lack vectors (repomem index embeds them).
Exit 0 when every check passed or only warned, 2 when one failed.

Options:
  --store <spec>    Store to check
  --dir <path>      Memory directory to check
  --repo <o/n>      Repository scope (default $GITHUB_REPOSITORY, then the origin remote's)
  --embedder <spec> Embedder to report on (default $REPOMEM_EMBEDDER; none: lexical ranking)
  --json            The report as one JSON object {ok, store, repo, checks:[{check, status, detail, fix?}]}
  -h, --help        Show this message
`;

const TRANSFER_BODY = `Copies documents byte for byte (all but repomem's own .repomem/ documents), then the
repository's verified memories and task records (episodes, rules, preferences, knowledge,
receipts) with their ids, through each store's record backend. Nothing is deleted. An item the
target already holds identically is unchanged; one it holds differently is left alone and listed
unless --overwrite. Running it again copies only what is new. When both stores keep history
(git:) and the target has no documents yet, the source's revisions are replayed first (messages
and trailers kept). Vectors (repomem index rebuilds them) and telemetry events are not copied.
Exit 0 when everything was copied or unchanged, 2 when items were left alone.

Options:
  --store <spec>    The chosen store (also --dir, $REPOMEM_STORE, $MEMORY_DIR, the default)
  --dir <path>      A memory directory as the chosen store
  --repo <o/n>      Repository of the records, and scope of multi-repository stores
                    (default $GITHUB_REPOSITORY, then the origin remote's)
  --dry-run         Report what would be copied; write nothing (the target is opened read-only)
  --overwrite       Replace items the target holds differently
  --json            The report as one JSON object {dryRun, from, to, repo, documents, verified, tasks, conflicts}
  -h, --help        Show this message
`;

/** `repomem export --help`. */
export const EXPORT_USAGE = `Usage: repomem export --to <spec> [--store <spec> | --dir <path>] [--repo <owner/name>]
                      [--dry-run] [--overwrite] [--json]

Copy the chosen store's memory to the store <spec> names (for example
repomem export --dir ./memory --to sqlite:.repomem/repomem.db).
${TRANSFER_BODY}`;

/** `repomem import --help`. */
export const IMPORT_USAGE = `Usage: repomem import --from <spec> [--store <spec> | --dir <path>] [--repo <owner/name>]
                      [--dry-run] [--overwrite] [--json]

Copy the memory of the store <spec> names into the chosen store (for example
repomem import --from dir:./memory --store postgres://...).
${TRANSFER_BODY}`;

/** `repomem mcp --help`. */
export const MCP_USAGE = `Usage: repomem mcp [--store <spec> | --dir <path>] [--repo <owner/name>] [--mode enabled|read-only|disabled]
                   [--source <spec>] [--tool-names dotted|underscored] [--embedder <spec>]
                   [--http --port <n> [--host <address>] [--token <token>] [--session-idle-timeout <s>]]

Serves the repository memory to MCP clients (Claude Code, Codex, Cursor, VS Code...): the
verified-memory tools (memory.store, memory.get_recent, memory.verify_citations...), the bullet
tools (memory.add, memory.replace, memory.remove, memory.daily_append, memory.search), history
tools on stores that keep history, the memory documents as resources and the memory rules as a
prompt. Speaks MCP over stdin/stdout by default; nothing else is written to stdout.

Options:
  --store <spec>   Store (see repomem --help for the order; default sqlite:.repomem/repomem.db)
  --dir <path>     Memory directory (same as --store dir:<path>)
  --repo <o/n>     Repository every tool is scoped to (default $GITHUB_REPOSITORY, then the origin remote's)
  --mode <mode>    enabled (default); read-only: tools that change memory are not offered;
                   disabled: the server starts and offers nothing, saying why
  --source <spec>  Where cited code is read: git:<repo-dir>[#<ref>], dir:<worktree> or github
                   (default: the git repository around the working directory, else the directory)
  --tool-names <s> dotted (memory.store, default) or underscored (memory_store) for clients that
                   reject dots in tool names
  --embedder <spec> memory.search and memory.hydrate rank by meaning too: local, openai:<model>,
                   bedrock:<model> (default $REPOMEM_EMBEDDER; none: words only)
  --http           Serve Streamable HTTP at http://<host>:<port>/mcp instead of stdio
  --port <n>       HTTP port (0: any free port, printed on stderr)
  --host <address> Address to bind (default 127.0.0.1, any 127.x.y.z or ::1 too); any other
                   address requires a token
  --token <token>  Bearer token every HTTP request must carry (or $REPOMEM_MCP_TOKEN; 16+ characters)
  --session-idle-timeout <s>
                   Close an HTTP session no request has used for this many seconds (default 1800);
                   request bodies over 4 MiB get 413
  -h, --help       Show this message
`;

/** `repomem sync --help`. */
export const SYNC_USAGE = `Usage: repomem sync github --repo <owner/name> [--store <spec> | --dir <path>] [--max-requests <n>]
                           [--since <time>] [--json]
       repomem sync github --repo <owner/name> --migrate-legacy [--apply] [--store <spec> | --dir <path>]

Mirrors the repository's issues, pull requests and discussions into
github/<owner>/<repo>/{issue,pull,discussion}-<n>.json of the store, as \`gh ... --json\` writes them
(jq queries written for gh output keep working). Incremental: only items updated since the last
sync are fetched, a few requests per thousand items; an unchanged item rewrites nothing. The
cursors are the sync state (refs/agent-memory-state/sync on a git store, Sepo's state.json
schema), moved only after a page's files are written, so an interrupted sync resumes where it
stopped. On a terminal a progress line follows each page; otherwise one summary line.

Subcommands:
  github   Mirror a GitHub repository (the only source)

Options:
  --repo <o/n>          Repository to mirror (default $GITHUB_REPOSITORY)
  --store <spec>        Store (see repomem --help for the order; default sqlite:.repomem/repomem.db)
  --dir <path>          Memory directory (same as --store dir:<path>)
  --max-requests <n>    Stop after n requests (the next run resumes); exit 0
  --since <time>        Mirror items updated at or after this ISO 8601 time instead of continuing
                        from the cursors (a backfill)
  --migrate-legacy      Move flat github/{issue,pull,discussion}-<n>.json files into
                        github/<owner>/<repo>/ instead of syncing: prints the plan (dry run)
  --apply               With --migrate-legacy: perform the moves
  --json                The summary (or the plan) as one JSON object
  -h, --help            Show this message

Environment:
  GITHUB_TOKEN, GH_TOKEN   Token (the first set); needs read access to issues, pull requests,
                           discussions and metadata (fine-grained: Issues, Pull requests,
                           Discussions, Metadata: read; Actions: permissions issues, pull-requests,
                           discussions: read)
  GITHUB_API_URL           API root (default https://api.github.com; Enterprise: https://host/api/v3)
  GITHUB_GRAPHQL_URL       GraphQL endpoint (default: derived from the API root)

Exit codes: 0 complete (or stopped by --max-requests), 2 repository not found, a token without a
permission, or a sync interrupted by a rate limit or a GitHub outage (resumes next run), 1 usage.
`;

/** `repomem rules --help`. */
export const RULES_USAGE = `Usage: repomem rules <extract|parse|list|approve|reject|supersede> [options] [--json]

Review rules: coding rules learned from pull request reviews. Every rule a model proposes is
screened for prompt injection (instructions to the agent, role text, URLs, shell commands,
secrets, encoded text, tool or memory directives, invisible or look-alike characters), then
classified: a rule is active (given to agents) only when it is a code convention from a
maintainer that touches no sensitive subject (permissions, credentials, CI, security settings,
memory, reviews...); otherwise it is stored pending, never given to an agent until a maintainer
approves it. Reviewers without write access are refused unless allowed (then pending). Rules are
stored as task records of the store.

Subcommands:
  extract [--event <file>] [--event-name <name>] (--model-command <cmd> | --model-output <file> | --print-prompt)
      Read a pull_request_review or pull_request_review_comment payload (default $GITHUB_EVENT_PATH,
      event name default $GITHUB_EVENT_NAME), build the versioned extraction prompt, get the model's
      answer, screen it and store the accepted rules.
        --print-prompt         Print the prompt and its version; store nothing
        --model-command <cmd>  Run <cmd> with sh, the prompt on stdin; its stdout is the answer
        --model-output <file>  Read the answer from a file (- for stdin)
  parse --pr <n> --reviewer <login> --association <assoc> [--input <file>] [--prompt-version <v>] [--save]
      Parse a model answer (stdin, or --input <file>) into accepted (active) rules, pending rules
      and refused lines, each with its reasons. --save stores the accepted and pending rules.
  list [--pending | --status active|pending|refused|superseded|expired|all] [--limit <n>]
      Rules, strongest first (default: active ones); --pending lists the rules waiting for a
      maintainer, with their reasons.
  approve <rule-id> [--by <login>] [--reason <text>]
      Activate a pending rule (superseding the active rules it contradicts). Who approved is
      recorded: --by, else $GITHUB_ACTOR, else git config user.name.
  reject <rule-id> [--by <login>] [--reason <text>]
      Refuse a pending rule for good (a later review teaching it again is refused).
  supersede --id <rule-id> --reason <text> [--rule <text> [--scope <scope>]] [--author <login>]
      Mark a rule superseded, optionally by a replacement rule (screened like extracted ones).

Options:
  --store <spec>, --dir <path>   Store (see repomem --help for the order)
  --repo <o/n>                   Repository (default: the event's, then $GITHUB_REPOSITORY)
  --allow-without-write-access   Accept rules from CONTRIBUTOR, NONE... reviewers, at their lower weight
  --json                         One JSON object on stdout
  -h, --help                     Show this message

Association values: OWNER, MEMBER, COLLABORATOR (write access), CONTRIBUTOR,
FIRST_TIME_CONTRIBUTOR, FIRST_TIMER, MANNEQUIN, NONE.
Exit codes: 0 success, 2 nothing found / refused input, 1 usage or unexpected error.
`;

/** `repomem webhook --help`. */
export const WEBHOOK_USAGE = `Usage: repomem webhook (--delivery <file> | --headers <file> [--body <file>]) [options] [--json]

Handle one GitHub webhook delivery: verify X-Hub-Signature-256 over the raw body, then route
pull_request_review and pull_request_review_comment events to review-rule extraction, and
pull_request closed events to the outcome of the task's episode (merged: positive; closed
without merge: negative). Other events are acknowledged and ignored.

Options:
  --delivery <file>         JSON {"headers": {...}, "body": "<raw body>"} (- for stdin)
  --headers <file>          JSON object of the delivery's HTTP headers
  --body <file>             The raw body, byte for byte (default: stdin)
  --secret-env <NAME>       Environment variable holding the webhook secret (default REPOMEM_WEBHOOK_SECRET)
  --model-command <cmd>     Rule extraction model: run <cmd> with sh, prompt on stdin, answer on stdout
                            (without it review events are acknowledged and skipped)
  --allow-without-write-access  Accept rules from reviewers without write access, at their lower weight
  --read-reviews            Read each submitted review back through the REST API with its inline
                            comments ($GITHUB_TOKEN, $GITHUB_API_URL); comment events of a review are skipped
  --store <spec>, --dir <path>  Store (see repomem --help)
  --json                    The result as one JSON object (also printed on failure)
  -h, --help                Show this message

Exit codes: 0 handled or ignored, 2 refused (bad or missing signature, malformed body), 1 usage
or a failure while handling (the model command or the store; GitHub may redeliver).
`;

/** `repomem hooks --help`. */
export const HOOKS_USAGE = `Usage: repomem hooks <install|uninstall> [--hooks-dir <dir>] [--json]

Commit attribution: a prepare-commit-msg hook that adds Task-Id: and Prompt-Version: trailers
(with git interpret-trailers) to commits made while REPOMEM_TASK_ID is set.

Subcommands:
  install     Install the hook in the repository's hooks directory (core.hooksPath is honoured).
              A hook already there is kept: it is renamed prepare-commit-msg.repomem-chained and
              runs first, with the same arguments; its failure still stops the commit.
  uninstall   Remove the hook and put back the one it replaced.

Options:
  --hooks-dir <dir>  Hooks directory (default: git rev-parse --git-path hooks in the working directory)
  --json             One JSON object describing the outcome
  -h, --help         Show this message

Read by the hook at commit time:
  REPOMEM_TASK_ID         Task id (letters, digits and . _ : @ / + = -, at most 200 characters);
                          unset or empty: the hook adds nothing
  REPOMEM_PROMPT_VERSION  Prompt version (for example sha256:...); adds Prompt-Version: when set
An amend, a rerun or a merge never duplicates a trailer (--if-exists addIfDifferent), and
nothing is added while a rebase replays commits.
`;

/** `repomem postgres --help`. */
export const POSTGRES_USAGE = `Usage: repomem postgres policies --role <name> [--grant <owner/name>]... [--supabase]
                                [--store <spec>] [--schema <name>] [--apply] [--json]

Prints the row-level security policies that restrict a database role to the repositories it is
granted, on every table of a PostgreSQL store (documents, state, agent_memory,
agent_memory_telemetry, task_records...), with the table privileges the role needs. Review them,
then run them yourself or pass --apply to run them in one transaction as the tables' owner. The
store is --store, else $REPOMEM_STORE when it is a postgres:// one, else $DATABASE_URL.

Options:
  --role <name>          Database role to restrict (with --supabase: default authenticated)
  --grant <owner/name>   Also grant the role this repository (repeatable; "*" grants all)
  --supabase             Supabase form: repositories come from the JWT claim
                         app_metadata.repomem_repos instead of the repo_grants table
  --store <spec>         postgres://user:password@host:port/database[?schema=name]
  --schema <name>        Schema holding the tables (default: the spec's, else repomem)
  --apply                Run the statements (otherwise only print them)
  --json                 One JSON object {ok, applied, store, statements}
  -h, --help             Show this message
`;
