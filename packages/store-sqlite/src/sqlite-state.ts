// Why: sync cursors and thread state need the same no-lost-update guarantee as documents but must
// stay out of the document tree and out of search. They live in their own table, scoped by
// repository like documents; a put or delete checks the expected version and applies in one
// `BEGIN IMMEDIATE` transaction, so compare-and-swap holds across connections and processes.
// Keys and values are checked with core's rules before any SQL runs.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import {
  type ExpectedVersion,
  expectationHolds,
  type JsonValue,
  normalizeStateKey,
  normalizeStatePrefix,
  parseStateValue,
  type StateEntry,
  type StateListOptions,
  type StateWriteResult,
  type StoreState,
  serializeStateValue,
  stateValueVersion,
} from '@repomem/core';
import { prefixCondition } from './path-range.js';
import { rollbackQuietly } from './schema.js';

/** What the state table needs from its store. */
export interface SqliteStateHost {
  readonly db: DatabaseSync;
  /** Repository scope of the rows. */
  readonly repo: string;
  /** Throws `STORE_CLOSED` once the store is closed. */
  assertOpen(): void;
  /** Throws `READ_ONLY` for a read-only store, naming `action`. */
  assertWritable(action: string): void;
  /** Run a synchronous database action, translating SQLite errors. */
  run<T>(action: string, work: () => T): T;
}

interface StateRow {
  readonly key: string;
  readonly value: string;
  readonly version: string;
}

/** The {@link StoreState} of a SQLite store: one row per key in the `state` table. */
export class SqliteState implements StoreState {
  readonly #host: SqliteStateHost;
  readonly #get: StatementSync;
  readonly #version: StatementSync;
  readonly #upsert: StatementSync;
  readonly #delete: StatementSync;
  readonly #statements = new Map<string, StatementSync>();

  constructor(host: SqliteStateHost) {
    this.#host = host;
    const { db } = host;
    this.#get = db.prepare('SELECT key, value, version FROM state WHERE repo = ? AND key = ?');
    this.#version = db.prepare('SELECT version FROM state WHERE repo = ? AND key = ?');
    this.#upsert = db.prepare(
      'INSERT INTO state (repo, key, value, version, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (repo, key) DO UPDATE SET value = excluded.value, version = excluded.version, updated_at = excluded.updated_at',
    );
    this.#delete = db.prepare('DELETE FROM state WHERE repo = ? AND key = ?');
  }

  #entry(row: StateRow): StateEntry {
    return { key: row.key, value: parseStateValue(row.key, row.value), version: row.version };
  }

  async get(key: string): Promise<StateEntry | undefined> {
    this.#host.assertOpen();
    const normalized = normalizeStateKey(key);
    const row = this.#host.run(`state.get(${normalized})`, () => this.#get.get(this.#host.repo, normalized)) as
      | StateRow
      | undefined;
    return row === undefined ? undefined : this.#entry(row);
  }

  async put(key: string, value: JsonValue, expectedVersion?: ExpectedVersion): Promise<StateWriteResult> {
    this.#host.assertOpen();
    const normalized = normalizeStateKey(key);
    const text = serializeStateValue(normalized, value);
    this.#host.assertWritable(`state.put(${normalized})`);
    const version = stateValueVersion(text);
    return this.#host.run(`state.put(${normalized})`, () =>
      this.#swap(normalized, expectedVersion, () => {
        this.#upsert.run(this.#host.repo, normalized, text, version, new Date().toISOString());
        return version;
      }),
    );
  }

  async delete(key: string, expectedVersion?: ExpectedVersion): Promise<StateWriteResult> {
    this.#host.assertOpen();
    const normalized = normalizeStateKey(key);
    this.#host.assertWritable(`state.delete(${normalized})`);
    return this.#host.run(`state.delete(${normalized})`, () =>
      this.#swap(normalized, expectedVersion, () => {
        this.#delete.run(this.#host.repo, normalized);
        return null;
      }),
    );
  }

  /** Check `expected` against the stored version and apply `change` in one IMMEDIATE transaction. */
  #swap(key: string, expected: ExpectedVersion, change: () => string | null): StateWriteResult {
    const { db, repo } = this.#host;
    db.exec('BEGIN IMMEDIATE');
    try {
      const row = this.#version.get(repo, key) as { version: string } | undefined;
      const actual = row?.version ?? null;
      if (!expectationHolds(expected, actual)) {
        db.exec('ROLLBACK');
        return { status: 'conflict', expected: expected ?? null, actual };
      }
      const version = change();
      db.exec('COMMIT');
      return { status: 'committed', version };
    } catch (error) {
      rollbackQuietly(db);
      throw error;
    }
  }

  async list(options: StateListOptions = {}): Promise<StateEntry[]> {
    this.#host.assertOpen();
    const prefix = normalizeStatePrefix(options?.prefix);
    const condition = prefixCondition('key', prefix);
    const sql = `SELECT key, value, version FROM state WHERE repo = :repo AND ${condition.sql} ORDER BY key`;
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#host.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    const prepared = statement;
    const rows = this.#host.run('state.list()', () =>
      prepared.all({ repo: this.#host.repo, ...condition.params }),
    ) as unknown as StateRow[];
    // Keys are ASCII (normalizeStateKey), so SQLite's byte order is core's string order.
    return rows.map((row) => this.#entry(row));
  }
}
