// Why: helpers shared by the PostgreSQL tests: whether the shared test server runs (and where),
// a fresh database per test file and a fresh schema per test (so every conformance test gets an
// empty store without starting anything), a superuser client for checks that bypass the store,
// and the RepomemError assertion.
import { randomBytes } from 'node:crypto';
import { isRepomemError } from '@repomem/core';
import pg from 'pg';
import { expect, inject } from 'vitest';
import type { PostgresConnectionFields } from '../src/index.js';

/** What the global setup provides. */
export type PostgresAvailability =
  | { readonly available: false; readonly reason: string }
  | {
      readonly available: true;
      readonly host: string;
      readonly port: number;
      readonly bouncerPort: number | undefined;
      readonly user: string;
      readonly password: string;
      readonly version: string;
    };

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PostgresAvailability;
  }
}

/** The shared server, or `undefined` (tests then skip with {@link skipReason}). */
export const server = ((): Extract<PostgresAvailability, { available: true }> | undefined => {
  const info = inject('postgres');
  return info.available ? info : undefined;
})();

/** Why the PostgreSQL tests are skipped (shown in the test name), or `''`. */
export const skipReason = ((): string => {
  const info = inject('postgres');
  return info.available ? '' : info.reason;
})();

/** True when there is no server (use with `describe.skipIf`). */
export const noServer = server === undefined;

function required(): Extract<PostgresAvailability, { available: true }> {
  if (server === undefined) throw new Error(skipReason);
  return server;
}

/** Superuser connection fields for `database`, direct or through PgBouncer. */
export function superuserFields(database: string, through: 'direct' | 'bouncer' = 'direct'): PostgresConnectionFields {
  const info = required();
  const port = through === 'bouncer' ? info.bouncerPort : info.port;
  if (port === undefined) throw new Error('PgBouncer is not available');
  return { host: info.host, port, user: info.user, password: info.password, database };
}

/** A new database named after `label`; returns its name. */
export async function freshDatabase(label: string): Promise<string> {
  const name = `t_${label.replace(/[^a-z0-9_]/g, '_')}_${randomBytes(4).toString('hex')}`;
  await withSuperuser('postgres', (client) => client.query(`CREATE DATABASE "${name}"`));
  return name;
}

let schemas = 0;
/** A schema name not used before in this process. */
export function freshSchema(): string {
  schemas += 1;
  return `s${schemas}_${randomBytes(3).toString('hex')}`;
}

/** Run `work` with a superuser client on `database` (closed afterwards). */
export async function withSuperuser<T>(database: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const info = required();
  const client = new pg.Client({
    host: info.host,
    port: info.port,
    user: info.user,
    password: info.password,
    database,
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Assert `action` throws or rejects with a RepomemError of `code` whose message contains every
 * one of `parts`; resolves that error.
 */
export async function expectRepomemError(action: () => unknown, code: string, ...parts: string[]): Promise<Error> {
  let caught: unknown;
  try {
    await action();
  } catch (error) {
    caught = error;
  }
  expect(isRepomemError(caught), `expected a RepomemError, got ${String(caught)}`).toBe(true);
  const error = caught as Error & { code: string };
  expect(error.code, error.message).toBe(code);
  for (const part of parts) expect(error.message).toContain(part);
  return error;
}

const cleaners = new Map<string, Promise<pg.Client>>();

/**
 * Empty every repomem table of `schema` (between conformance tests: much faster than migrating a
 * fresh schema for each test), on one superuser connection kept per database (closed by
 * {@link closeCleaners}). Does nothing when the schema has no tables yet.
 */
export async function emptySchema(database: string, schema: string): Promise<void> {
  let client = cleaners.get(database);
  if (client === undefined) {
    const info = required();
    const created = new pg.Client({
      host: info.host,
      port: info.port,
      user: info.user,
      password: info.password,
      database,
    });
    created.on('error', () => undefined);
    client = created.connect().then(() => created);
    cleaners.set(database, client);
  }
  const connected = await client;
  const found = await connected.query('SELECT to_regclass($1) IS NOT NULL AS present', [`"${schema}".repomem_meta`]);
  if ((found.rows[0] as { present: boolean }).present !== true) return;
  const tables = [
    'repos',
    'documents',
    'state',
    'agent_memory',
    'agent_memory_telemetry',
    'task_records',
    'write_receipts',
  ];
  await connected.query(tables.map((table) => `DELETE FROM "${schema}"."${table}"`).join('; '));
}

/** Close the connections {@link emptySchema} kept. */
export async function closeCleaners(): Promise<void> {
  const clients = [...cleaners.values()];
  cleaners.clear();
  for (const client of clients) await (await client).end();
}
