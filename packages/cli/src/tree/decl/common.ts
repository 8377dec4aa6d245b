// Why: options many commands share (store choice, repository, JSON output, embedder), declared
// once with their usual description; a command that means something more specific spreads one
// and overrides `description`.
import type { OptionDecl } from '../types.js';

/** `--store <spec>`. */
export const STORE = {
  type: 'string',
  value: 'spec',
  description: 'sqlite:<path>, dir:<path>, git:<repo-dir>[#<branch>]... (see repomem --help for the order)',
} as const satisfies OptionDecl;

/** `--dir <path>` (Sepo's memory directory). */
export const DIR = {
  type: 'string',
  value: 'path',
  complete: 'directory',
  description: 'Memory directory (Sepo); same as --store dir:<path>',
} as const satisfies OptionDecl;

/** `--repo <o/n>`. */
export const REPO = {
  type: 'string',
  value: 'o/n',
  description: "Repository scope (default $GITHUB_REPOSITORY, then the origin remote's)",
} as const satisfies OptionDecl;

/** `--repo <o/n>` of the Sepo commands (init, update, search), where it scopes a SQLite store only. */
export const SQLITE_REPO = {
  ...REPO,
  description: "Repository scope of a SQLite store (default $GITHUB_REPOSITORY, then the origin remote's)",
} as const satisfies OptionDecl;

/** `--json`. */
export const JSON_OUTPUT = {
  type: 'boolean',
  description: 'Print one JSON object describing the outcome on stdout',
} as const satisfies OptionDecl;

/** `--embedder <spec>`. */
export const EMBEDDER = {
  type: 'string',
  value: 'spec',
  choices: ['local', 'none'],
  description:
    'Rank by meaning too: local, openai:<model>, bedrock:<model> (default $REPOMEM_EMBEDDER; none: words only)',
} as const satisfies OptionDecl;

/** `--source <spec>`: where cited code is read. */
export const SOURCE = {
  type: 'string',
  value: 'spec',
  choices: ['github'],
  description:
    'Where cited code is read: dir:<worktree>, git:<repo-dir>[#<ref>] or github ($GITHUB_TOKEN, $GITHUB_API_URL); default: the git repository around the working directory, else the directory',
} as const satisfies OptionDecl;

/** `--ref <rev>`: the revision citations are read at. */
export const REF = {
  type: 'string',
  value: 'rev',
  description: 'Revision to read citations at (git and github sources; default HEAD)',
} as const satisfies OptionDecl;

/** `--dir`, `--store` and `--repo` together, in that order. */
export const STORE_CHOICE = { store: STORE, dir: DIR, repo: REPO } as const;
