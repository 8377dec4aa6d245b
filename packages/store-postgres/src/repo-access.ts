// Why: row-level security hides rows silently: a role without a grant for a repository reads an
// empty memory and could take it for a new one. So before the first read of a repository, the
// store asks the server whether this role may see it: row security off, or the role owns the
// tables or bypasses it (all visible), or the permissive policies that apply to this role, as the
// server itself deparses them, evaluated for a row of that repository. A refusal is a
// `PERMISSION_DENIED` naming role and repository, never an empty result; what cannot be decided
// (a policy over other columns) is not claimed either way.
import { RepomemError } from '@repomem/core';
import { describeIdentity } from './connection-options.js';
import type { PostgresDatabase, Transaction } from './database.js';

/** Whether the connected role may read and write a repository's rows. */
export type RepositoryAccess =
  /** Nothing hides rows from this role (no row security, or it owns the tables or bypasses it). */
  | { readonly kind: 'unrestricted'; readonly role: string; readonly reason: string }
  /** Row security applies and a policy admits this repository. */
  | { readonly kind: 'granted'; readonly role: string }
  /** Row security applies and no policy admits this repository: reads would come back empty. */
  | { readonly kind: 'denied'; readonly role: string }
  /** A policy could not be evaluated for the repository alone (it reads other columns). */
  | { readonly kind: 'undecided'; readonly role: string; readonly reason: string };

/** The table whose policies stand for all repository-scoped tables (repomem applies the same policy to each). */
const PROBE_TABLE = 'documents';

/** Ask the server whether the current role may see `repo`'s rows in `schema`. Read-only. */
export async function repositoryAccess(tx: Transaction, schema: string, repo: string): Promise<RepositoryAccess> {
  const rows = await tx.query<{ role: string; enabled: boolean | null; exempt: boolean | null }>(
    `SELECT current_user AS role, c.relrowsecurity AS enabled,
       (r.rolsuper OR r.rolbypassrls OR (pg_has_role(c.relowner, 'USAGE') AND NOT c.relforcerowsecurity)) AS exempt
     FROM pg_roles r
     LEFT JOIN pg_class c ON c.relname = $2 AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = $1)
     WHERE r.rolname = current_user`,
    [schema, PROBE_TABLE],
  );
  const row = rows[0];
  const role = row?.role ?? 'unknown';
  if (row === undefined || row.enabled === null) return { kind: 'unrestricted', role, reason: 'no repomem tables yet' };
  if (!row.enabled) return { kind: 'unrestricted', role, reason: 'row-level security is not enabled' };
  if (row.exempt === true) {
    return { kind: 'unrestricted', role, reason: 'the role owns the tables or bypasses row-level security' };
  }
  const policies = await tx.query<{ qual: string | null }>(
    `SELECT qual FROM pg_policies
     WHERE schemaname = $1 AND tablename = $2 AND permissive = 'PERMISSIVE' AND cmd IN ('ALL', 'SELECT')
       AND EXISTS (SELECT 1 FROM unnest(roles) AS p(name) WHERE p.name = 'public' OR pg_has_role(current_user, p.name, 'MEMBER'))`,
    [schema, PROBE_TABLE],
  );
  let undecided: string | undefined;
  for (const policy of policies) {
    if (policy.qual === null) return { kind: 'granted', role };
    // The policy's own condition, for one row of `repo` (the subquery stands in for the table).
    await tx.query('SAVEPOINT repomem_access');
    try {
      const found = await tx.query<{ allowed: boolean | null }>(
        `SELECT (${policy.qual}) AS allowed FROM (SELECT $1::text AS repo) AS ${PROBE_TABLE}`,
        [repo],
      );
      await tx.query('RELEASE SAVEPOINT repomem_access');
      if (found[0]?.allowed === true) return { kind: 'granted', role };
    } catch (error) {
      await tx.query('ROLLBACK TO SAVEPOINT repomem_access');
      undecided = error instanceof Error ? error.message : String(error);
    }
  }
  return undecided === undefined ? { kind: 'denied', role } : { kind: 'undecided', role, reason: undecided };
}

/** The error for a role with no row-level-security grant for `repo`. */
export function noAccessError(db: PostgresDatabase, role: string, repo: string): RepomemError {
  return new RepomemError(
    'PERMISSION_DENIED',
    `the role ${JSON.stringify(role)} has no access to repository ${JSON.stringify(repo)} on ${describeIdentity(db.identity)} (schema ${db.schema}): row-level security hides its rows; grant it with \`repomem postgres policies --role ${role} --grant ${repo} --apply\` run by the tables owner, or use a role that has the grant`,
    { details: { ...db.identity, schema: db.schema, role, repo } },
  );
}

/** Checks each repository once per open store or backend, before its first read. */
export class RepositoryAccessCheck {
  readonly #db: PostgresDatabase;
  readonly #checked = new Map<string, Promise<void>>();

  constructor(db: PostgresDatabase) {
    this.#db = db;
  }

  /** Resolves when this role may see `repo` (or it cannot be decided); throws `PERMISSION_DENIED` otherwise. */
  assert(repo: string): Promise<void> {
    let checked = this.#checked.get(repo);
    if (checked === undefined) {
      checked = this.#db
        .read(`checking access to repository ${repo}`, (tx) => repositoryAccess(tx, this.#db.schema, repo))
        .then((access) => {
          if (access.kind === 'denied') throw noAccessError(this.#db, access.role, repo);
        });
      // A failure to ask (a dropped connection) is asked again next time; a refusal is kept.
      checked.catch((error: unknown) => {
        if (!(error instanceof RepomemError && error.code === 'PERMISSION_DENIED')) this.#checked.delete(repo);
      });
      this.#checked.set(repo, checked);
    }
    return checked;
  }
}
