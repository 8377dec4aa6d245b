// Why: sync cursors and thread state need the same no-lost-update guarantee as documents but must
// stay out of the document tree and out of search. They live in their own `state` table, scoped
// by repository; a put or delete takes a transaction-level advisory lock on the repository's
// state, checks the expected version and applies, in one transaction (no session state, so it
// works behind a transaction-mode pooler). Keys and values are checked with core's rules first.
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
import type { PostgresDatabase, Transaction } from './database.js';
import { likePrefix } from './sql-text.js';

/** What the state table needs from its store. */
export interface PostgresStateHost {
  readonly db: PostgresDatabase;
  /** Repository scope of the rows. */
  readonly repo: string;
  /** Throws `STORE_CLOSED` once the store is closed. */
  assertOpen(): void;
  /** Throws `READ_ONLY` for a read-only store, naming `action`. */
  assertWritable(action: string): void;
}

interface StateRow {
  readonly key: string;
  readonly value: string;
  readonly version: string;
}

/** The {@link StoreState} of a PostgreSQL store: one row per key in the `state` table. */
export class PostgresState implements StoreState {
  readonly #host: PostgresStateHost;

  constructor(host: PostgresStateHost) {
    this.#host = host;
  }

  get #table(): string {
    return this.#host.db.table('state');
  }

  #entry(row: StateRow): StateEntry {
    return { key: row.key, value: parseStateValue(row.key, row.value), version: row.version };
  }

  async get(key: string): Promise<StateEntry | undefined> {
    this.#host.assertOpen();
    const normalized = normalizeStateKey(key);
    const rows = await this.#host.db.readOnce<StateRow>(
      `state.get(${normalized})`,
      `SELECT key, value, version FROM ${this.#table} WHERE repo = $1 AND key = $2`,
      [this.#host.repo, normalized],
    );
    return rows[0] === undefined ? undefined : this.#entry(rows[0]);
  }

  async put(key: string, value: JsonValue, expectedVersion?: ExpectedVersion): Promise<StateWriteResult> {
    this.#host.assertOpen();
    const normalized = normalizeStateKey(key);
    const text = serializeStateValue(normalized, value);
    this.#host.assertWritable(`state.put(${normalized})`);
    const version = stateValueVersion(text);
    return this.#swap(`state.put(${normalized})`, normalized, expectedVersion, async (tx) => {
      await tx.query(
        `INSERT INTO ${this.#table} (repo, key, value, version, updated_at) VALUES ($1, $2, $3, $4, now())
         ON CONFLICT (repo, key) DO UPDATE SET value = excluded.value, version = excluded.version, updated_at = now()`,
        [this.#host.repo, normalized, text, version],
      );
      return version;
    });
  }

  async delete(key: string, expectedVersion?: ExpectedVersion): Promise<StateWriteResult> {
    this.#host.assertOpen();
    const normalized = normalizeStateKey(key);
    this.#host.assertWritable(`state.delete(${normalized})`);
    return this.#swap(`state.delete(${normalized})`, normalized, expectedVersion, async (tx) => {
      await tx.query(`DELETE FROM ${this.#table} WHERE repo = $1 AND key = $2`, [this.#host.repo, normalized]);
      return null;
    });
  }

  /** Lock the repository's state, check `expected` and apply `change`, in one transaction. */
  #swap(
    action: string,
    key: string,
    expected: ExpectedVersion,
    change: (tx: Transaction) => Promise<string | null>,
  ): Promise<StateWriteResult> {
    const { db, repo } = this.#host;
    return db.transaction<StateWriteResult>(
      action,
      async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('repomem:state:' || $1 || ':' || $2, 0))", [
          db.schema,
          repo,
        ]);
        const rows = await tx.query<{ version: string }>(
          `SELECT version FROM ${this.#table} WHERE repo = $1 AND key = $2`,
          [repo, key],
        );
        const actual = rows[0]?.version ?? null;
        if (!expectationHolds(expected, actual)) {
          return { commit: false, value: { status: 'conflict', expected: expected ?? null, actual } };
        }
        const version = await change(tx);
        return { commit: true, value: { status: 'committed', version } };
      },
      { write: true, receiptRepo: repo },
    );
  }

  async list(options: StateListOptions = {}): Promise<StateEntry[]> {
    this.#host.assertOpen();
    const prefix = normalizeStatePrefix(options?.prefix);
    const values: unknown[] = [this.#host.repo];
    let sql = `SELECT key, value, version FROM ${this.#table} WHERE repo = $1`;
    if (prefix !== '') {
      values.push(likePrefix(prefix));
      sql += ` AND key LIKE $2 ESCAPE '\\'`;
    }
    const rows = await this.#host.db.readOnce<StateRow>('state.list()', `${sql} ORDER BY key`, values);
    // Keys are ASCII (normalizeStateKey) and the column's collation is "C": byte order is core's order.
    return rows.map((row) => this.#entry(row));
  }
}
