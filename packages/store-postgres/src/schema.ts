// Why: a database outlives the package version that created it and is shared by many processes.
// The schema version is a row of `repomem_meta`; migrations run forward only, in one transaction
// under a transaction-level advisory lock (never a session lock, which a transaction-mode pooler
// would leak to another client), so two processes starting at once migrate once. A schema from a
// newer release is refused, never downgraded; tables with repomem's names that repomem did not
// create are refused, never altered.
import { randomBytes } from 'node:crypto';
import { RepomemError } from '@repomem/core';
import type { PostgresDatabase, Transaction } from './database.js';
import { MIGRATIONS, REPOMEM_TABLES } from './migrations.js';

/** Schema version this package writes and reads. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

/** What {@link inspectSchema} found. */
export type SchemaInspection =
  | { readonly kind: 'current'; readonly version: number; readonly databaseId: string }
  | { readonly kind: 'older'; readonly version: number }
  | { readonly kind: 'missing' }
  | { readonly kind: 'newer'; readonly version: number }
  | { readonly kind: 'foreign'; readonly tables: readonly string[] };

/** Read the schema's state without changing anything. */
export async function inspectSchema(tx: Transaction, schema: string): Promise<SchemaInspection> {
  const tables = (
    await tx.query<{ name: string }>(
      'SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = ANY($2::text[])',
      [schema, [...REPOMEM_TABLES]],
    )
  ).map((row) => row.name);
  if (!tables.includes('repomem_meta')) {
    return tables.length > 0 ? { kind: 'foreign', tables: tables.sort() } : { kind: 'missing' };
  }
  const rows = await tx.query<{ key: string; value: string }>(
    `SELECT key, value FROM "${schema}".repomem_meta WHERE key IN ('schema_version', 'database_id', 'application')`,
  );
  const meta = new Map(rows.map((row) => [row.key, row.value]));
  if (meta.get('application') !== 'repomem') return { kind: 'foreign', tables: tables.sort() };
  const version = Number(meta.get('schema_version') ?? '0');
  if (version > POSTGRES_SCHEMA_VERSION) return { kind: 'newer', version };
  if (version < POSTGRES_SCHEMA_VERSION) return { kind: 'older', version };
  return { kind: 'current', version, databaseId: meta.get('database_id') ?? '' };
}

function refusal(db: PostgresDatabase, found: SchemaInspection): RepomemError | undefined {
  const where = `schema ${JSON.stringify(db.schema)} of database ${JSON.stringify(db.identity.database)} at ${db.identity.host}:${db.identity.port}`;
  if (found.kind === 'newer') {
    return new RepomemError(
      'UNSUPPORTED',
      `the ${where} has repomem schema version ${found.version}, newer than the ${POSTGRES_SCHEMA_VERSION} this @repomem/store-postgres supports; upgrade @repomem/store-postgres (the schema is never downgraded)`,
      { details: { schema: db.schema, schemaVersion: found.version, supported: POSTGRES_SCHEMA_VERSION } },
    );
  }
  if (found.kind === 'foreign') {
    return new RepomemError(
      'UNSUPPORTED',
      `the ${where} already holds tables named like repomem's (${found.tables.join(', ')}) that repomem did not create; refusing to use or alter them (choose another schema with the "schema" option or ?schema= in the URL)`,
      { details: { schema: db.schema, tables: [...found.tables] } },
    );
  }
  return undefined;
}

/**
 * Check the schema and bring it to {@link POSTGRES_SCHEMA_VERSION} (creating it when missing).
 * Throws `UNSUPPORTED` for a newer schema or foreign tables. Returns the database identity
 * (random, created with the schema).
 */
export async function ensureSchema(db: PostgresDatabase): Promise<string> {
  const first = await db.read('checking the repomem schema', (tx) => inspectSchema(tx, db.schema));
  if (first.kind === 'current') return first.databaseId;
  const refused = refusal(db, first);
  if (refused !== undefined) throw refused;
  return db.transaction(
    `migrating the repomem schema ${JSON.stringify(db.schema)}`,
    async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('repomem:migrate:' || $1, 0))", [db.schema]);
      // Another process may have migrated between the check above and taking the lock.
      const locked = await inspectSchema(tx, db.schema);
      const lockedRefusal = refusal(db, locked);
      if (lockedRefusal !== undefined) throw lockedRefusal;
      if (locked.kind === 'current') return { commit: false, value: locked.databaseId };
      const from = locked.kind === 'older' ? locked.version : 0;
      if (from === 0) {
        const exists = await tx.query<{ found: boolean }>(
          'SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS found',
          [db.schema],
        );
        if (exists[0]?.found !== true) await tx.query(`CREATE SCHEMA ${db.qualifier}`);
      }
      for (let version = from; version < POSTGRES_SCHEMA_VERSION; version++) {
        await tx.query((MIGRATIONS[version] as (s: string) => string)(db.qualifier));
      }
      const databaseId = from === 0 ? randomBytes(8).toString('hex') : undefined;
      if (databaseId !== undefined) {
        await tx.query(
          `INSERT INTO ${db.table('repomem_meta')} (key, value) VALUES ('application', 'repomem'), ('database_id', $1)`,
          [databaseId],
        );
      }
      await tx.query(
        `INSERT INTO ${db.table('repomem_meta')} (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [String(POSTGRES_SCHEMA_VERSION)],
      );
      const id = await tx.query<{ value: string }>(
        `SELECT value FROM ${db.table('repomem_meta')} WHERE key = 'database_id'`,
      );
      return { commit: true, value: id[0]?.value ?? '' };
    },
    { write: false },
  );
}
