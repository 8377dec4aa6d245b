// Why: `repomem doctor`, declared once.
import { defineCommand } from '../types.js';
import { DIR, EMBEDDER, JSON_OUTPUT, REPO, STORE } from './common.js';

/** `repomem doctor`. */
export const DOCTOR = defineCommand({
  name: 'doctor',
  usage: ['[--store <spec> | --dir <path>] [--repo <owner/name>] [--embedder <spec>] [--json]'],
  description: `Checks the store the other commands would use (same choice: --store, --dir, $REPOMEM_STORE,
$MEMORY_DIR, then the default SQLite file) and explains each failure with a fix. Network stores
check more (PostgreSQL: reachability, server version, privileges, schema version, pooler mode,
row-level security; AgentCore: reachability, permissions, identifier mapping); every store is at
least opened read-only, listed and its state read. Passwords never appear in the report. The
last line names the embedder (--embedder, else $REPOMEM_EMBEDDER) and how many chunks of the
memory lack vectors (repomem index embeds them).
Exit 0 when every check passed or only warned, 2 when one failed.`,
  options: {
    store: { ...STORE, description: 'Store to check' },
    dir: { ...DIR, description: 'Memory directory to check' },
    repo: REPO,
    embedder: { ...EMBEDDER, description: 'Embedder to report on (default $REPOMEM_EMBEDDER; none: lexical ranking)' },
    json: {
      ...JSON_OUTPUT,
      description: 'The report as one JSON object {ok, store, repo, checks:[{check, status, detail, fix?}]}',
    },
  },
  examples: [
    { command: 'doctor', description: 'Check the store every other command would use' },
    {
      command: 'doctor --store postgres://repomem@db.internal/memory --json',
      description: 'Check a PostgreSQL store, as JSON',
    },
  ],
  load: async () => (await import('../../commands/doctor.js')).runDoctorCommand,
});
