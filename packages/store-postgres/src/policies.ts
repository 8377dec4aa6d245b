// Why: "every query is scoped by repository" protects a team from repomem's own code, not from a
// hand-written query with a leaked credential. Row-level security moves the boundary into the
// database: a role sees and writes only the repositories it is granted, whatever SQL it sends.
// Two forms: grants kept in `repo_grants` (one row per role and repository, `*` for all), and
// Supabase's, where the repositories come from a JWT claim. The statements are printed for
// review (`repomem postgres policies`) or applied in one transaction (`--apply`).
import { RepomemError } from '@repomem/core';
import { z } from 'zod';
import { DEFAULT_POSTGRES_SCHEMA, PostgresSchemaNameSchema } from './connection-options.js';
import { REPO_SCOPED_TABLES } from './migrations.js';
import { openDatabase, type PostgresConnectionOptions } from './open-database.js';
import { quoteIdentifier } from './sql-text.js';

/** Options of {@link rowLevelSecurityStatements}, checked with zod. */
export const RowLevelSecurityOptionsSchema = z
  .object({
    /** Schema holding repomem's tables (default `repomem`). */
    schema: PostgresSchemaNameSchema.optional(),
    /** Role the policies restrict (grants form) — for Supabase, `authenticated`. */
    role: z.string().regex(/^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/, {
      message: 'a role name is letters, digits, "_", "$" and "-", starting with a letter or "_"',
    }),
    /** `grants` (rows of `repo_grants`) or `supabase` (the JWT claim `app_metadata.repomem_repos`). */
    form: z.enum(['grants', 'supabase']).optional(),
    /** Repositories to grant the role now (grants form): inserted into `repo_grants`. */
    grant: z.array(z.string().min(1).max(512)).optional(),
  })
  .strict();
/** Options of {@link rowLevelSecurityStatements}. */
export type RowLevelSecurityOptions = z.infer<typeof RowLevelSecurityOptionsSchema>;

/** The JWT claim (under `app_metadata`) listing a Supabase user's repositories. */
export const SUPABASE_REPOS_CLAIM = 'repomem_repos';

function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The SQL that restricts `role` to its repositories on every repository-scoped table of the
 * schema (and grants it the table privileges it needs), one statement per entry. Idempotent:
 * policies are dropped and created again.
 */
export function rowLevelSecurityStatements(input: RowLevelSecurityOptions): string[] {
  const parsed = RowLevelSecurityOptionsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RepomemError('INVALID_ARGUMENT', `policies: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const options = parsed.data;
  const s = quoteIdentifier(options.schema ?? DEFAULT_POSTGRES_SCHEMA);
  const role = quoteIdentifier(options.role);
  const form = options.form ?? 'grants';
  const policy = quoteIdentifier(`repomem_repo_access_${options.role}`.slice(0, 63));
  // The row's column is qualified with its table: inside the subquery a bare `repo` would be g.repo.
  const allowed = (table: string): string =>
    form === 'supabase'
      ? `${quoteIdentifier(table)}.repo IN (SELECT jsonb_array_elements_text(coalesce(auth.jwt() -> 'app_metadata' -> '${SUPABASE_REPOS_CLAIM}', '[]'::jsonb)))`
      : `EXISTS (SELECT 1 FROM ${s}.repo_grants g WHERE g.role_name = current_user AND (g.repo = ${quoteIdentifier(table)}.repo OR g.repo = '*'))`;
  const statements = [
    `GRANT USAGE ON SCHEMA ${s} TO ${role}`,
    `GRANT SELECT ON ${s}.repomem_meta TO ${role}`,
    `GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${s} TO ${role}`,
  ];
  if (form === 'grants') {
    statements.push(
      `GRANT SELECT ON ${s}.repo_grants TO ${role}`,
      `ALTER TABLE ${s}.repo_grants ENABLE ROW LEVEL SECURITY`,
      `DROP POLICY IF EXISTS ${policy} ON ${s}.repo_grants`,
      `CREATE POLICY ${policy} ON ${s}.repo_grants FOR SELECT TO ${role} USING (role_name = current_user)`,
    );
  }
  for (const table of REPO_SCOPED_TABLES) {
    const t = `${s}.${quoteIdentifier(table)}`;
    statements.push(
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ${t} TO ${role}`,
      `ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY`,
      `DROP POLICY IF EXISTS ${policy} ON ${t}`,
      `CREATE POLICY ${policy} ON ${t} FOR ALL TO ${role} USING (${allowed(table)}) WITH CHECK (${allowed(table)})`,
    );
  }
  for (const repo of options.grant ?? []) {
    statements.push(
      `INSERT INTO ${s}.repo_grants (role_name, repo) VALUES (${quoteLiteral(options.role)}, ${quoteLiteral(repo)}) ON CONFLICT DO NOTHING`,
    );
  }
  return statements;
}

/**
 * Apply {@link rowLevelSecurityStatements} in one transaction, connected as the tables' owner
 * (creating the schema first when it is missing).
 */
export async function applyRowLevelSecurity(
  connection: PostgresConnectionOptions,
  options: Omit<RowLevelSecurityOptions, 'schema'>,
): Promise<readonly string[]> {
  const { db } = await openDatabase(connection, 'applyRowLevelSecurity');
  try {
    const statements = rowLevelSecurityStatements({ ...options, schema: db.schema });
    await db.transaction(
      'applying row-level security policies',
      async (tx) => {
        for (const statement of statements) await tx.query(statement);
        return { commit: true, value: null };
      },
      { write: false },
    );
    return statements;
  } finally {
    await db.close();
  }
}
