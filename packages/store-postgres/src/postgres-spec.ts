// Why: callers name a PostgreSQL store with one string (`postgres://…`, `postgresql://…`, or
// `postgres:` alone for `$DATABASE_URL` and the libpq `PG*` variables), the way psql and every
// hosting provider print it. This module parses such a spec into connection fields and prints it
// back for messages with the password replaced by `***`.
import { RepomemError, type SchemeEnvironment } from '@repomem/core';
import {
  describeIdentity,
  fieldsFromEnvironment,
  type PostgresConnectionFields,
  parseConnectionUrl,
  type ResolvedConnection,
  resolveConnection,
} from './connection-options.js';

/** A parsed `postgres:` spec: connection fields (with the password, which only `open` uses). */
export interface PostgresSpecTarget {
  /** Fields from the environment then the URL (later wins). */
  readonly layers: readonly PostgresConnectionFields[];
  /** The resolved connection. */
  readonly connection: ResolvedConnection;
}

/** Parse what follows `postgres:` / `postgresql:` (`''` = `$DATABASE_URL`, then the `PG*` variables). */
export function parsePostgresSpec(rest: string, env: SchemeEnvironment): PostgresSpecTarget {
  if (typeof rest !== 'string') throw new RepomemError('INVALID_ARGUMENT', 'the spec must be a string');
  const layers: PostgresConnectionFields[] = [fieldsFromEnvironment(env)];
  if (rest === '') {
    const url = env.DATABASE_URL;
    if (url !== undefined && url !== '') {
      if (!/^postgres(ql)?:\/\//.test(url)) {
        throw new RepomemError('INVALID_ARGUMENT', 'DATABASE_URL does not start with postgres:// or postgresql://');
      }
      layers.push(parseConnectionUrl(url));
    }
  } else {
    if (!rest.startsWith('//')) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        'expected postgres://user:password@host:port/database (or postgres: alone to use $DATABASE_URL)',
      );
    }
    layers.push(parseConnectionUrl(`postgres:${rest}`));
  }
  return { layers, connection: resolveConnection(layers, env) };
}

/** The spec for messages: `postgres://user:***@host:port/database?schema=…`. */
export function postgresSpecLabel(target: PostgresSpecTarget): string {
  const { connection } = target;
  const base = describeIdentity(connection.identity, connection.password !== undefined);
  return connection.schema === 'repomem' ? base : `${base}?schema=${connection.schema}`;
}

/** The target's connection as fields for the openers. */
export function postgresSpecFields(target: PostgresSpecTarget): PostgresConnectionFields {
  const { connection } = target;
  return {
    ...connection.identity,
    ...(connection.password === undefined ? {} : { password: connection.password }),
    ...(connection.ssl === undefined ? {} : { ssl: connection.ssl }),
    schema: connection.schema,
    maxConnections: connection.maxConnections,
    statementTimeoutMs: connection.statementTimeoutMs,
    connectTimeoutMs: connection.connectTimeoutMs,
    applicationName: connection.applicationName,
  };
}
