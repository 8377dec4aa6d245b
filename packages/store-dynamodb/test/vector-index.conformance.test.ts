// Why: vectors are kept with the memory as documents under `.repomem/vectors/` on every store;
// on DynamoDB (a store on the kit) they are items like any document, written with conditional
// writes, checked against dynalite.
import { createStore, type MemoryStore } from '@repomem/core';
import { runVectorIndexConformance } from '@repomem/core/testing';
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

runVectorIndexConformance<MemoryStore>({
  name: 'vector index on the DynamoDB store (dynalite)',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => createStore(await openDynamoDbDriver({ table: 'vectors', repo: freshRepo() })),
  timeoutMs: 60_000,
});
