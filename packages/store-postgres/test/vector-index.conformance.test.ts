// Why: vectors are kept with the memory as documents under `.repomem/vectors/` on every store;
// on PostgreSQL they are rows like any document (binary shards in bytea), never in the tsvector
// search, checked directly against the test server.
import { runVectorIndexConformance } from '@repomem/core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPostgresStore, type PostgresStore } from '../src/index.js';
import {
  closeCleaners,
  emptySchema,
  freshDatabase,
  freshSchema,
  noServer,
  skipReason,
  superuserFields,
} from './support.js';

describe.skipIf(noServer)(`postgres vector index${skipReason === '' ? '' : ` — ${skipReason}`}`, () => {
  let database = '';
  beforeAll(async () => {
    database = await freshDatabase('vectors');
  });
  afterAll(() => closeCleaners());
  const schema = freshSchema();
  runVectorIndexConformance<PostgresStore>({
    name: 'vector index on the PostgreSQL store',
    runner: { describe, it, expect, beforeEach, afterEach },
    createStore: () => openPostgresStore({ ...superuserFields(database), schema, repo: 'acme/rocket' }),
    teardown: () => emptySchema(database, schema),
  });
});
