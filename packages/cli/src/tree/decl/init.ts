// Why: `repomem init`, declared once.
import { defineCommand } from '../types.js';
import { DIR, JSON_OUTPUT, SQLITE_REPO, STORE } from './common.js';

/** `repomem init`. */
export const INIT = defineCommand({
  name: 'init',
  usage: ['[--dir <path> | --store <spec>] [--json]'],
  description: `Seeds the memory tree layout: PROJECT.md, MEMORY.md, README.md, daily/.gitkeep, github/.gitkeep.
The seeded README.md describes the layout and is not searched while its first line is unchanged.
Only missing files are created (existing files are never modified); the directory or SQLite
database is created when missing.`,
  options: {
    dir: { ...DIR, description: 'Memory directory (Sepo); see repomem --help for the store order' },
    store: STORE,
    repo: SQLITE_REPO,
    json: { ...JSON_OUTPUT, description: 'Print one JSON object listing created and existing files' },
  },
  examples: [
    { command: 'init', description: 'Seed the default store (sqlite:.repomem/repomem.db at the root of the clone)' },
    { command: 'init --dir memory --json', description: 'Seed a memory directory and list what was created' },
  ],
  load: async () => (await import('../../commands/init.js')).runInitCommand,
});
