// Why: every store operation is one transaction, and the rules that make that safe live here once.
// A transaction sets its statement timeout with SET LOCAL (nothing outlives it, so a
// transaction-mode pooler such as PgBouncer or Supabase's can hand the next one to any server
// connection); statements are unnamed (no prepared statement survives a transaction); a
// serialization failure, a deadlock or a dropped connection re-runs the whole transaction with
// p-retry; and a write carries a receipt token committed with it, so a retry after a COMMIT whose
// outcome was lost finds the receipt and returns the first result instead of applying twice.
import { randomUUID } from 'node:crypto';
import { RepomemError } from '@repomem/core';
import pRetry, { AbortError } from 'p-retry';
import pg from 'pg';
import type { PostgresIdentity, ResolvedConnection } from './connection-options.js';
import { isConnectionLoss, isRetryable, translatePostgresError } from './postgres-errors.js';
import { inlineParameters, quoteIdentifier, sqlLiteral } from './sql-text.js';

/** The part of a `pg` client this package uses (a `pg.PoolClient` or `pg.Client`). */
export interface PostgresClientLike {
  query(config: { text: string; values?: unknown[] }): Promise<{ rows: unknown[]; rowCount: number | null }>;
  on?(event: 'error', listener: (error: Error) => void): unknown;
  removeListener?(event: 'error', listener: (error: Error) => void): unknown;
}

/** A checked-out client (a `pg.PoolClient`): `release(error)` destroys a broken one. */
export interface PostgresPooledClient extends PostgresClientLike {
  release(error?: Error | boolean): void;
}

/** The part of a `pg.Pool` this package uses; pass your own as the `pool` option. */
export interface PostgresPoolLike {
  connect(): Promise<PostgresPooledClient>;
  end(): Promise<void>;
  on?(event: 'error', listener: (error: Error) => void): unknown;
}

/** A statement runner inside one transaction. */
export interface Transaction {
  /** Run one parameterised statement (unnamed, so it never outlives the transaction). */
  query<Row>(text: string, values?: readonly unknown[]): Promise<Row[]>;
}

/** What a transaction's work decided: commit its effects, or roll them back (a conflict). */
export type TransactionOutcome<T> = { readonly commit: boolean; readonly value: T };

/** Retry policy of transactions. */
export interface RetryPolicy {
  /** Re-runs after the first attempt (default 6). */
  readonly retries: number;
  /** First wait in ms (default 25), doubling up to `maxTimeoutMs`. */
  readonly minTimeoutMs: number;
  /** Longest wait in ms (default 1000). */
  readonly maxTimeoutMs: number;
}

/** Default {@link RetryPolicy}: about 3 s of retries in all, enough for a server restart. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({ retries: 6, minTimeoutMs: 25, maxTimeoutMs: 1000 });

/** Wrap one injected `pg.Client` as a pool of one (callers wait their turn). */
function singleClientPool(client: PostgresClientLike): PostgresPoolLike {
  let tail: Promise<void> = Promise.resolve();
  return {
    connect: async () => {
      let free: () => void = () => undefined;
      const turn = new Promise<void>((resolve) => {
        free = resolve;
      });
      const previous = tail;
      tail = previous.then(() => turn);
      await previous;
      return {
        query: (config) => client.query(config),
        release: () => free(),
      };
    },
    end: async () => undefined,
  };
}

/** How a {@link PostgresDatabase} reaches the server. */
export interface DatabaseSource {
  readonly connection: ResolvedConnection;
  /** A pool the caller owns (not ended by `close()`). */
  readonly pool?: PostgresPoolLike;
  /** A single client the caller owns (operations take turns on it). */
  readonly client?: PostgresClientLike;
  readonly retry?: RetryPolicy;
}

function tlsOptions(ssl: ResolvedConnection['ssl']): pg.PoolConfig['ssl'] {
  if (ssl === undefined || ssl === false || ssl === 'disable') return undefined;
  if (ssl === true || ssl === 'require' || ssl === 'verify-full') return { rejectUnauthorized: true };
  if (ssl === 'no-verify') return { rejectUnauthorized: false };
  return ssl;
}

/** A pool, a schema and the transaction rules; shared by the stores and backends of one connection. */
export class PostgresDatabase {
  readonly identity: PostgresIdentity;
  readonly schema: string;
  /** `"schema"`, quoted for SQL text. */
  readonly qualifier: string;
  readonly statementTimeoutMs: number;
  readonly #pool: PostgresPoolLike;
  readonly #owned: boolean;
  readonly #retry: RetryPolicy;
  readonly #connection: ResolvedConnection;
  #closed = false;

  constructor(source: DatabaseSource) {
    const { connection } = source;
    this.#connection = connection;
    this.identity = connection.identity;
    this.schema = connection.schema;
    this.qualifier = quoteIdentifier(connection.schema);
    this.statementTimeoutMs = connection.statementTimeoutMs;
    this.#retry = source.retry ?? DEFAULT_RETRY_POLICY;
    if (source.pool !== undefined) {
      this.#pool = source.pool;
      this.#owned = false;
    } else if (source.client !== undefined) {
      this.#pool = singleClientPool(source.client);
      this.#owned = false;
    } else {
      const pool = new pg.Pool({
        host: connection.identity.host,
        port: connection.identity.port,
        database: connection.identity.database,
        user: connection.identity.user,
        password: connection.password,
        ssl: tlsOptions(connection.ssl),
        max: connection.maxConnections,
        connectionTimeoutMillis: connection.connectTimeoutMs,
        idleTimeoutMillis: 10_000,
        application_name: connection.applicationName,
      });
      // An idle connection killed by the server (restart, pg_terminate_backend) is an event on
      // the pool; without a listener Node would crash the process. The pool drops it anyway.
      pool.on('error', () => undefined);
      // A connection can also fail between the pool's own listeners (a server message and the
      // socket's end arrive as separate events); a permanent listener on every client keeps
      // that from crashing the process. Failures still reach the running query as rejections.
      pool.on('connect', (client) => {
        client.on('error', () => undefined);
      });
      this.#pool = pool as unknown as PostgresPoolLike;
      this.#owned = true;
    }
  }

  /** `"schema"."name"`. */
  table(name: string): string {
    return `${this.qualifier}.${quoteIdentifier(name)}`;
  }

  /** Throws `STORE_CLOSED` after `close()`. */
  assertOpen(what: string): void {
    if (this.#closed) throw new RepomemError('STORE_CLOSED', `the postgres ${what} is closed`);
  }

  /** A RepomemError for `error` naming this server. */
  translate(error: unknown, action: string): RepomemError {
    return translatePostgresError(error, this.identity, action);
  }

  /**
   * Run `work` in one transaction, re-running it whole after a retryable failure. With `write`,
   * a receipt is committed with the work's effects, so a retry after a lost COMMIT returns the
   * committed result instead of running again. Errors become RepomemErrors naming the server.
   */
  async transaction<T>(
    action: string,
    work: (tx: Transaction) => Promise<TransactionOutcome<T>>,
    options: { readonly write: boolean; readonly receiptRepo?: string },
  ): Promise<T> {
    const token = options.write ? randomUUID() : undefined;
    let attempt = 0;
    try {
      return await pRetry(
        async () => {
          attempt += 1;
          try {
            return await this.#attempt(work, token, attempt > 1, options.receiptRepo ?? '');
          } catch (error) {
            if (isRetryable(error)) throw error;
            throw new AbortError(this.translate(error, action));
          }
        },
        {
          retries: this.#retry.retries,
          minTimeout: this.#retry.minTimeoutMs,
          maxTimeout: this.#retry.maxTimeoutMs,
          factor: 2,
          randomize: true,
        },
      );
    } catch (error) {
      throw this.translate(error, action);
    }
  }

  async #attempt<T>(
    work: (tx: Transaction) => Promise<TransactionOutcome<T>>,
    token: string | undefined,
    checkReceipt: boolean,
    receiptRepo: string,
  ): Promise<T> {
    const client = await this.#pool.connect();
    let broken: Error | undefined;
    const onError = (error: Error): void => {
      broken = error;
    };
    client.on?.('error', onError);
    const tx: Transaction = {
      query: async <Row>(text: string, values?: readonly unknown[]): Promise<Row[]> => {
        const result = await client.query({ text, values: values === undefined ? [] : [...values] });
        return result.rows as Row[];
      },
    };
    try {
      await client.query({
        text: `BEGIN ISOLATION LEVEL READ COMMITTED; SET LOCAL statement_timeout = ${Math.trunc(this.statementTimeoutMs)}; SET LOCAL standard_conforming_strings = on`,
      });
      if (token !== undefined && checkReceipt) {
        const found = await tx.query<{ result: T }>(
          `SELECT result FROM ${this.table('write_receipts')} WHERE token = $1`,
          [token],
        );
        if (found[0] !== undefined) {
          await client.query({ text: 'ROLLBACK' });
          return found[0].result;
        }
      }
      const outcome = await work(tx);
      if (!outcome.commit) {
        await client.query({ text: 'ROLLBACK' });
        return outcome.value;
      }
      // The receipt travels with COMMIT in one round trip (literals quoted by sqlLiteral, with
      // standard_conforming_strings set on by BEGIN, so backslashes are never escapes).
      const receipt =
        token === undefined
          ? ''
          : `INSERT INTO ${this.table('write_receipts')} (token, repo, result) VALUES (${sqlLiteral(token)}, ${sqlLiteral(receiptRepo)}, ${sqlLiteral(JSON.stringify(outcome.value ?? null))}); `;
      await client.query({ text: `${receipt}COMMIT` });
      return outcome.value;
    } catch (error) {
      if (isConnectionLoss(error)) broken = error as Error;
      if (broken === undefined) {
        try {
          await client.query({ text: 'ROLLBACK' });
        } catch (rollbackError) {
          broken = rollbackError as Error;
        }
      }
      throw error;
    } finally {
      client.removeListener?.('error', onError);
      client.release(broken ?? false);
    }
  }

  /**
   * Run one read statement in ONE round trip: `SET LOCAL statement_timeout; <sql>` sent as a
   * single simple-protocol query, which PostgreSQL runs as one implicit transaction (so nothing
   * outlives it, also behind a transaction-mode pooler). `values` are written into the text as
   * literals (`inlineParameters`), never interpolated raw; retried like any transaction.
   */
  async readOnce<Row>(action: string, sql: string, values: readonly unknown[] = []): Promise<Row[]> {
    const text = `SET LOCAL statement_timeout = ${Math.trunc(this.statementTimeoutMs)}; ${inlineParameters(sql, values)}`;
    try {
      return await pRetry(
        async () => {
          try {
            const client = await this.#pool.connect();
            let broken: Error | undefined;
            const onError = (error: Error): void => {
              broken = error;
            };
            client.on?.('error', onError);
            try {
              const results = (await client.query({ text })) as unknown as
                | Array<{ rows: unknown[] }>
                | { rows: unknown[] };
              const last = Array.isArray(results) ? results[results.length - 1] : results;
              return (last?.rows ?? []) as Row[];
            } catch (error) {
              if (isConnectionLoss(error)) broken = error as Error;
              throw error;
            } finally {
              client.removeListener?.('error', onError);
              client.release(broken ?? false);
            }
          } catch (error) {
            if (isRetryable(error)) throw error;
            throw new AbortError(this.translate(error, action));
          }
        },
        {
          retries: this.#retry.retries,
          minTimeout: this.#retry.minTimeoutMs,
          maxTimeout: this.#retry.maxTimeoutMs,
          factor: 2,
          randomize: true,
        },
      );
    } catch (error) {
      throw this.translate(error, action);
    }
  }

  /** Run one read-only statement list in a transaction (retried like any transaction). */
  read<T>(action: string, work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.transaction(action, async (tx) => ({ commit: false, value: await work(tx) }), { write: false });
  }

  /**
   * True when one client connection's statements run on different server connections (a
   * transaction-mode pooler): a second client holds a transaction open between two statements
   * of the first, which a pooler in transaction mode answers from another server connection.
   */
  async serverConnectionMoves(): Promise<boolean> {
    const first = await this.#pool.connect();
    let second: PostgresPooledClient | undefined;
    try {
      const pid = async (client: PostgresClientLike): Promise<unknown> =>
        ((await client.query({ text: 'SELECT pg_backend_pid() AS pid' })).rows[0] as { pid: unknown }).pid;
      const before = await pid(first);
      second = await this.#pool.connect();
      await second.query({ text: 'BEGIN' });
      await pid(second);
      const after = await pid(first);
      await second.query({ text: 'ROLLBACK' });
      return before !== after;
    } finally {
      first.release();
      second?.release();
    }
  }

  /**
   * Another database over this one's pool that never ends it: each facet of a store set works on
   * its own view (closing it closes only that facet), and the set closes this owner once.
   */
  view(): PostgresDatabase {
    return new PostgresDatabase({ connection: this.#connection, pool: this.#pool, retry: this.#retry });
  }

  /** End the pool when this package created it (an injected pool or client stays open). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#owned) await this.#pool.end();
  }
}
