// Why: when a team's memory server does not work, the person at the terminal needs to know which
// of many things is wrong (network, password, server version, privileges, schema, pooler, row
// security) and what to do, without reading driver errors. `repomem doctor` calls this; each
// check is reported, none throws, and no message ever contains the password.
import type { OpenStoreContext, StoreDiagnostic } from '@repomem/core';
import { isRepomemError } from '@repomem/core';
import { type PostgresConnectionFields, resolveConnection } from './connection-options.js';
import { PostgresDatabase, type Transaction } from './database.js';
import { REPO_SCOPED_TABLES } from './migrations.js';
import { repositoryAccess } from './repo-access.js';
import { inspectSchema, POSTGRES_SCHEMA_VERSION } from './schema.js';

/** Oldest PostgreSQL major version this package supports. */
export const MIN_POSTGRES_MAJOR = 13;

function problem(error: unknown): string {
  if (isRepomemError(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}

async function serverVersion(tx: Transaction): Promise<StoreDiagnostic> {
  const rows = await tx.query<{ num: string; text: string }>(
    "SELECT current_setting('server_version_num') AS num, current_setting('server_version') AS text",
  );
  const major = Math.floor(Number(rows[0]?.num ?? 0) / 10_000);
  if (major >= MIN_POSTGRES_MAJOR) {
    return { check: 'server version', status: 'ok', detail: `PostgreSQL ${rows[0]?.text}` };
  }
  return {
    check: 'server version',
    status: 'failed',
    detail: `PostgreSQL ${rows[0]?.text} is older than ${MIN_POSTGRES_MAJOR}, the oldest this store supports`,
    fix: `upgrade the server to PostgreSQL ${MIN_POSTGRES_MAJOR} or newer`,
  };
}

async function schemaVersion(tx: Transaction, schema: string): Promise<StoreDiagnostic> {
  const found = await inspectSchema(tx, schema);
  switch (found.kind) {
    case 'current':
      return { check: 'schema version', status: 'ok', detail: `schema ${schema} is at version ${found.version}` };
    case 'missing':
      return {
        check: 'schema version',
        status: 'warning',
        detail: `schema ${schema} holds no repomem tables yet`,
        fix: 'the first writable open creates them (the user needs CREATE on the database), or run any write command once',
      };
    case 'older':
      return {
        check: 'schema version',
        status: 'warning',
        detail: `schema ${schema} is at version ${found.version}; this release uses ${POSTGRES_SCHEMA_VERSION}`,
        fix: 'open the store writable once (as the tables owner) to migrate it',
      };
    case 'newer':
      return {
        check: 'schema version',
        status: 'failed',
        detail: `schema ${schema} is at version ${found.version}, newer than the ${POSTGRES_SCHEMA_VERSION} this release supports`,
        fix: 'upgrade @repomem/store-postgres (or the repomem CLI)',
      };
    default:
      return {
        check: 'schema version',
        status: 'failed',
        detail: `schema ${schema} holds tables named like repomem's that repomem did not create (${found.tables.join(', ')})`,
        fix: 'choose another schema with ?schema=name in the URL',
      };
  }
}

async function privileges(tx: Transaction, schema: string): Promise<StoreDiagnostic> {
  const present = await tx.query<{ name: string; usable: boolean }>(
    `SELECT c.relname AS name,
       has_table_privilege(c.oid, 'SELECT') AND has_table_privilege(c.oid, 'INSERT')
       AND has_table_privilege(c.oid, 'UPDATE') AND has_table_privilege(c.oid, 'DELETE') AS usable
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = ANY($2::text[])`,
    [schema, [...REPO_SCOPED_TABLES]],
  );
  if (present.length === 0) {
    const rows = await tx.query<{ create: boolean }>(
      "SELECT has_database_privilege(current_database(), 'CREATE') AS create",
    );
    return rows[0]?.create === true
      ? { check: 'privileges', status: 'ok', detail: `may create schema ${schema} and its tables` }
      : {
          check: 'privileges',
          status: 'failed',
          detail: `schema ${schema} does not exist and this user may not create schemas in the database`,
          fix: `run once as the database owner: GRANT CREATE ON DATABASE <database> TO <user>, or create the schema for it`,
        };
  }
  const missing = present.filter((row) => !row.usable).map((row) => row.name);
  if (missing.length === 0) {
    return { check: 'privileges', status: 'ok', detail: 'may read and write every repomem table' };
  }
  return {
    check: 'privileges',
    status: 'failed',
    detail: `this user may not read and write ${missing.join(', ')}`,
    fix: 'grant them with `repomem postgres policies --role <user> --apply` run by the tables owner',
  };
}

async function poolerMode(db: PostgresDatabase): Promise<StoreDiagnostic> {
  const moved = await db.serverConnectionMoves();
  const port = db.identity.port;
  const hint = port === 6543 ? ' (port 6543 is the usual transaction pooler port)' : '';
  return {
    check: 'pooler mode',
    status: 'ok',
    detail: moved
      ? `consecutive transactions ran on different server connections: a transaction-mode pooler is in front${hint}; repomem keeps no session state, so this works`
      : `consecutive transactions ran on the same server connection: a direct connection or a session pooler${hint}; both work`,
  };
}

async function rowSecurity(tx: Transaction, schema: string): Promise<StoreDiagnostic> {
  const tables = await tx.query<{ name: string; enabled: boolean; owned: boolean }>(
    `SELECT c.relname AS name, c.relrowsecurity AS enabled, pg_has_role(c.relowner, 'USAGE') AS owned
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = ANY($2::text[])`,
    [schema, [...REPO_SCOPED_TABLES]],
  );
  if (tables.length === 0) {
    return {
      check: 'row-level security',
      status: 'warning',
      detail: 'no repomem tables yet',
      fix: 'check again after the first write',
    };
  }
  const role = await tx.query<{ bypass: boolean }>(
    'SELECT rolsuper OR rolbypassrls AS bypass FROM pg_roles WHERE rolname = current_user',
  );
  const off = tables.filter((table) => !table.enabled).map((table) => table.name);
  if (off.length > 0) {
    return {
      check: 'row-level security',
      status: 'warning',
      detail: `not enabled on ${off.join(', ')}: any role with table privileges can read every repository's rows`,
      fix: 'review and apply the policies: `repomem postgres policies --role <role> [--apply]`',
    };
  }
  if (role[0]?.bypass === true || tables.some((table) => table.owned)) {
    return {
      check: 'row-level security',
      status: 'ok',
      detail: 'enabled on every table; this user owns the tables or bypasses row security, so it sees every repository',
    };
  }
  return { check: 'row-level security', status: 'ok', detail: 'enabled and enforced for this user' };
}

async function repositoryAccessCheck(tx: Transaction, schema: string, repo: string): Promise<StoreDiagnostic> {
  const access = await repositoryAccess(tx, schema, repo);
  const check = 'repository access';
  switch (access.kind) {
    case 'unrestricted':
      return { check, status: 'ok', detail: `${repo}: every row is visible to ${access.role} (${access.reason})` };
    case 'granted':
      return { check, status: 'ok', detail: `${access.role} has a row-level security grant for ${repo}` };
    case 'undecided':
      return {
        check,
        status: 'warning',
        detail: `whether ${access.role} may see ${repo} depends on a policy that reads more than the repository (${access.reason})`,
        fix: 'review the policies on the repomem tables: `repomem postgres policies --role <role>` prints the ones repomem expects',
      };
    default:
      return {
        check,
        status: 'failed',
        detail: `the role ${access.role} has no access to repository ${repo}: row-level security hides its rows, so reads would come back empty and writes are refused`,
        fix: `run as the tables owner: repomem postgres policies --role ${access.role} --grant ${repo} --apply (or use a role that has the grant)`,
      };
  }
}

/**
 * The checks of `repomem doctor` for a PostgreSQL store: reachable (and authentication), server
 * version, schema version, privileges, row-level security, access to the repository the command
 * is scoped to, and pooler mode. Never throws.
 */
export async function diagnosePostgres(
  fields: PostgresConnectionFields,
  label: string,
  context: OpenStoreContext,
): Promise<readonly StoreDiagnostic[]> {
  const checks: StoreDiagnostic[] = [];
  let db: PostgresDatabase;
  try {
    db = new PostgresDatabase({
      connection: resolveConnection([fields]),
      retry: { retries: 0, minTimeoutMs: 10, maxTimeoutMs: 10 },
    });
  } catch (error) {
    return [{ check: 'reachable', status: 'failed', detail: problem(error), fix: 'check the connection URL' }];
  }
  try {
    try {
      await db.read('connecting', (tx) => tx.query('SELECT 1'));
      checks.push({ check: 'reachable', status: 'ok', detail: `connected to ${label}` });
    } catch (error) {
      checks.push({
        check: 'reachable',
        status: 'failed',
        detail: problem(error),
        fix: 'check that the server runs and accepts connections from here, and the user name and password (PGPASSWORD or the URL)',
      });
      return checks;
    }
    const steps: Array<[string, (tx: Transaction) => Promise<StoreDiagnostic>]> = [
      ['server version', serverVersion],
      ['schema version', (tx) => schemaVersion(tx, db.schema)],
      ['privileges', (tx) => privileges(tx, db.schema)],
      ['row-level security', (tx) => rowSecurity(tx, db.schema)],
      ['repository access', (tx) => repositoryAccessCheck(tx, db.schema, context.repo)],
    ];
    for (const [check, step] of steps) {
      try {
        checks.push(await db.read(check, step));
      } catch (error) {
        checks.push({ check, status: 'failed', detail: problem(error) });
      }
    }
    try {
      checks.push(await poolerMode(db));
    } catch (error) {
      checks.push({
        check: 'pooler mode',
        status: 'failed',
        detail: problem(db.translate(error, 'probing the pooler')),
      });
    }
    return checks;
  } finally {
    await db.close();
  }
}
