// Why: a connection is described in many ways (a `postgres://` URL, `$DATABASE_URL`, the libpq
// `PG*` variables, explicit fields, or a pool the application already owns). This module turns
// any of them into one checked description, validated with zod at the boundary, and keeps the
// identity used in every message (host, port, database, user) apart from the password, which no
// message, label or diagnostic ever shows.
import { RepomemError, type SchemeEnvironment } from '@repomem/core';
import { z } from 'zod';

/** Default schema holding repomem's tables. */
export const DEFAULT_POSTGRES_SCHEMA = 'repomem';
/** Default `statement_timeout` set (with `SET LOCAL`) in every transaction: 30 s. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
/** Default connection timeout: 10 s. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** Default pool size. */
export const DEFAULT_MAX_CONNECTIONS = 10;

/** TLS settings: `true`/`'require'` (encrypt, verify the certificate), `'no-verify'`, or explicit options. */
export const PostgresTlsSchema = z.union([
  z.boolean(),
  z.enum(['disable', 'require', 'no-verify', 'verify-full']),
  z
    .object({
      ca: z.string().optional(),
      cert: z.string().optional(),
      key: z.string().optional(),
      servername: z.string().optional(),
      rejectUnauthorized: z.boolean().optional(),
    })
    .strict(),
]);
/** TLS settings of a connection (see {@link PostgresTlsSchema}). */
export type PostgresTls = z.infer<typeof PostgresTlsSchema>;

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** A schema name: lower-case letters, digits and `_`, not starting with a digit, at most 63 characters. */
export const PostgresSchemaNameSchema = z
  .string()
  .regex(IDENTIFIER, { message: 'a schema name is lower-case letters, digits and "_", not starting with a digit' });

/** Connection fields (everything optional; the environment and libpq defaults fill the rest). */
export const PostgresConnectionFieldsSchema = z
  .object({
    connectionString: z.string().min(1).optional(),
    host: z.string().min(1).optional(),
    port: z.number().int().min(1).max(65_535).optional(),
    database: z.string().min(1).optional(),
    user: z.string().min(1).optional(),
    password: z.string().optional(),
    ssl: PostgresTlsSchema.optional(),
    schema: PostgresSchemaNameSchema.optional(),
    maxConnections: z.number().int().min(1).max(1000).optional(),
    statementTimeoutMs: z.number().int().min(0).max(2_147_483_647).optional(),
    connectTimeoutMs: z.number().int().min(1).max(2_147_483_647).optional(),
    applicationName: z.string().max(63).optional(),
  })
  .strict();
/** Connection fields as a caller writes them. */
export type PostgresConnectionFields = z.infer<typeof PostgresConnectionFieldsSchema>;

/** Who a connection is, for messages: never the password. */
export interface PostgresIdentity {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
}

/** A checked connection description. */
export interface ResolvedConnection {
  readonly identity: PostgresIdentity;
  readonly password: string | undefined;
  readonly ssl: PostgresTls | undefined;
  readonly schema: string;
  readonly maxConnections: number;
  readonly statementTimeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly applicationName: string;
}

function invalid(message: string): RepomemError {
  return new RepomemError('INVALID_ARGUMENT', message);
}

const SSL_MODES: Readonly<Record<string, PostgresTls>> = {
  disable: false,
  allow: false,
  prefer: false,
  require: 'no-verify',
  'verify-ca': 'require',
  'verify-full': 'verify-full',
  'no-verify': 'no-verify',
};

function sslFromMode(mode: string | undefined, where: string): PostgresTls | undefined {
  if (mode === undefined || mode === '') return undefined;
  const value = SSL_MODES[mode];
  if (value === undefined) {
    throw invalid(`${where}: sslmode ${JSON.stringify(mode)} is not one of ${Object.keys(SSL_MODES).join(', ')}`);
  }
  return value;
}

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw invalid(`the ${what} of the connection URL is not valid percent-encoding`);
  }
}

/** Fields of a `postgres://` or `postgresql://` URL (a malformed one is `INVALID_ARGUMENT`, password never shown). */
export function parseConnectionUrl(text: string): PostgresConnectionFields {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid('the connection URL is malformed (expected postgres://user:password@host:port/database)');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw invalid(`the connection URL must start with postgres:// or postgresql://, not ${url.protocol}//`);
  }
  const fields: Record<string, unknown> = {};
  if (url.hostname !== '') fields.host = decode(url.hostname.replace(/^\[|\]$/g, ''), 'host');
  if (url.port !== '') fields.port = Number(url.port);
  const database = url.pathname.replace(/^\//, '');
  if (database !== '') fields.database = decode(database, 'database name');
  if (url.username !== '') fields.user = decode(url.username, 'user name');
  if (url.password !== '') fields.password = decode(url.password, 'password');
  for (const [key, value] of url.searchParams) {
    switch (key) {
      case 'sslmode': {
        const ssl = sslFromMode(value, 'the connection URL');
        if (ssl !== undefined) fields.ssl = ssl;
        break;
      }
      case 'ssl':
        fields.ssl = value === 'true' || value === '1';
        break;
      case 'schema':
        fields.schema = value;
        break;
      case 'statement_timeout':
        fields.statementTimeoutMs = Number(value);
        break;
      case 'connect_timeout':
        fields.connectTimeoutMs = Number(value) * 1000;
        break;
      case 'pool_max':
        fields.maxConnections = Number(value);
        break;
      case 'application_name':
        fields.applicationName = value;
        break;
      case 'host':
        fields.host = value;
        break;
      default:
        // Other libpq parameters (options, target_session_attrs...) are not used by repomem.
        break;
    }
  }
  return checkFields(fields, 'the connection URL');
}

/** `fields` checked with {@link PostgresConnectionFieldsSchema}; `INVALID_ARGUMENT` naming the bad field. */
export function checkFields(fields: unknown, where: string): PostgresConnectionFields {
  const parsed = PostgresConnectionFieldsSchema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    // Never echo the received value: it may be a password.
    throw invalid(`${where}: ${field === '' ? '' : `${field}: `}${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Fields from the libpq environment variables (`PGHOST`, `PGPORT`, `PGDATABASE`, `PGUSER`, `PGPASSWORD`, `PGSSLMODE`). */
export function fieldsFromEnvironment(env: SchemeEnvironment): PostgresConnectionFields {
  const fields: Record<string, unknown> = {};
  if (env.PGHOST) fields.host = env.PGHOST;
  if (env.PGPORT) fields.port = Number(env.PGPORT);
  if (env.PGDATABASE) fields.database = env.PGDATABASE;
  if (env.PGUSER) fields.user = env.PGUSER;
  if (env.PGPASSWORD !== undefined) fields.password = env.PGPASSWORD;
  const ssl = sslFromMode(env.PGSSLMODE, 'PGSSLMODE');
  if (ssl !== undefined) fields.ssl = ssl;
  return checkFields(fields, 'the PG* environment variables');
}

/**
 * One checked connection from layered fields (later layers win; a `connectionString` is expanded
 * in place). Defaults: host `localhost`, port 5432, user `$USER` or `postgres`, database = user.
 */
export function resolveConnection(
  layers: readonly PostgresConnectionFields[],
  env: SchemeEnvironment = {},
): ResolvedConnection {
  const merged: Record<string, unknown> = {};
  for (const layer of layers) {
    const { connectionString, ...rest } = checkFields(layer, 'connection options');
    if (connectionString !== undefined) Object.assign(merged, dropUndefined(parseConnectionUrl(connectionString)));
    Object.assign(merged, dropUndefined(rest));
  }
  const fields = checkFields(merged, 'connection options');
  const user = fields.user ?? env.USER ?? 'postgres';
  return {
    identity: {
      host: fields.host ?? 'localhost',
      port: fields.port ?? 5432,
      database: fields.database ?? user,
      user,
    },
    password: fields.password,
    ssl: fields.ssl,
    schema: fields.schema ?? DEFAULT_POSTGRES_SCHEMA,
    maxConnections: fields.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    statementTimeoutMs: fields.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    connectTimeoutMs: fields.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    applicationName: fields.applicationName ?? 'repomem',
  };
}

function dropUndefined(fields: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** `postgres://user@host:port/database` (the password, if any, shown as `***`). */
export function describeIdentity(identity: PostgresIdentity, hasPassword = false): string {
  const user = encodeURIComponent(identity.user);
  const host = identity.host.includes(':') ? `[${identity.host}]` : identity.host;
  return `postgres://${user}${hasPassword ? ':***' : ''}@${host}:${identity.port}/${encodeURIComponent(identity.database)}`;
}
