// Why: `repomem export` and `repomem import`, declared once each (they share options and text).
import { defineCommand, type OptionDecl } from '../types.js';
import { DIR, JSON_OUTPUT, REPO, STORE } from './common.js';

const BODY = `Copies documents byte for byte (all but repomem's own .repomem/ documents), then the
repository's verified memories and task records (episodes, rules, preferences, knowledge,
receipts) with their ids, through each store's record backend. Nothing is deleted. An item the
target already holds identically is unchanged; one it holds differently is left alone and listed
unless --overwrite. Running it again copies only what is new. When both stores keep history
(git:) and the target has no documents yet, the source's revisions are replayed first (messages
and trailers kept). Vectors (repomem index rebuilds them) and telemetry events are not copied.
Exit 0 when everything was copied or unchanged, 2 when items were left alone.`;

const SHARED = {
  store: { ...STORE, description: 'The chosen store (also --dir, $REPOMEM_STORE, $MEMORY_DIR, the default)' },
  dir: { ...DIR, description: 'A memory directory as the chosen store' },
  repo: {
    ...REPO,
    description:
      "Repository of the records, and scope of multi-repository stores (default $GITHUB_REPOSITORY, then the origin remote's)",
  },
  'dry-run': {
    type: 'boolean',
    description: 'Report what would be copied; write nothing (the target is opened read-only)',
  },
  overwrite: { type: 'boolean', description: 'Replace items the target holds differently' },
  json: {
    ...JSON_OUTPUT,
    description: 'The report as one JSON object {dryRun, from, to, repo, documents, verified, tasks, conflicts}',
  },
} as const;

const OTHER = { type: 'string', value: 'spec' } as const satisfies Omit<OptionDecl, 'description'>;

/** `repomem export`. */
export const EXPORT = defineCommand({
  name: 'export',
  usage: ['--to <spec> [--store <spec> | --dir <path>] [--repo <owner/name>]', ' [--dry-run] [--overwrite] [--json]'],
  description: `Copy the chosen store's memory to the store <spec> names (for example
repomem export --dir ./memory --to sqlite:.repomem/repomem.db).
${BODY}`,
  options: { to: { ...OTHER, description: 'The target store (required)' }, ...SHARED },
  examples: [
    {
      command: 'export --dir ./memory --to sqlite:.repomem/repomem.db',
      description: 'Move a memory directory into SQLite',
    },
    {
      command: 'export --to git:.#agent/memory --dry-run --json',
      description: 'What a copy to the git branch would do',
    },
  ],
  load: async () => {
    const { runTransferCommand } = await import('../../commands/transfer.js');
    return (argv, io) => runTransferCommand('export', argv, io);
  },
});

/** `repomem import`. */
export const IMPORT = defineCommand({
  name: 'import',
  usage: ['--from <spec> [--store <spec> | --dir <path>] [--repo <owner/name>]', ' [--dry-run] [--overwrite] [--json]'],
  description: `Copy the memory of the store <spec> names into the chosen store (for example
repomem import --from dir:./memory --store postgres://...).
${BODY}`,
  options: { from: { ...OTHER, description: 'The source store (required)' }, ...SHARED },
  examples: [
    {
      command: 'import --from dir:./memory --store sqlite:.repomem/repomem.db',
      description: 'Copy a memory directory into SQLite',
    },
  ],
  load: async () => {
    const { runTransferCommand } = await import('../../commands/transfer.js');
    return (argv, io) => runTransferCommand('import', argv, io);
  },
});
