// Why: `repomem update` (Sepo's memory/update.js drop-in), declared once.
import { defineCommand } from '../types.js';
import { DIR, JSON_OUTPUT, SQLITE_REPO, STORE } from './common.js';

const FILE = {
  file: {
    type: 'string',
    value: 'MEMORY.md|PROJECT.md',
    choices: ['MEMORY.md', 'PROJECT.md'],
    description: 'The memory file to edit',
  },
} as const;

/** `repomem update`. */
export const UPDATE = defineCommand({
  name: 'update',
  sepo: true,
  usage: ['<subcommand> [options] [text...]'],
  subcommands: [
    {
      name: 'add',
      usage: '--file <MEMORY.md|PROJECT.md> --section <name> <bullet>',
      summary: 'Add a bullet to a section',
    },
    {
      name: 'replace',
      usage: '--file <MEMORY.md|PROJECT.md> --section <name> --match <text> --with <new bullet>',
      summary: 'Replace the one bullet of the section that matches',
    },
    {
      name: 'remove',
      usage: '--file <MEMORY.md|PROJECT.md> --section <name> --match <text>',
      summary: 'Remove the one bullet that matches',
    },
    { name: 'daily-append', usage: '<bullet>', summary: "Append a bullet to today's daily log" },
  ],
  positionals: [{ name: 'text', variadic: true, description: '' }],
  options: {
    dir: { ...DIR, description: 'Memory directory (Sepo); see repomem --help for the store order' },
    store: STORE,
    repo: SQLITE_REPO,
    ...FILE,
    section: { type: 'string', value: 'name', description: 'Section (## heading) of the file' },
    match: { type: 'string', value: 'text', description: 'Text that identifies the one bullet to replace or remove' },
    with: { type: 'string', value: 'new bullet', description: 'The replacing bullet' },
    json: { ...JSON_OUTPUT, description: 'Print one JSON object describing the outcome on stdout' },
    'read-only': { type: 'boolean', description: 'Open the memory read-only (any write fails with exit code 2)' },
  },
  sections: [
    {
      title: 'Text',
      body: '  Remaining arguments are joined with one space to form the bullet text.',
    },
    {
      title: 'Exit codes',
      body: '  0 changed or no change, 2 no match / ambiguous / missing section / bad memory dir,\n  1 usage or unexpected error.',
    },
  ],
  examples: [
    {
      command: 'update add --dir memory --file MEMORY.md --section Durable "Use pnpm, not npm"',
      description: 'Add a bullet',
    },
    {
      command: 'update replace --dir memory --file PROJECT.md --section Build --match "npm test" --with "pnpm test"',
      description: 'Replace the bullet that mentions npm test',
    },
    {
      command: 'update daily-append --store sqlite:.repomem/repomem.db Flaky test in ci.yml',
      description: "Note something in today's log",
    },
  ],
  load: async () => (await import('../../commands/update.js')).runUpdateCommand,
});
