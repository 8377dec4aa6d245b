// Why: the PostgreSQL store runs core's conformance suites unmodified (documents, writes, state,
// capabilities across two instances, search parity) and the hardening suite, and the record
// backend runs the verified-memory conformance suite, directly against the test server.
import { runRecordBackendConformance, runStoreConformance, runStoreHardening } from '@repomem/core/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  openPostgresRecordBackend,
  openPostgresStore,
  type PostgresRecordBackend,
  type PostgresStore,
} from '../src/index.js';
import { freshDatabase, freshSchema, noServer, skipReason, superuserFields, withSuperuser } from './support.js';

describe.skipIf(noServer)(`postgres conformance (direct)${skipReason === '' ? '' : ` — ${skipReason}`}`, () => {
  let database = '';
  beforeAll(async () => {
    database = await freshDatabase('conformance');
  });
  const fields = () => ({ ...superuserFields(database), schema: freshSchema() });

  runStoreConformance<PostgresStore>({
    name: 'postgres store conformance',
    runner: { describe, it, expect, beforeEach, afterEach },
    createStore: () => openPostgresStore({ ...fields(), repo: 'acme/rocket' }),
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
    createStore: () => openPostgresStore({ ...fields(), repo: 'acme/rocket' }),
  });

  runRecordBackendConformance<PostgresRecordBackend>({
    name: 'postgres record backend conformance',
    runner: { describe, it, expect, beforeEach, afterEach },
    createBackend: () => openPostgresRecordBackend(fields()),
  });
});
