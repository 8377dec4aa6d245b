// Why: the ways a team gets a PostgreSQL store wrong (a malformed URL, a wrong password, a missing
// database, missing privileges, a newer schema, a foreign table with repomem's name, a statement
// timeout, a server that is down) must each end in one clear RepomemError naming host, port,
// database and user, never the password, and never a change to data repomem does not own.
import { randomBytes } from 'node:crypto';
import { openStore } from '@repomem/core';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore, POSTGRES_SCHEMA_VERSION, storeScheme } from '../src/index.js';
import { freePort } from './server/pg-server.js';
import {
  expectRepomemError,
  freshDatabase,
  freshSchema,
  noServer,
  server,
  skipReason,
  superuserFields,
  withSuperuser,
} from './support.js';

const utf8 = new TextEncoder();
const quickRetry = { retries: 1, minTimeoutMs: 10, maxTimeoutMs: 10 };

describe('connection specs', () => {
  it('a malformed URL is INVALID_ARGUMENT without the password', async () => {
    const error = await expectRepomemError(
      () => openStore('postgres://user:s3cret-pass@[bad/db', { repo: 'acme/app' }),
      'INVALID_ARGUMENT',
      'malformed',
    );
    expect(error.message).not.toContain('s3cret-pass');
    await expectRepomemError(() => openStore('postgres:/missing-slashes', { repo: 'acme/app' }), 'INVALID_ARGUMENT');
    await expectRepomemError(
      () => openStore('postgres://u@h/db?sslmode=sometimes', { repo: 'acme/app' }),
      'INVALID_ARGUMENT',
      'sslmode',
    );
    await expectRepomemError(
      () => openStore('postgres://u@h/db?schema=Bad-Name', { repo: 'acme/app' }),
      'INVALID_ARGUMENT',
      'schema',
    );
  });

  it('labels redact the password; $DATABASE_URL and the PG* variables fill what the spec leaves out', () => {
    const context = { cwd: '/', env: {} };
    const target = storeScheme.parse('//agent:p%40ss@db.example.com:6543/memory?schema=team&sslmode=require', context);
    expect(storeScheme.label(target)).toBe('postgres://agent:***@db.example.com:6543/memory?schema=team');
    expect(target.connection.password).toBe('p@ss');
    expect(target.connection.ssl).toBe('no-verify');
    const fromEnv = storeScheme.parse('', {
      cwd: '/',
      env: { DATABASE_URL: 'postgresql://bot:hunter2@pg.internal/mem', PGPORT: '5433' },
    });
    expect(storeScheme.label(fromEnv)).toBe('postgres://bot:***@pg.internal:5433/mem');
    const libpq = storeScheme.parse('', {
      cwd: '/',
      env: { PGHOST: 'localhost', PGUSER: 'me', PGDATABASE: 'team', PGPASSWORD: 'pw' },
    });
    expect(storeScheme.label(libpq)).toBe('postgres://me:***@localhost:5432/team');
  });
});

describe.skipIf(noServer)(`bad input against a real server${skipReason === '' ? '' : ` — ${skipReason}`}`, () => {
  let database = '';
  beforeAll(async () => {
    database = await freshDatabase('badinput');
  });
  const where = () => `${server?.host}:${server?.port}`;

  it('a wrong password: BACKEND_UNAVAILABLE naming host, port, database and user, not the password', async () => {
    const error = await expectRepomemError(
      () => openPostgresStore({ ...superuserFields(database), password: 'wrong-secret-123', retry: quickRetry }),
      'BACKEND_UNAVAILABLE',
      'authentication',
      where(),
      database,
      'postgres',
    );
    expect(error.message).not.toContain('wrong-secret-123');
    expect(error.message).not.toMatch(/\n\s+at /);
  });

  it('a missing database is NOT_FOUND naming it', async () => {
    await expectRepomemError(
      () => openPostgresStore({ ...superuserFields('no_such_database'), retry: quickRetry }),
      'NOT_FOUND',
      'no_such_database',
      where(),
    );
  });

  it('a server that is down: BACKEND_UNAVAILABLE naming where it was looked for', async () => {
    const port = await freePort();
    const error = await expectRepomemError(
      () => openPostgresStore({ ...superuserFields(database), port, password: 'secret-down-pw', retry: quickRetry }),
      'BACKEND_UNAVAILABLE',
      `127.0.0.1:${port}`,
      'connection refused',
    );
    expect(error.message).not.toContain('secret-down-pw');
  });

  it('missing privileges on the schema: a clear refusal naming the user', async () => {
    const role = `noprivs_${randomBytes(3).toString('hex')}`;
    const schema = freshSchema();
    const store = await openPostgresStore({ ...superuserFields(database), schema });
    await store.close();
    await withSuperuser(database, (client) => client.query(`CREATE ROLE "${role}" LOGIN PASSWORD 'pw-${role}'`));
    const fields = { ...superuserFields(database), user: role, password: `pw-${role}`, retry: quickRetry };
    // No USAGE on an existing schema, and no CREATE on the database for a new one.
    await expectRepomemError(
      async () => {
        const opened = await openPostgresStore({ ...fields, schema });
        await opened.list();
      },
      'PERMISSION_DENIED',
      'permission denied',
      role,
    );
    await expectRepomemError(
      () => openPostgresStore({ ...fields, schema: freshSchema() }),
      'PERMISSION_DENIED',
      'permission denied',
    );
  });

  it('a schema written by a newer release is refused and left alone', async () => {
    const schema = freshSchema();
    await (await openPostgresStore({ ...superuserFields(database), schema })).close();
    await withSuperuser(database, (client) =>
      client.query(`UPDATE "${schema}".repomem_meta SET value = '99' WHERE key = 'schema_version'`),
    );
    await expectRepomemError(
      () => openPostgresStore({ ...superuserFields(database), schema }),
      'UNSUPPORTED',
      'version 99',
      `${POSTGRES_SCHEMA_VERSION}`,
    );
    const version = await withSuperuser(database, (client) =>
      client.query(`SELECT value FROM "${schema}".repomem_meta WHERE key = 'schema_version'`),
    );
    expect(version.rows).toEqual([{ value: '99' }]);
  });

  it('a foreign table with one of repomem’s names is refused, never altered', async () => {
    const schema = freshSchema();
    await withSuperuser(database, async (client) => {
      await client.query(`CREATE SCHEMA "${schema}"`);
      await client.query(`CREATE TABLE "${schema}".agent_memory (id uuid PRIMARY KEY, note text)`);
    });
    await expectRepomemError(
      () => openPostgresStore({ ...superuserFields(database), schema }),
      'UNSUPPORTED',
      'agent_memory',
      'did not create',
    );
    const columns = await withSuperuser(database, (client) =>
      client.query(
        'SELECT column_name FROM information_schema.columns WHERE table_schema = $1 ORDER BY ordinal_position',
        [schema],
      ),
    );
    expect(columns.rows).toEqual([{ column_name: 'id' }, { column_name: 'note' }]);
  });

  it('a statement timeout (a write waiting on a lock held elsewhere) is LOCK_TIMEOUT', async () => {
    const schema = freshSchema();
    const store = await openPostgresStore({
      ...superuserFields(database),
      schema,
      repo: 'acme/app',
      statementTimeoutMs: 300,
      retry: quickRetry,
    });
    await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8.encode('- one\n') }]);
    const holder = new pg.Client(superuserFields(database) as pg.ClientConfig);
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT * FROM "${schema}".repos WHERE repo = 'acme/app' FOR UPDATE`);
      await expectRepomemError(
        () => store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8.encode('- two\n') }]),
        'LOCK_TIMEOUT',
        'statement timeout',
        where(),
      );
      await holder.query('ROLLBACK');
      expect(new TextDecoder().decode((await store.get('MEMORY.md'))?.content)).toBe('- one\n');
    } finally {
      await holder.end();
      await store.close();
    }
  });

  it('closed stores refuse further calls with STORE_CLOSED', async () => {
    const store = await openPostgresStore({ ...superuserFields(database), schema: freshSchema() });
    await store.close();
    await store.close();
    await expectRepomemError(() => store.list(), 'STORE_CLOSED');
  });
});
