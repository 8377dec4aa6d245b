// Why: teams reach PostgreSQL through transaction-mode poolers (PgBouncer, Supabase's pooler),
// which hand each transaction to any server connection. The same unmodified suites run once more
// through a real PgBouncer in transaction mode: documents, state, search parity, records.
import {
  runRecordBackendConformance,
  runStoreConformance,
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
  server,
  skipReason,
  superuserFields,
} from './support.js';

const reason = skipReason !== '' ? skipReason : server?.bouncerPort === undefined ? 'PgBouncer is not installed' : '';

describe.skipIf(reason !== '')(
  `postgres conformance through PgBouncer (transaction mode)${reason === '' ? '' : ` — ${reason}`}`,
  () => {
    let database = '';
    beforeAll(async () => {
      database = await freshDatabase('bouncer');
    });
    afterAll(() => closeCleaners());
    // One schema per suite, emptied after each test (a fresh empty store without migrating again).
    const schemas = { store: freshSchema(), hardening: freshSchema(), records: freshSchema(), tasks: freshSchema() };
    const fields = (schema: string) => ({ ...superuserFields(database, 'bouncer'), schema });
    const empty = (schema: string) => () => emptySchema(database, schema);

    runStoreConformance<PostgresStore>({
      name: 'postgres store conformance (PgBouncer)',
      runner: { describe, it, expect, beforeEach, afterEach },
      createStore: () => openPostgresStore({ ...fields(schemas.store), repo: 'acme/rocket' }),
      teardown: empty(schemas.store),
      openAnother: (store) =>
        openPostgresStore({ ...superuserFields(database, 'bouncer'), schema: store.schema, repo: store.repo }),
    });

    runRecordBackendConformance<PostgresRecordBackend>({
      name: 'postgres record backend conformance (PgBouncer)',
      runner: { describe, it, expect, beforeEach, afterEach },
      createBackend: () => openPostgresRecordBackend(fields(schemas.records)),
      teardown: empty(schemas.records),
    });

    runTaskRecordBackendConformance<PostgresTaskRecordBackend>({
      name: 'postgres task-record backend conformance (PgBouncer)',
      runner: { describe, it, expect, beforeEach, afterEach },
      createBackend: () => openPostgresTaskRecordBackend(fields(schemas.tasks)),
      teardown: empty(schemas.tasks),
    });
  },
);
