// Why: the PostgreSQL store is built on its kit driver, so the driver itself runs core's driver
// suite (driver checks, then the store, hardening, record, vector and task-memory suites on
// `createStore(driver)`) against the test server. Each test gets its own repository scope of
// one schema: an empty store without migrating a schema per test.
import type { KitDriver } from '@repomem/core';
import { runDriverConformance } from '@repomem/core/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPostgresDriver } from '../src/index.js';
import { freshDatabase, freshSchema, noServer, skipReason, superuserFields } from './support.js';

describe.skipIf(noServer)(`postgres kit driver${skipReason === '' ? '' : ` — ${skipReason}`}`, () => {
  let database = '';
  beforeAll(async () => {
    database = await freshDatabase('driver');
  });
  const schema = freshSchema();
  const repos = new WeakMap<KitDriver, string>();
  let count = 0;
  const open = async (repo: string): Promise<KitDriver> => {
    const driver = await openPostgresDriver({ ...superuserFields(database), schema, repo, maxConnections: 4 });
    repos.set(driver, repo);
    return driver;
  };

  runDriverConformance({
    name: 'postgres driver conformance',
    runner: { describe, it, expect, beforeEach, afterEach },
    createDriver: () => {
      count += 1;
      return open(`acme/driver-${count}`);
    },
    openAnother: (driver) => open(repos.get(driver) ?? 'missing'),
  });
});
