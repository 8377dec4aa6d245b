// Why: the document store, the verified-memory backend and the task-record backend open a
// connection the same way (options checked with zod, a pool created or injected, the schema
// checked and migrated), so a problem is reported the same way whichever of them meets it first.
import { RepomemError } from '@repomem/core';
import { checkFields, type PostgresConnectionFields, resolveConnection } from './connection-options.js';
import {
  DEFAULT_RETRY_POLICY,
  type PostgresClientLike,
  PostgresDatabase,
  type PostgresPoolLike,
  type RetryPolicy,
} from './database.js';
import { ensureSchema, inspectSchema, POSTGRES_SCHEMA_VERSION } from './schema.js';

/** Connection options shared by every opener of this package. */
export interface PostgresConnectionOptions extends PostgresConnectionFields {
  /**
   * A `pg.Pool` (or anything with its `connect()`/`end()`) the application already owns; it is
   * used as is and never ended by `close()`. Connection fields other than `schema` and
   * `statementTimeoutMs` are then only used in messages.
   */
  readonly pool?: PostgresPoolLike;
  /** A single connected `pg.Client` the application owns; operations take turns on it. */
  readonly client?: PostgresClientLike;
  /** How transactions are retried after serialization failures and dropped connections. */
  readonly retry?: Partial<RetryPolicy>;
  /** Refuse every write (`READ_ONLY`) and never create or migrate the schema. */
  readonly readOnly?: boolean;
}

const NON_CONNECTION_KEYS = new Set(['pool', 'client', 'retry', 'readOnly', 'repo', 'maxDocumentBytes']);

function retryPolicy(retry: Partial<RetryPolicy> | undefined): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY, ...(retry ?? {}) };
  for (const [name, value] of Object.entries(policy)) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RepomemError('INVALID_ARGUMENT', `retry.${name} must be a non-negative integer`);
    }
  }
  return policy;
}

/** Open a {@link PostgresDatabase} from options and make sure its schema is current. */
export async function openDatabase(
  options: PostgresConnectionOptions,
  opener: string,
): Promise<{ db: PostgresDatabase; databaseId: string }> {
  if (options === null || typeof options !== 'object') {
    throw new RepomemError('INVALID_ARGUMENT', `${opener}: expected an options object`);
  }
  const fields = Object.fromEntries(Object.entries(options).filter(([key]) => !NON_CONNECTION_KEYS.has(key)));
  const connection = resolveConnection([checkFields(fields, opener)]);
  const db = new PostgresDatabase({
    connection,
    ...(options.pool === undefined ? {} : { pool: options.pool }),
    ...(options.client === undefined ? {} : { client: options.client }),
    retry: retryPolicy(options.retry),
  });
  try {
    if (options.readOnly === true) {
      const found = await db.read('checking the repomem schema', (tx) => inspectSchema(tx, db.schema));
      if (found.kind === 'current') return { db, databaseId: found.databaseId };
      if (found.kind === 'missing') {
        throw new RepomemError(
          'NOT_FOUND',
          `the schema ${JSON.stringify(db.schema)} of database ${JSON.stringify(db.identity.database)} holds no repomem store (opened read-only, so it was not created)`,
          { details: { schema: db.schema } },
        );
      }
      if (found.kind === 'older') {
        throw new RepomemError(
          'READ_ONLY',
          `the repomem schema ${JSON.stringify(db.schema)} needs migrating from version ${found.version} to ${POSTGRES_SCHEMA_VERSION} but was opened read-only; open it writable once`,
          { details: { schema: db.schema, schemaVersion: found.version } },
        );
      }
    }
    return { db, databaseId: await ensureSchema(db) };
  } catch (error) {
    await db.close();
    throw db.translate(error, 'opening the store');
  }
}
