// Why: a file may carry repomem's marker (`application_id` RPMM, a schema version) without holding
// repomem's tables: copied over, hand-made, or another tool reusing the id. Such a file must be
// refused at open with a clear error naming what is missing, not fail later on some statement
// with "SQL logic error". The expected shape is not a hand-kept list: it is what the migrations
// themselves create, built once in memory.
import { DatabaseSync } from 'node:sqlite';
import { RepomemError } from '@repomem/core';
import { MIGRATIONS, type Migration } from './migrations.js';

let reference: ReadonlyMap<string, readonly string[]> | undefined;

function tablesOf(db: DatabaseSync): Map<string, string[]> {
  const tables = new Map<string, string[]>();
  const names = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as { name: string }[];
  for (const { name } of names) {
    const columns = db.prepare(`PRAGMA table_info(${JSON.stringify(name)})`).all() as { name: string }[];
    tables.set(
      name,
      columns.map((column) => column.name),
    );
  }
  return tables;
}

/** Tables and columns of a database at the current schema version (what the migrations create). */
function referenceShape(): ReadonlyMap<string, readonly string[]> {
  if (reference === undefined) {
    const db = new DatabaseSync(':memory:');
    try {
      for (const migration of MIGRATIONS) (migration as Migration)(db);
      reference = tablesOf(db);
    } finally {
      db.close();
    }
  }
  return reference;
}

/** A description of what a repomem-marked database lacks, for the error message. */
function describe(problem: string, file: string, version: number): RepomemError {
  return new RepomemError(
    'UNSUPPORTED',
    `${file} is marked as a repomem store (schema version ${version}) but does not hold repomem's tables: ${problem}; ` +
      'refusing to use it (move it aside, or point the store at another file)',
    { details: { file, schemaVersion: version } },
  );
}

/**
 * Throw `UNSUPPORTED` naming the first missing table or columns when `db` (at the current schema
 * version) lacks part of repomem's schema.
 */
export function assertRepomemShape(db: DatabaseSync, file: string, version: number): void {
  const actual = tablesOf(db);
  for (const [table, columns] of referenceShape()) {
    const present = actual.get(table);
    if (present === undefined) throw describe(`table ${table} is missing`, file, version);
    const missing = columns.filter((column) => !present.includes(column));
    if (missing.length > 0) throw describe(`table ${table} lacks columns ${missing.join(', ')}`, file, version);
  }
}

/** `error` from a migration of a repomem-marked file, as the same clear refusal (RepomemErrors pass through). */
export function migrationFailure(error: unknown, file: string, version: number): unknown {
  if (error instanceof RepomemError) return error;
  const errstr = (error as { errstr?: unknown } | null)?.errstr;
  const reason = error instanceof Error ? error.message : String(errstr ?? error);
  return describe(`migrating it failed (${reason})`, file, version);
}
