// Why: core's registry loads this package for `postgres:` and `postgresql:` specs on demand, so
// the CLI's `--store`, `$REPOMEM_STORE`, the MCP server and library callers open PostgreSQL the
// same way as any store, get the native verified-memory and task-record tables, and `repomem
// doctor` gets this store's own checks. Labels never show the password.
import type { StoreScheme } from '@repomem/core';
import { diagnosePostgres } from './diagnose.js';
import { type PostgresSpecTarget, parsePostgresSpec, postgresSpecFields, postgresSpecLabel } from './postgres-spec.js';
import { openPostgresStore } from './postgres-store.js';
import { openPostgresRecordBackend } from './record-backend.js';
import { openPostgresTaskRecordBackend } from './task-record-backend.js';

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
    openPostgresStore({ ...postgresSpecFields(target), repo: context.repo, readOnly: context.readOnly }),
  openVerifiedBackend: (target, context) =>
    openPostgresRecordBackend({ ...postgresSpecFields(target), readOnly: context.readOnly }),
  openTaskRecordBackend: (target, context) =>
    openPostgresTaskRecordBackend({ ...postgresSpecFields(target), readOnly: context.readOnly }),
  diagnose: (target, context) => diagnosePostgres(postgresSpecFields(target), postgresSpecLabel(target), context),
};
