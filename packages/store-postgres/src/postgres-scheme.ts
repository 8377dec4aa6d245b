// Why: core's registry loads this package for `postgres:` and `postgresql:` specs on demand, so
// the CLI's `--store`, `$REPOMEM_STORE`, the MCP server and library callers open PostgreSQL the
// same way as any store, get the native verified-memory and task-record tables, and `repomem
// doctor` gets this store's own checks. Labels never show the password.
import type { OpenStoreContext, StoreScheme } from '@repomem/core';
import type { PostgresConnectionFields } from './connection-options.js';
import { diagnosePostgres } from './diagnose.js';
import { openPostgresStoreSet } from './postgres-set.js';
import { type PostgresSpecTarget, parsePostgresSpec, postgresSpecFields, postgresSpecLabel } from './postgres-spec.js';
import { openPostgresStore } from './postgres-store.js';
import { openPostgresRecordBackend } from './record-backend.js';
import { openPostgresTaskRecordBackend } from './task-record-backend.js';

/** The target's fields; the context's connection limit applies when the spec sets no `pool_max`. */
function fieldsOf(target: PostgresSpecTarget, context: OpenStoreContext): PostgresConnectionFields {
  const fields = postgresSpecFields(target);
  const explicit = target.layers.some((layer) => layer.maxConnections !== undefined);
  return explicit || context.maxConnections === undefined
    ? fields
    : { ...fields, maxConnections: context.maxConnections };
}

export { type PostgresSpecTarget, parsePostgresSpec, postgresSpecFields, postgresSpecLabel } from './postgres-spec.js';

/**
 * The `postgres:` store scheme (alias `postgresql:`), loaded by core's registry.
 * Grammar `postgres://user:password@host:port/database[?schema=…&sslmode=…]`, or `postgres:`
 * alone for `$DATABASE_URL`; missing parts come from the libpq variables (`PGHOST`, `PGPORT`,
 * `PGDATABASE`, `PGUSER`, `PGPASSWORD`, `PGSSLMODE`). The store is scoped to the context's
 * repository; a read-only context never creates or migrates the schema.
 *
 * @example
 * ```ts
 * import { openStore } from '@repomem/core';
 * const store = await openStore('postgres://agent@db.internal/memory', { repo: 'acme/app' });
 * ```
 */
export const storeScheme: StoreScheme<PostgresSpecTarget> = {
  scheme: 'postgres',
  aliases: ['postgresql'],
  grammar: 'postgres://user:password@host:port/database[?schema=name&sslmode=require]',
  parse: (rest, context) => parsePostgresSpec(rest, context.env),
  label: (target) => postgresSpecLabel(target),
  open: (target, context) =>
    openPostgresStore({ ...fieldsOf(target, context), repo: context.repo, readOnly: context.readOnly }),
  // One pool for the store and both backends (`openStoreSet`: one server connection per command).
  openSet: (target, context) =>
    openPostgresStoreSet({ ...fieldsOf(target, context), repo: context.repo, readOnly: context.readOnly }),
  openVerifiedBackend: (target, context) =>
    openPostgresRecordBackend({ ...fieldsOf(target, context), readOnly: context.readOnly }),
  openTaskRecordBackend: (target, context) =>
    openPostgresTaskRecordBackend({ ...fieldsOf(target, context), readOnly: context.readOnly }),
  diagnose: (target, context) => diagnosePostgres(postgresSpecFields(target), postgresSpecLabel(target), context),
};
