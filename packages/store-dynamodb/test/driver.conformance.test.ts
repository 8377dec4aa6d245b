// Why: the DynamoDB driver runs the kit's driver suite and, through it, the store, hardening,
// verified-record and task-record suites on createStore(driver), with a second client on the
// same table and repository as `openAnother`.
import type { KitDriver } from '@repomem/core';
import { runDriverConformance } from '@repomem/core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDynamoDbDriver } from '../src/index.js';
import { type Dynalite, freshRepo, startDynalite } from './support.js';

let dynamo: Dynalite;
beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(async () => {
  await dynamo.stop();
});

const repos = new WeakMap<KitDriver, string>();
async function open(repo: string): Promise<KitDriver> {
  const driver = await openDynamoDbDriver({ table: 'conformance', repo });
  repos.set(driver, repo);
  return driver;
}

runDriverConformance({
  name: 'DynamoDB driver (dynalite)',
  runner: { describe, it, expect, beforeEach, afterEach },
  createDriver: () => open(freshRepo()),
  openAnother: (driver) => open(repos.get(driver) ?? freshRepo()),
});
