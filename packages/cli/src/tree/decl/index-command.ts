// Why: `repomem index`, declared once.
import { defineCommand } from '../types.js';
import { DIR, EMBEDDER, JSON_OUTPUT, REPO, STORE } from './common.js';

/** `repomem index`. */
export const INDEX = defineCommand({
  name: 'index',
  usage: ['[--store <spec> | --dir <path>] [--repo <owner/name>] [--embedder <spec>] [--json]'],
  description: `Builds or refreshes the vectors of the memory for semantic retrieval, and keeps them with the
memory (under .repomem/vectors/<embedder>/ in the store, never returned by search). Only chunks
whose text has no vector yet are embedded: a Markdown bullet or paragraph with its heading, a
mirrored issue or pull request's title and body, then each comment and review. Vectors of chunks
that no longer exist are dropped. A progress bar is shown on a terminal.`,
  options: {
    store: {
      ...STORE,
      description:
        'Store to index (same choice as every command: --store, --dir, $REPOMEM_STORE, $MEMORY_DIR, then sqlite:.repomem/repomem.db)',
    },
    dir: { ...DIR, description: 'Memory directory to index' },
    repo: REPO,
    embedder: {
      ...EMBEDDER,
      description:
        'local (default: the model shipped in @repomem/embedder-local), openai:<model>, bedrock:<model id> (from @repomem/embedders); default $REPOMEM_EMBEDDER, then local',
    },
    json: {
      ...JSON_OUTPUT,
      description:
        'One JSON object {ok, store, embedder, dimensions, embedded, reused, removed, chunks, missing, seconds}',
    },
  },
  examples: [
    { command: 'index', description: 'Embed what is new in the default store with the local model' },
    {
      command: 'index --dir memory --embedder openai:text-embedding-3-small --json',
      description: "Index a memory directory with OpenAI's model",
    },
  ],
  load: async () => (await import('../../commands/index-command.js')).runIndexCommand,
});
