// Why: SQLite as a store kit driver. The kit's `documents` namespace is the `documents` and
// `document_contents` tables and its `state` namespace the `state` table, scoped by repository,
// exactly as the store laid them out before the kit (no migration). A batch is one
// `BEGIN IMMEDIATE` transaction that checks every expected version and applies every change, the
// FTS5 index and the repository's revision counter together (`atomic`, across processes and
// crashes); the FTS5 index answers `fullText`, the counter answers `revision`, and `readAll` reads
// one snapshot.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import {
  KIT_DRIVER_VERSION,
  type KitChange,
  type KitConflict,
  type KitDriver,
  type KitEntry,
  type KitScanOptions,
  type KitWriteResult,
  RepomemError,
  type StoredDocument,
} from '@repomem/core';
import type { OpenedConnection } from './connection.js';
import { scopeToken } from './fts-query.js';
import { type IndexedText, indexedText } from './indexed-text.js';
import { prefixCondition } from './path-range.js';
import { rollbackQuietly } from './schema.js';
import { SqliteCandidates } from './sqlite-candidates.js';
import { translateSqliteError } from './sqlite-errors.js';

/** Largest document or value the driver holds: 512 MiB (SQLite's own limit is about 1 GB). */
export const MAX_SQLITE_DOCUMENT_BYTES = 512 * 1024 * 1024;

/** A SQLite store kit driver, with the file and scope it works on. */
export interface SqliteDriver extends KitDriver {
  readonly name: 'sqlite';
  readonly batch: 'atomic';
  /** Absolute path of the database file (or `:memory:`). */
  readonly file: string;
  /** Repository scope of every key. */
  readonly repo: string;
  /** True when `write` refuses every change with `READ_ONLY`. */
  readonly readOnly: boolean;
}

/** Options of {@link sqliteDriverOn}. */
export interface SqliteDriverOptions {
  readonly repo: string;
  /** False on a store set's connection: the set closes it, `close()` does not. */
  readonly ownsConnection: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
const byKey = (a: { key: string }, b: { key: string }): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

interface Row {
  readonly id?: number;
  readonly key: string;
  readonly version: string;
  readonly size?: number;
  readonly indexed?: number;
  readonly value?: Uint8Array | string;
}

/** The SQL of one namespace: a point read, a listing with or without values, the current row. */
interface Table {
  readonly get: StatementSync;
  readonly current: StatementSync;
  scan(prefixSql: string, values: boolean): StatementSync;
}

function tables(db: DatabaseSync): Record<'documents' | 'state', Table> {
  const prepared = new Map<string, StatementSync>();
  const statement = (sql: string): StatementSync => {
    let found = prepared.get(sql);
    if (found === undefined) {
      found = db.prepare(sql);
      prepared.set(sql, found);
    }
    return found;
  };
  const documentColumns = 'd.path AS key, d.version AS version, d.size AS size';
  const documentValues = `SELECT ${documentColumns}, c.content AS value FROM documents d JOIN document_contents c ON c.id = d.id`;
  return {
    documents: {
      get: db.prepare(`${documentValues} WHERE d.repo = :repo AND d.path = :key`),
      current: db.prepare('SELECT id, version, indexed FROM documents WHERE repo = :repo AND path = :key'),
      scan: (prefixSql, values) =>
        statement(
          `${values ? documentValues : `SELECT ${documentColumns} FROM documents d`} WHERE d.repo = :repo AND ${prefixSql}`,
        ),
    },
    state: {
      get: db.prepare('SELECT key, value, version FROM state WHERE repo = :repo AND key = :key'),
      current: db.prepare('SELECT version FROM state WHERE repo = :repo AND key = :key'),
      scan: (prefixSql) => statement(`SELECT key, value, version FROM state WHERE repo = :repo AND ${prefixSql}`),
    },
  };
}

/** The refusal of a write to a read-only database. */
export function readOnlyError(file: string): RepomemError {
  return new RepomemError('READ_ONLY', `the sqlite store ${file} is open read-only; write() was refused`, {
    details: { file },
  });
}

/**
 * The driver on an open connection (see `openConnection`). Throws `BACKEND_UNAVAILABLE` when the
 * statements cannot be prepared.
 */
export function sqliteDriverOn(connection: OpenedConnection, options: SqliteDriverOptions): SqliteDriver {
  const { db, file, readOnly, databaseId } = connection;
  const { repo } = options;
  const scope = scopeToken(repo);
  const run = <T>(action: string, work: () => T): T => {
    try {
      return work();
    } catch (error) {
      throw translateSqliteError(error, file, action);
    }
  };
  const sql = run('preparing statements', () => ({
    ...tables(db),
    insert: db.prepare(
      'INSERT INTO documents (repo, path, version, size, indexed, searchable_length, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    insertContent: db.prepare("INSERT INTO document_contents (id, content) VALUES (?, coalesce(?, X''))"),
    update: db.prepare(
      'UPDATE documents SET version = ?, size = ?, indexed = ?, searchable_length = ?, updated_at = ? WHERE id = ?',
    ),
    updateContent: db.prepare("UPDATE document_contents SET content = coalesce(?, X'') WHERE id = ?"),
    remove: db.prepare('DELETE FROM documents WHERE id = ?'),
    removeContent: db.prepare('DELETE FROM document_contents WHERE id = ?'),
    ftsInsert: db.prepare('INSERT INTO documents_fts (rowid, scope, path, body) VALUES (?, ?, ?, ?)'),
    ftsDelete: db.prepare('DELETE FROM documents_fts WHERE rowid = ?'),
    // One more revision, and the indexed count moved by `delta`.
    bump: db.prepare(
      'INSERT INTO repos (repo, revision, indexed_count) VALUES (:repo, 1, :delta) ON CONFLICT (repo) DO UPDATE SET revision = revision + 1, indexed_count = indexed_count + :delta',
    ),
    revision: db.prepare('SELECT revision FROM repos WHERE repo = ?'),
    putState: db.prepare(
      'INSERT INTO state (repo, key, value, version, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (repo, key) DO UPDATE SET value = excluded.value, version = excluded.version, updated_at = excluded.updated_at',
    ),
    deleteState: db.prepare('DELETE FROM state WHERE repo = ? AND key = ?'),
  }));
  const candidates = new SqliteCandidates(db, repo, scope);

  const table = (namespace: string): Table => {
    if (namespace === 'documents' || namespace === 'state') return sql[namespace];
    throw new RepomemError(
      'UNSUPPORTED',
      `the sqlite driver keeps only the documents and state namespaces, not ${JSON.stringify(namespace)}`,
      { details: { namespace } },
    );
  };
  const entryOf = (row: Row, values: boolean): KitEntry => {
    const raw = row.value;
    const value = typeof raw === 'string' ? encoder.encode(raw) : raw;
    // node:sqlite returns a fresh buffer per read, so the caller owns it (no copy needed).
    const size = value?.byteLength ?? Number(row.size);
    return values && value !== undefined
      ? { key: row.key, version: row.version, size, value }
      : { key: row.key, version: row.version, size };
  };
  const stateText = (change: KitChange): string => {
    try {
      return decoder.decode(change.value as Uint8Array);
    } catch (error) {
      throw new RepomemError('INVALID_ARGUMENT', `the state value of ${change.key} is not UTF-8 text`, {
        cause: error,
        details: { key: change.key },
      });
    }
  };

  /** Apply one checked change (inside the transaction); the indexed-count delta of a document change. */
  const apply = (change: KitChange, current: Row | undefined, text: IndexedText | undefined, now: string): number => {
    if (change.namespace === 'state') {
      if (change.value === null) sql.deleteState.run(repo, change.key);
      else sql.putState.run(repo, change.key, stateText(change), change.version, now);
      return 0;
    }
    const indexedBefore = Number(current?.indexed ?? 0);
    if (change.value === null) {
      if (current === undefined) return 0;
      sql.ftsDelete.run(current.id as number);
      sql.remove.run(current.id as number);
      sql.removeContent.run(current.id as number);
      return -indexedBefore;
    }
    if (current?.version === change.version) return 0;
    const indexed = text === undefined ? 0 : 1;
    const length = text?.length ?? null;
    let id: number;
    if (current === undefined) {
      const inserted = sql.insert.run(repo, change.key, change.version, change.value.byteLength, indexed, length, now);
      id = Number(inserted.lastInsertRowid);
      sql.insertContent.run(id, change.value);
    } else {
      id = current.id as number;
      sql.ftsDelete.run(id);
      sql.update.run(change.version, change.value.byteLength, indexed, length, now, id);
      sql.updateContent.run(change.value, id);
    }
    if (text !== undefined) sql.ftsInsert.run(id, scope, text.path, text.body);
    return indexed - indexedBefore;
  };

  /** Check every precondition and apply the batch in one IMMEDIATE transaction (synchronous). */
  const transact = (changes: readonly KitChange[]): KitWriteResult => {
    // Index entries are computed before the write lock is taken, so other writers wait less.
    const texts = changes.map((change) =>
      change.namespace === 'documents' && change.value !== null ? indexedText(change.key, change.value) : undefined,
    );
    db.exec('BEGIN IMMEDIATE');
    try {
      const current = changes.map(
        (change) => table(change.namespace).current.get({ repo, key: change.key }) as Row | undefined,
      );
      const conflicts: KitConflict[] = [];
      changes.forEach((change, index) => {
        const actual = current[index]?.version ?? null;
        if (change.expected !== undefined && change.expected !== actual) {
          conflicts.push({ namespace: change.namespace, key: change.key, actual });
        }
      });
      if (conflicts.length > 0) {
        db.exec('ROLLBACK');
        return { status: 'conflict', conflicts };
      }
      const now = new Date().toISOString();
      let delta = 0;
      for (const [index, change] of changes.entries()) delta += apply(change, current[index], texts[index], now);
      if (changes.some((change) => change.namespace === 'documents')) sql.bump.run({ repo, delta });
      db.exec('COMMIT');
      return { status: 'committed' };
    } catch (error) {
      rollbackQuietly(db);
      throw error;
    }
  };

  return {
    kit: KIT_DRIVER_VERSION,
    name: 'sqlite',
    batch: 'atomic',
    maxValueBytes: MAX_SQLITE_DOCUMENT_BYTES,
    file,
    repo,
    readOnly,

    async read(namespace, keys) {
      const { get } = table(namespace);
      return run('read()', () => {
        const readOne = (key: string) => {
          const row = get.get({ repo, key }) as Row | undefined;
          return row === undefined ? undefined : entryOf(row, true);
        };
        if (keys.length < 2) return keys.map(readOne);
        // Several keys: one read transaction, so they come from the same snapshot.
        db.exec('BEGIN');
        try {
          const entries = keys.map(readOne);
          db.exec('COMMIT');
          return entries;
        } catch (error) {
          rollbackQuietly(db);
          throw error;
        }
      });
    },

    async scan(namespace, options: KitScanOptions) {
      const column = namespace === 'documents' ? 'd.path' : 'key';
      const condition = prefixCondition(column, options.prefix);
      const statement = table(namespace).scan(condition.sql, options.values !== false);
      const rows = run('scan()', () => statement.all({ repo, ...condition.params })) as unknown as Row[];
      // A document listing's rows are already entries (`key`, `version`, `size`): no copy per row.
      if (namespace === 'documents' && options.values === false) return (rows as KitEntry[]).sort(byKey);
      return rows.map((row) => entryOf(row, options.values !== false)).sort(byKey);
    },

    async write(changes) {
      for (const change of changes) table(change.namespace);
      if (readOnly) throw readOnlyError(file);
      return run('write()', () => transact(changes));
    },

    async close() {
      if (options.ownsConnection) db.close();
    },

    // One read transaction: the listing and every content come from the same snapshot (as before the kit).
    readAll: {
      read: async ({ prefix, accept, each }) => {
        const condition = prefixCondition('d.path', prefix);
        const listing = sql.documents.scan(condition.sql, false);
        return run('readAll()', () => {
          db.exec('BEGIN');
          try {
            const rows = (listing.all({ repo, ...condition.params }) as unknown as Row[]).sort(byKey);
            const documents: StoredDocument[] = [];
            for (const row of rows) {
              if (accept !== undefined && !accept(row.key, Number(row.size))) continue;
              const found = sql.documents.get.get({ repo, key: row.key }) as Row | undefined;
              if (found === undefined) continue;
              const content = found.value as Uint8Array;
              const document = { path: row.key, version: found.version, size: content.byteLength, content };
              if (each === undefined) documents.push(document);
              else each(document);
            }
            db.exec('COMMIT');
            return documents;
          } catch (error) {
            rollbackQuietly(db);
            throw error;
          }
        });
      },
    },

    fullText: {
      candidates: async (query) => run('searchCandidates()', () => candidates.answer(query)),
    },

    revision: {
      current: async () => {
        const row = run('revision()', () => sql.revision.get(repo)) as { revision: number } | undefined;
        return `${databaseId}.${row?.revision ?? 0}`;
      },
    },
  };
}
