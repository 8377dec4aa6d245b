// Why: node:sqlite throws plain errors carrying SQLite result codes. Callers branch on repomem's
// stable codes instead, and every message names the database file, so a corrupt, locked or
// write-protected file is reported clearly instead of as "SQL logic error".
import { RepomemError } from '@repomem/core';

/** SQLite primary result codes this package reacts to. */
export const SQLITE_CODES = Object.freeze({
  BUSY: 5,
  LOCKED: 6,
  READONLY: 8,
  IOERR: 10,
  CORRUPT: 11,
  FULL: 13,
  CANTOPEN: 14,
  NOTADB: 26,
});

/** The primary SQLite result code of an error thrown by node:sqlite, or `undefined` for other errors. */
export function sqlitePrimaryCode(error: unknown): number | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const errcode = (error as { errcode?: unknown }).errcode;
  return typeof errcode === 'number' ? errcode & 0xff : undefined;
}

function reason(error: unknown): string {
  const errstr = (error as { errstr?: unknown } | null)?.errstr;
  if (typeof errstr === 'string') return errstr;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Turn an error thrown while `action` ran on the database `file` into a {@link RepomemError}
 * (a `RepomemError` passes through unchanged):
 * - `file is not a database` / corruption: `BACKEND_UNAVAILABLE` saying the file is corrupt or not SQLite;
 * - `database is locked` after the busy timeout: `LOCK_TIMEOUT`;
 * - a write to a read-only file: `READ_ONLY`;
 * - anything else (cannot open, disk full, I/O): `BACKEND_UNAVAILABLE` with the SQLite reason.
 */
export function translateSqliteError(error: unknown, file: string, action: string): RepomemError {
  if (error instanceof RepomemError) return error;
  const code = sqlitePrimaryCode(error);
  const details = { file, sqliteCode: code };
  const why = reason(error);
  switch (code) {
    case SQLITE_CODES.NOTADB:
    case SQLITE_CODES.CORRUPT:
      return new RepomemError(
        'BACKEND_UNAVAILABLE',
        `${file} is not a usable SQLite database (corrupt or not SQLite: ${why}); ${action} failed and nothing was changed`,
        { cause: error, details },
      );
    case SQLITE_CODES.BUSY:
    case SQLITE_CODES.LOCKED:
      return new RepomemError(
        'LOCK_TIMEOUT',
        `${file} stayed locked by another connection beyond the busy timeout (${why}); ${action} was not applied`,
        { cause: error, details },
      );
    case SQLITE_CODES.READONLY:
      return new RepomemError('READ_ONLY', `${file} is read-only (${why}); ${action} was refused`, {
        cause: error,
        details,
      });
    default:
      return new RepomemError('BACKEND_UNAVAILABLE', `${action} failed on ${file}: ${why}`, { cause: error, details });
  }
}
