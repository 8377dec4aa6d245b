// Why: isolating repositories inside PostgreSQL (row-level security) is a change a database owner
// wants to read before it runs. `repomem postgres policies` prints the statements for a role
// (the grants form, or Supabase's JWT-claim form) and `--apply` runs them in one transaction on
// the store the other commands use (--store, $REPOMEM_STORE, then $DATABASE_URL).
import { CliUsageError, ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { commandRunner } from '../tree/command-runner.js';
import { POSTGRES } from '../tree/decl/postgres.js';
import type { CommandRunner } from '../tree/types.js';

const POSTGRES_SPEC = /^(?:postgres|postgresql):/;

/** The spec to apply to: --store, else $REPOMEM_STORE when it is a postgres one, else `postgres:` ($DATABASE_URL). */
function chooseSpec(store: string | undefined, env: CliIo['env']): string {
  const spec =
    store ??
    (env.REPOMEM_STORE !== undefined && POSTGRES_SPEC.test(env.REPOMEM_STORE) ? env.REPOMEM_STORE : 'postgres:');
  if (!POSTGRES_SPEC.test(spec))
    throw new CliUsageError(`--store must be a postgres:// store, got ${spec.split(':')[0]}:`);
  return spec;
}

/** Run `repomem postgres policies --role <name> [--grant <owner/name>]... [--supabase] [--apply]`. */
export const runPostgresCommand: CommandRunner = commandRunner(
  POSTGRES,
  async ({ options, subcommand, positionals }, io) => {
    if (subcommand !== 'policies') throw new CliUsageError(`unknown postgres subcommand: ${subcommand ?? '(none)'}`);
    if (positionals.length > 0) throw new CliUsageError(`unexpected argument: ${positionals[0]}`);
    const supabase = options.supabase;
    const role = options.role ?? (supabase ? 'authenticated' : undefined);
    if (role === undefined) throw new CliUsageError('--role is required (the database role to restrict)');
    const grant = [...options.grant];
    const postgres = await import('@repomem/store-postgres');
    const policy = { role, form: supabase ? ('supabase' as const) : ('grants' as const), grant };
    const store = options.store;
    const apply = options.apply;
    let schema = options.schema;
    let statements: readonly string[];
    let label: string | undefined;
    if (apply || store !== undefined) {
      const spec = chooseSpec(store, io.env);
      const target = postgres.storeScheme.parse(spec.replace(POSTGRES_SPEC, ''), { cwd: io.cwd, env: io.env });
      label = postgres.postgresSpecLabel(target);
      const fields = postgres.postgresSpecFields(target);
      schema = schema ?? fields.schema;
      statements = apply
        ? await postgres.applyRowLevelSecurity({ ...fields, ...(schema === undefined ? {} : { schema }) }, policy)
        : postgres.rowLevelSecurityStatements({ ...policy, ...(schema === undefined ? {} : { schema }) });
    } else {
      statements = postgres.rowLevelSecurityStatements({ ...policy, ...(schema === undefined ? {} : { schema }) });
    }
    if (options.json) {
      io.stdout.write(`${JSON.stringify({ ok: true, applied: apply, store: label, statements })}\n`);
    } else {
      if (apply) io.stderr.write(`repomem postgres: applied ${statements.length} statements to ${label}\n`);
      io.stdout.write(statements.map((statement) => `${statement};\n`).join(''));
    }
    return ExitCode.ok;
  },
  { subcommand: 'own' },
);
