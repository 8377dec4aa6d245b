// Why: `repomem search` (Sepo's memory/search.js drop-in), declared once.
import { defineCommand } from '../types.js';
import { DIR, EMBEDDER, JSON_OUTPUT, SQLITE_REPO, STORE } from './common.js';

/** `repomem search`. */
export const SEARCH = defineCommand({
  name: 'search',
  sepo: true,
  usage: ['[--dir <path> | --store <spec>] [--limit <n>] [--snippets <n>] [--embedder <spec>] [--json] <query...>'],
  positionals: [
    {
      name: 'query',
      variadic: true,
      description: 'Words to search for, joined with one space (default $MEMORY_QUERY)',
    },
  ],
  options: {
    dir: { ...DIR, description: 'Memory directory to search (Sepo); see repomem --help for the store order' },
    store: STORE,
    repo: SQLITE_REPO,
    limit: { type: 'integer', value: 'n', default: 5, description: 'Maximum number of files to return (default: 5)' },
    snippets: { type: 'integer', value: 'n', default: 3, description: 'Maximum snippets per file (default: 3)' },
    embedder: {
      ...EMBEDDER,
      description:
        'Rank by meaning too: local, openai:<model>, bedrock:<model> (default $REPOMEM_EMBEDDER; none: words only). Lexical and semantic rankings are fused; vectors come from repomem index (documents without vectors rank by words)',
    },
    json: { ...JSON_OUTPUT, description: 'Emit machine-readable JSON instead of text' },
  },
  sections: [
    { title: 'Query', body: '  The remaining arguments joined with one space, or MEMORY_QUERY when none are given.' },
  ],
  examples: [
    {
      command: 'search --dir memory flaky test',
      description: 'Files of the memory directory that mention a flaky test',
    },
    { command: 'search --limit 3 --json release process', description: 'The three best files, as JSON' },
  ],
  load: async () => (await import('../../commands/search.js')).runSearchCommand,
});
