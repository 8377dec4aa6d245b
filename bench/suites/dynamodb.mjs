// Why: the store kit issue asks what a store written on the kit costs. This suite runs
// `@repomem/store-dynamodb` (a kit driver under core's createStore) through the real AWS SDK
// client against dynalite on loopback, and reports requests, sequential round trips and wall
// time for a bullet add, creating a daily file, listing, a one-shot search and reading 50
// verified memories kept as documents through the same driver.
import { createRequire } from 'node:module';
import { openMemory, searchStore } from '@repomem/core';
import { CONFORMANCE_REPO, conformanceId, conformanceRecord } from '@repomem/core/testing';
import { openDynamoDbStore } from '../../packages/store-dynamodb/dist/index.js';
import { elapsedMs, summarize } from '../lib/measure.mjs';
import { markdownTable } from '../lib/table.mjs';

// The SDK client and dynalite are dependencies of the store package, resolved from it.
const requireFromStore = createRequire(new URL('../../packages/store-dynamodb/package.json', import.meta.url));
const { DynamoDBClient } = requireFromStore('@aws-sdk/client-dynamodb');
const dynalite = requireFromStore('dynalite');

const DOCUMENTS = 2_000;
const GOAL_ROUND_TRIPS = 3;
const encoder = new TextEncoder();

/** A client that counts requests and sequential round trips (parallel requests share one). */
function countingClient(endpoint) {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  const counter = { inFlight: 0, requests: 0, roundTrips: 0 };
  const send = client.send.bind(client);
  client.send = async (...args) => {
    counter.requests += 1;
    if (counter.inFlight === 0) counter.roundTrips += 1;
    counter.inFlight += 1;
    try {
      return await send(...args);
    } finally {
      counter.inFlight -= 1;
    }
  };
  return { client, counter };
}

async function measure(counter, iterations, work) {
  const requests = [];
  const roundTrips = [];
  const wall = [];
  for (let i = 0; i < iterations; i++) {
    counter.requests = 0;
    counter.roundTrips = 0;
    const start = process.hrtime.bigint();
    await work(i);
    wall.push(elapsedMs(start));
    requests.push(counter.requests);
    roundTrips.push(counter.roundTrips);
  }
  return { requests: summarize(requests), roundTrips: summarize(roundTrips), wall: summarize(wall) };
}

const row = (label, m) => [
  label,
  m.requests.p50,
  m.roundTrips.p50,
  m.roundTrips.p95,
  m.wall.p50.toFixed(1),
  m.wall.p95.toFixed(1),
  m.wall.n,
];

/** Run the suite; returns a report section. */
export async function runDynamoDb({ quick, log }) {
  const server = dynalite({ createTableMs: 0 });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${server.address().port}`;
  const { client, counter } = countingClient(endpoint);
  const iterations = quick ? 5 : 30;
  try {
    log(`dynamodb: seeding ${DOCUMENTS} documents`);
    const store = await openDynamoDbStore({ table: 'bench', repo: 'bench/app', client });
    const memory = openMemory({ store });
    await memory.init();
    for (let i = 0; i < DOCUMENTS; i += 100) {
      const batch = [];
      for (let j = i; j < i + 100; j++) {
        batch.push({
          kind: 'put',
          path: `notes/n${j}.md`,
          content: encoder.encode(`# Note ${j}\n\n- item ${j} about deploys\n`),
        });
      }
      await store.write(batch);
    }
    const add = await measure(counter, iterations, (i) =>
      memory.add({ file: 'MEMORY.md', section: 'Notes', text: `bullet number ${i} for the benchmark` }),
    );
    const create = await measure(counter, iterations, (i) =>
      store.write([{ kind: 'put', path: `daily/2026-05-${i}.md`, content: encoder.encode(`- day ${i}\n`) }]),
    );
    const list = await measure(counter, Math.max(3, iterations / 5), () => store.list());
    const search = await measure(counter, Math.max(3, iterations / 5), () => searchStore(store, 'deploys item'));
    const verified = await store.verifiedBackend();
    await verified.apply(
      Array.from({ length: 50 }, (_, i) => ({
        record: conformanceRecord({ id: conformanceId(i) }),
        expectedRevision: null,
      })),
      [],
    );
    const recent = await measure(counter, iterations, () => verified.recent({ repo: CONFORMANCE_REPO, limit: 50 }));
    await verified.close();
    await store.close();

    const table = markdownTable(
      ['operation', 'requests (p50)', 'round trips p50', 'round trips p95', 'wall ms p50', 'wall ms p95', 'n'],
      [
        row(`one bullet add (\`memory.add\`, ${DOCUMENTS}-document repository)`, add),
        row('create a daily document (twin check lists `daily/` only)', create),
        row(`list ${DOCUMENTS + 5} documents (\`store.list()\`)`, list),
        row('one-shot search (`searchStore`, core reads and ranks)', search),
        row('read 50 verified memories (`recent(repo, 50)`, JSON documents)', recent),
      ],
    );
    return {
      title: 'DynamoDB store on the store kit (dynalite, loopback)',
      intro:
        "The `@repomem/store-dynamodb` driver under core's `createStore`, through the real AWS SDK client against " +
        'dynalite on 127.0.0.1 (no added latency). "round trips" are sequential waits: a request sent while none is ' +
        'in flight starts one, requests sent in parallel share it.',
      tables: [{ caption: 'Requests, round trips and wall time per operation', markdown: table }],
      goals: [
        {
          goal: `DynamoDB: one bullet add in at most ${GOAL_ROUND_TRIPS} round trips`,
          measured: `${add.roundTrips.p50} round trips (p50), ${add.requests.p50} requests`,
          met: add.roundTrips.p50 <= GOAL_ROUND_TRIPS,
        },
      ],
      notes: [
        'A bullet add is: read the document (BatchGetItem), then the kit reads the current version again and writes with a condition on it (BatchGetItem, PutItem).',
        'Verified memories and task records are JSON documents under `.repomem/` in the same table, through the same client; a search reads the documents (the store has no native index).',
      ],
    };
  } finally {
    client.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
}
