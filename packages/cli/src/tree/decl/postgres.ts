// Why: `repomem postgres`, declared once.
import { defineCommand } from '../types.js';
import { JSON_OUTPUT } from './common.js';

/** `repomem postgres`. */
export const POSTGRES = defineCommand({
  name: 'postgres',
  usage: [
    'policies --role <name> [--grant <owner/name>]... [--supabase]',
    ' [--store <spec>] [--schema <name>] [--apply] [--json]',
  ],
  description: `Prints the row-level security policies that restrict a database role to the repositories it is
granted, on every table of a PostgreSQL store (documents, state, agent_memory,
agent_memory_telemetry, task_records...), with the table privileges the role needs. Review them,
then run them yourself or pass --apply to run them in one transaction as the tables' owner. The
store is --store, else $REPOMEM_STORE when it is a postgres:// one, else $DATABASE_URL.`,
  subcommands: [{ name: 'policies', summary: 'Print (or apply) the row-level security policies of a role' }],
  options: {
    role: {
      type: 'string',
      value: 'name',
      description: 'Database role to restrict (with --supabase: default authenticated)',
    },
    grant: {
      type: 'string',
      value: 'owner/name',
      multiple: true,
      description: 'Also grant the role this repository (repeatable; "*" grants all)',
    },
    supabase: {
      type: 'boolean',
      description:
        'Supabase form: repositories come from the JWT claim app_metadata.repomem_repos instead of the repo_grants table',
    },
    store: { type: 'string', value: 'spec', description: 'postgres://user:password@host:port/database[?schema=name]' },
    schema: {
      type: 'string',
      value: 'name',
      description: "Schema holding the tables (default: the spec's, else repomem)",
    },
    apply: { type: 'boolean', description: 'Run the statements (otherwise only print them)' },
    json: { ...JSON_OUTPUT, description: 'One JSON object {ok, applied, store, statements}' },
  },
  examples: [
    {
      command: 'postgres policies --role agent --grant acme/shop',
      description: 'The policies restricting role agent to acme/shop',
    },
    { command: 'postgres policies --supabase --apply', description: "Apply Supabase's form of the policies" },
  ],
  load: async () => (await import('../../commands/postgres.js')).runPostgresCommand,
});
