// Why: callers (the CLI, the MCP server, library users) name a store with one string, and core's
// registry loads this package for the `sqlite:` scheme on demand. This is that scheme:
// `sqlite:<path>` with relative paths resolved against the caller's working directory,
// `sqlite::memory:` for a private in-memory database, and the repository scope taken from the
// open context.
import { resolve } from 'node:path';
import { isRepomemError, type OpenStoreContext, RepomemError, type StoreScheme } from '@repomem/core';
import { MEMORY_DATABASE } from './connection.js';
import { openSqliteRecordBackend } from './sqlite-record-backend.js';
import { openSqliteStoreSet, type SqliteStoreSet } from './sqlite-set.js';
import { openSqliteStore, type SqliteStore } from './sqlite-store.js';

/** A parsed `sqlite:` spec. */
export interface SqliteSpecTarget {
  /** Absolute path of the database file, or `:memory:`. */
  readonly path: string;
}

function parseSqliteSpec(rest: string, cwd: string): SqliteSpecTarget {
  if (typeof rest !== 'string' || rest === '') {
    throw new RepomemError('INVALID_ARGUMENT', 'the database path is empty');
  }
  if (rest.includes('\0')) throw new RepomemError('INVALID_ARGUMENT', 'the database path contains a NUL character');
  return { path: rest === MEMORY_DATABASE ? MEMORY_DATABASE : resolve(cwd, rest) };
}

/**
 * `open()`, and on a read-only context whose file needs migrating, migrate it through a writable
 * connection first (the migration changes no memory content) and open again.
 */
async function afterMigrating<T>(
  target: SqliteSpecTarget,
  context: OpenStoreContext,
  open: () => Promise<T>,
): Promise<T> {
  try {
    return await open();
  } catch (error) {
    if (!context.readOnly || !isRepomemError(error, 'READ_ONLY') || error.details?.schemaVersion === undefined) {
      throw error;
    }
    await (await openSqliteStore({ path: target.path, repo: context.repo })).close();
    return open();
  }
}

/**
 * The `sqlite:` store scheme, loaded by core's registry (`openStore('sqlite:.repomem/repomem.db')`).
 * Grammar `sqlite:<path>`: a relative path resolves against the context's working directory;
 * `sqlite::memory:` is a private in-memory database. Opening creates a missing file (and its
 * directory) unless the context is read-only, where a missing file is `NOT_FOUND`; the store is
 * scoped to the context's repository. A read-only open of a file written by an older release
 * first migrates its schema through a writable connection when the file is writable (the
 * migration changes no memory content), so read-only commands keep working after an upgrade;
 * `openSqliteStore({ readOnly: true })` itself never writes.
 *
 * @example
 * ```ts
 * import { openStore } from '@repomem/core';
 * const store = await openStore('sqlite:.repomem/repomem.db', { repo: 'acme/app' });
 * ```
 */
export const storeScheme: StoreScheme<SqliteSpecTarget> = {
  scheme: 'sqlite',
  grammar: 'sqlite:<path>',
  parse: (rest, context) => parseSqliteSpec(rest, context.cwd),
  label: (target) => `sqlite:${target.path}`,
  open: (target, context): Promise<SqliteStore> =>
    afterMigrating(target, context, () =>
      openSqliteStore({ path: target.path, repo: context.repo, readOnly: context.readOnly }),
    ),
  // The store and its verified-memory tables on one handle (task records are documents in it).
  openSet: (target, context): Promise<SqliteStoreSet> =>
    afterMigrating(target, context, () =>
      openSqliteStoreSet({ path: target.path, repo: context.repo, readOnly: context.readOnly }),
    ),
  // Verified memories live in the same file, in their own tables (all repositories; every query names one).
  openVerifiedBackend: async (target) => openSqliteRecordBackend({ path: target.path }),
};
