// Why: opening a database file is where most bad input shows up (a missing directory, random
// bytes, a write-protected file, a newer schema). This module opens the connection, decides
// read-only mode, sets the pragmas several processes need to share one file (WAL, busy timeout),
// runs the schema check, and reports every failure as a RepomemError naming the file.
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { RepomemError } from '@repomem/core';
import { ensureSchema } from './schema.js';
import { SQLITE_CODES, sqlitePrimaryCode, translateSqliteError } from './sqlite-errors.js';

/** An open, schema-checked connection. */
export interface OpenedConnection {
  readonly db: DatabaseSync;
  /** Absolute path of the database file (or `:memory:`). */
  readonly file: string;
  readonly readOnly: boolean;
  /** Random identity of the database, created with its schema. */
  readonly databaseId: string;
}

/** What {@link openConnection} needs. */
export interface ConnectionOptions {
  readonly path: string;
  readonly busyTimeoutMs: number;
  readonly readOnly: boolean;
}

/** In-memory databases (`:memory:`) have no file and cannot be shared between connections. */
export const MEMORY_DATABASE = ':memory:';

/**
 * True when the existing file at `file` must be opened read-only: the process cannot write it, or
 * it has no write permission bit at all (honoured even for root, who could write it anyway, so
 * `chmod a-w` protects a database the same way for everyone).
 */
function isWriteProtected(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
  } catch {
    return true;
  }
  return (statSync(file).mode & 0o222) === 0;
}

/**
 * Run `step` again while SQLite answers `SQLITE_BUSY` without waiting, until `timeoutMs` has
 * passed. SQLite skips the busy handler where waiting could deadlock: switching a new file to WAL
 * while another process does the same, or upgrading a read to a write lock. Those steps are
 * idempotent at open, so two processes opening one new file at once both succeed.
 */
function retryWhileBusy<T>(timeoutMs: number, step: () => T): T {
  const deadline = Date.now() + timeoutMs;
  let pause = 2;
  for (;;) {
    try {
      return step();
    } catch (error) {
      if (sqlitePrimaryCode(error) !== SQLITE_CODES.BUSY || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause);
      pause = Math.min(pause * 2, 50);
    }
  }
}

/** Pragmas and schema check of a fresh connection; idempotent, so it can be re-run when busy. */
function prepareConnection(db: DatabaseSync, file: string, readOnly: boolean, inMemory: boolean): string {
  // Reading the schema is the first real access: random bytes fail here with "not a database".
  db.prepare('SELECT count(*) FROM sqlite_schema').get();
  if (!readOnly && !inMemory) {
    const mode = db.prepare('PRAGMA journal_mode = WAL').get() as { journal_mode: string };
    if (mode.journal_mode.toLowerCase() !== 'wal') {
      throw new RepomemError('BACKEND_UNAVAILABLE', `${file} cannot use WAL mode (got ${mode.journal_mode})`, {
        details: { file },
      });
    }
  }
  // FULL: a commit is fsynced before write() returns, like the directory store's fsync + rename.
  db.exec('PRAGMA synchronous = FULL');
  return ensureSchema(db, file, readOnly);
}

/** Open and check the database at `options.path`; see {@link ConnectionOptions}. */
export function openConnection(options: ConnectionOptions): OpenedConnection {
  const inMemory = options.path === MEMORY_DATABASE;
  const file = inMemory ? MEMORY_DATABASE : resolve(options.path);
  const exists = !inMemory && existsSync(file);
  if (exists && statSync(file).isDirectory()) {
    throw new RepomemError('INVALID_ARGUMENT', `the SQLite store path is a directory, not a database file: ${file}`, {
      details: { file },
    });
  }
  const readOnly = options.readOnly || (exists && isWriteProtected(file));
  if (!inMemory && !exists) {
    if (readOnly) {
      throw new RepomemError(
        'NOT_FOUND',
        `SQLite database not found (opened read-only, so it is not created): ${file}`,
        {
          details: { file },
        },
      );
    }
    try {
      mkdirSync(dirname(file), { recursive: true });
    } catch (error) {
      throw new RepomemError('BACKEND_UNAVAILABLE', `cannot create the directory of ${file}: ${String(error)}`, {
        cause: error,
        details: { file },
      });
    }
  }
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file, { readOnly, timeout: options.busyTimeoutMs });
  } catch (error) {
    throw translateSqliteError(error, file, 'opening the database');
  }
  try {
    db.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs}`);
    const databaseId = retryWhileBusy(options.busyTimeoutMs, () => prepareConnection(db, file, readOnly, inMemory));
    return { db, file, readOnly, databaseId };
  } catch (error) {
    db.close();
    throw translateSqliteError(error, file, 'opening the database');
  }
}
