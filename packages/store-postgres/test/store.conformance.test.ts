// Why: the PostgreSQL store runs core's conformance suites unmodified (documents, writes, state,
// capabilities across two instances, search parity) and the hardening suite, and the record
// backend runs the verified-memory conformance suite, directly against the test server.
import {
  runRecordBackendConformance,
  runStoreConformance,
  runStoreHardening,
  runTaskRecordBackendConformance,
} from '@repomem/core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  openPostgresRecordBackend,
  openPostgresStore,
  openPostgresTaskRecordBackend,
  type PostgresRecordBackend,
  type PostgresStore,
  type PostgresTaskRecordBackend,
} from '../src/index.js';
import {
  closeCleaners,
  emptySchema,
  freshDatabase,
  freshSchema,
  noServer,
  skipReason,
  superuserFields,
  withSuperuser,
} from './support.js';

describe.skipIf(noServer)(`postgres conformance (direct)${skipReason === '' ? '' : ` — ${skipReason}`}`, () => {
  let database = '';
  beforeAll(async () => {
    database = await freshDatabase('conformance');
  });
  afterAll(() => closeCleaners());
  // One schema per suite, emptied after each test (a fresh empty store without migrating again).
  const schemas = { store: freshSchema(), hardening: freshSchema(), records: freshSchema(), tasks: freshSchema() };
  const fields = (schema: string) => ({ ...superuserFields(database), schema });
  const empty = (schema: string) => () => emptySchema(database, schema);

  runStoreConformance<PostgresStore>({
    name: 'postgres store conformance',
    runner: { describe, it, expect, beforeEach, afterEach },
    createStore: () => openPostgresStore({ ...fields(schemas.store), repo: 'acme/rocket' }),
    teardown: empty(schemas.store),
    rawRead: (store, path) =>
      withSuperuser(database, async (client) => {
        const result = await client.query(
          `SELECT content FROM "${store.schema}".documents WHERE repo = $1 AND path = $2`,
          [store.repo, path],
        );
        const row = result.rows[0] as { content: Buffer } | undefined;
        return row === undefined ? undefined : new Uint8Array(row.content);
      }),
    rawList: (store) =>
      withSuperuser(database, async (client) => {
        const result = await client.query(`SELECT path FROM "${store.schema}".documents WHERE repo = $1`, [store.repo]);
        return (result.rows as Array<{ path: string }>).map((row) => row.path);
      }),
    openAnother: (store) => openPostgresStore({ ...superuserFields(database), schema: store.schema, repo: store.repo }),
  });

  runStoreHardening<PostgresStore>({
    name: 'postgres store hardening',
    runner: { describe, it, expect, beforeEach, afterEach },
    createStore: () => openPostgresStore({ ...fields(schemas.hardening), repo: 'acme/rocket' }),
    teardown: empty(schemas.hardening),
  });

  runRecordBackendConformance<PostgresRecordBackend>({
    name: 'postgres record backend conformance',
    runner: { describe, it, expect, beforeEach, afterEach },
    createBackend: () => openPostgresRecordBackend(fields(schemas.records)),
    teardown: empty(schemas.records),
  });

  runTaskRecordBackendConformance<PostgresTaskRecordBackend>({
    name: 'postgres task-record backend conformance',
    runner: { describe, it, expect, beforeEach, afterEach },
    createBackend: () => openPostgresTaskRecordBackend(fields(schemas.tasks)),
    teardown: empty(schemas.tasks),
  });
});
