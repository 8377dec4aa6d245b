// Why: verified memories on DynamoDB are documents of the store (core's document record backend
// over a kit store of per-key conditional writes); the record suite, branch scope and the
// learned-on fields included, must pass there as on every store, checked against dynalite.
import { createDocumentRecordBackend, createStore } from '@repomem/core';
import { runRecordBackendConformance } from '@repomem/core/testing';
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

runRecordBackendConformance({
  name: 'document record backend on the DynamoDB store (dynalite)',
  runner: { describe, it, expect, beforeEach, afterEach },
  createBackend: async () =>
    createDocumentRecordBackend(createStore(await openDynamoDbDriver({ table: 'records', repo: freshRepo() }))),
  timeoutMs: 60_000,
});
