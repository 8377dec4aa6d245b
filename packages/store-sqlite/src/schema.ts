// Why: the database layout is versioned so a file outlives the package version that created it.
// `PRAGMA user_version` records the schema version and `PRAGMA application_id` marks the file as
// repomem's; migrations run forward only, inside one `BEGIN IMMEDIATE` transaction so two
// processes opening a fresh file at once do not both migrate. A file from a newer schema (written
// by a newer package) is refused, never downgraded or half-read.
import { randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { RepomemError } from '@repomem/core';
import { MIGRATIONS, type Migration } from './migrations.js';
import { assertRepomemShape, migrationFailure } from './schema-shape.js';

/** Schema version this package writes and reads. */
export const SQLITE_SCHEMA_VERSION = 4;

/** `PRAGMA application_id` of a repomem database: the ASCII bytes `RPMM`. */
export const SQLITE_APPLICATION_ID = 0x52504d4d;

/** Roll back the open transaction, if any (a failed COMMIT or statement may already have ended it). */
export function rollbackQuietly(db: DatabaseSync): void {
  try {
    db.exec('ROLLBACK');
  } catch {
    // No transaction was open.
  }
}

/** Repomem tables; a database holding other tables but no repomem marker is not ours. */
const OWN_TABLE =
  /^(repomem_meta|repos|documents|document_contents|documents_fts.*|memories|memory_citations|memories_fts.*|memory_events|state)$/;

interface SchemaState {
  readonly version: number;
  readonly applicationId: number;
}

function readState(db: DatabaseSync): SchemaState {
  const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  const applicationId = Number(
    (db.prepare('PRAGMA application_id').get() as { application_id: number }).application_id,
  );
  return { version, applicationId };
}

function assertSupported(state: SchemaState, db: DatabaseSync, file: string): void {
  if (state.applicationId !== 0 && state.applicationId !== SQLITE_APPLICATION_ID) {
    throw new RepomemError(
      'UNSUPPORTED',
      `${file} is a SQLite database of another application (application_id ${state.applicationId}); refusing to use it as a repomem store`,
      { details: { file, applicationId: state.applicationId } },
    );
  }
  if (state.version > SQLITE_SCHEMA_VERSION) {
    throw new RepomemError(
      'UNSUPPORTED',
      `${file} has repomem schema version ${state.version}, newer than the ${SQLITE_SCHEMA_VERSION} this @repomem/store-sqlite supports; upgrade @repomem/store-sqlite (the database is never downgraded)`,
      { details: { file, schemaVersion: state.version, supported: SQLITE_SCHEMA_VERSION } },
    );
  }
  if (state.applicationId === 0 && state.version === 0) {
    const foreign = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[])
      .map((row) => row.name)
      .filter((name) => !OWN_TABLE.test(name) && !name.startsWith('sqlite_'));
    if (foreign.length > 0) {
      throw new RepomemError(
        'UNSUPPORTED',
        `${file} is a SQLite database that is not a repomem store (it has tables ${foreign.slice(0, 5).join(', ')}); refusing to add repomem tables to it`,
        { details: { file, tables: foreign } },
      );
    }
  }
}

/**
 * Check the database's schema and bring it to {@link SQLITE_SCHEMA_VERSION}. Throws `UNSUPPORTED`
 * for a newer schema or a foreign database, and `READ_ONLY` when a read-only database still needs
 * migrating. Returns the database's identity (random, created with the schema).
 */
export function ensureSchema(db: DatabaseSync, file: string, readOnly: boolean): string {
  const before = readState(db);
  assertSupported(before, db, file);
  if (before.version < SQLITE_SCHEMA_VERSION) {
    if (readOnly) {
      throw new RepomemError(
        'READ_ONLY',
        `${file} needs schema version ${SQLITE_SCHEMA_VERSION} (it has ${before.version}) but is open read-only; open it writable once to migrate`,
        { details: { file, schemaVersion: before.version } },
      );
    }
    db.exec('BEGIN IMMEDIATE');
    try {
      // Another process may have migrated between the check above and taking the write lock.
      const locked = readState(db);
      assertSupported(locked, db, file);
      for (let version = locked.version; version < SQLITE_SCHEMA_VERSION; version++) {
        (MIGRATIONS[version] as Migration)(db);
      }
      if (locked.version === 0) {
        db.prepare("INSERT INTO repomem_meta (key, value) VALUES ('database_id', ?)").run(
          randomBytes(8).toString('hex'),
        );
        db.exec(`PRAGMA application_id = ${SQLITE_APPLICATION_ID}`);
      }
      db.exec(`PRAGMA user_version = ${SQLITE_SCHEMA_VERSION}`);
      db.exec('COMMIT');
    } catch (error) {
      rollbackQuietly(db);
      throw before.version > 0 || before.applicationId === SQLITE_APPLICATION_ID
        ? migrationFailure(error, file, before.version)
        : error;
    }
  }
  assertRepomemShape(db, file, SQLITE_SCHEMA_VERSION);
  const row = db.prepare("SELECT value FROM repomem_meta WHERE key = 'database_id'").get() as
    | { value: string }
    | undefined;
  if (row === undefined) {
    throw new RepomemError('BACKEND_UNAVAILABLE', `${file} is damaged: its repomem_meta table has no database_id`, {
      details: { file },
    });
  }
  return row.value;
}
