// Why: the help texts, kept together so `--help`, usage errors and the README agree.

/** Top-level help: `repomem --help`. */
export const MAIN_USAGE = `Usage: repomem <command> [options]

Commands:
  update <add|replace|remove|daily-append>  Edit bullets in MEMORY.md, PROJECT.md or today's daily log
  search <query...>                         Search the memory tree
  init                                      Seed the memory tree layout (idempotent)

Options:
  -h, --help       Show help (also: repomem <command> --help)
  -v, --version    Print the version

Environment:
  MEMORY_DIR       Memory directory when --dir is not given (default: the working directory)
  MEMORY_QUERY     Search query when none is given on the command line

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
  --dir <path>     Memory directory (defaults to MEMORY_DIR or the working directory)
  --json           Print one JSON object describing the outcome on stdout
  --read-only      Open the memory read-only (any write fails with exit code 2)
  -h, --help       Show this message

Remaining arguments are joined with one space to form the bullet text.
Exit codes: 0 changed or no change, 2 no match / ambiguous / missing section / bad memory dir,
1 usage or unexpected error.
`;

/** `repomem search --help`. */
export const SEARCH_USAGE = `Usage: repomem search [--dir <path>] [--limit <n>] [--snippets <n>] [--json] <query...>

Options:
  --dir <path>       Memory directory to search (defaults to MEMORY_DIR or the working directory)
  --limit <n>        Maximum number of files to return (default: 5)
  --snippets <n>     Maximum snippets per file (default: 3)
  --json             Emit machine-readable JSON instead of text
  -h, --help         Show this message

The query is the remaining arguments joined with one space, or MEMORY_QUERY when none are given.
`;

/** `repomem init --help`. */
export const INIT_USAGE = `Usage: repomem init [--dir <path>] [--json]

Seeds the memory tree layout: PROJECT.md, MEMORY.md, README.md, daily/.gitkeep, github/.gitkeep.
Only missing files are created (existing files are never modified); the directory is created
when missing.

Options:
  --dir <path>     Memory directory (defaults to MEMORY_DIR or the working directory)
  --json           Print one JSON object listing created and existing files
  -h, --help       Show this message
`;
