// Why: the AgentCore issue sets a goal for the store on a high-latency service: a bullet add in
// at most 3 round trips. This suite runs the adapter against the wire-level emulator with 25 ms
// of latency per request, through the real AWS SDK client, and reports requests and round trips
// beside the naive mapping (read everything, write everything) for one bullet add, the read of
// 50 verified memories that `recall` does, and listing 1,000 documents.
import { createDocumentRecordBackend, openMemory } from '@repomem/core';
import { conformanceId, conformanceRecord } from '@repomem/core/testing';
import {
  createAgentCoreStore,
  createAgentCoreVerifiedBackend,
  createRecords,
  deleteRecords,
  hashedSessionId,
  listRecords,
  openAgentCoreConnection,
  readLinks,
} from '../../packages/store-agentcore/dist/index.js';
import { EMULATOR_CREDENTIALS, startAgentCoreEmulator } from '../../packages/store-agentcore/dist/testing/index.js';
import { elapsedMs, summarize } from '../lib/measure.mjs';
import { markdownTable } from '../lib/table.mjs';

const LATENCY_MS = 25;
const GOAL_ROUND_TRIPS = 3;
const encoder = new TextEncoder();

/**
 * A connection that also counts sequential round trips: a request started while no other request
 * of this connection is in flight begins a new round trip; requests started while others are in
 * flight share it (they run in parallel).
 */
function connect(emulator) {
  const connection = openAgentCoreConnection({
    memoryId: emulator.memoryId,
    endpoint: emulator.endpoint,
    region: emulator.region,
    credentials: { ...EMULATOR_CREDENTIALS },
  });
  const counter = { inFlight: 0, roundTrips: 0 };
  const send = connection.send.bind(connection);
  const counted = {
    ...connection,
    async send(operation, request) {
      if (counter.inFlight === 0) counter.roundTrips += 1;
      counter.inFlight += 1;
      try {
        return await send(operation, request);
      } finally {
        counter.inFlight -= 1;
      }
    },
  };
  return { connection: counted, counter };
}

/** Run `work` `iterations` times; per run: requests, sequential round trips and wall ms. */
async function measure(emulator, counter, iterations, work) {
  const requests = [];
  const roundTrips = [];
  const wall = [];
  for (let i = 0; i < iterations; i++) {
    emulator.resetStats();
    counter.roundTrips = 0;
    const start = process.hrtime.bigint();
    await work(i);
    const ms = elapsedMs(start);
    requests.push(emulator.stats().requests);
    wall.push(ms);
    roundTrips.push(counter.roundTrips);
  }
  return { requests: summarize(requests), roundTrips: summarize(roundTrips), wall: summarize(wall) };
}

function row(label, kind, m) {
  return [
    label,
    kind,
    m.requests.p50,
    m.roundTrips.p50,
    m.roundTrips.p95,
    m.wall.p50.toFixed(0),
    m.wall.p95.toFixed(0),
    m.wall.n,
  ];
}

/** A tree of documents for the bullet-add case. */
function tree(count) {
  const documents = { 'MEMORY.md': '# Memory\n\n## Notes\n- first note\n' };
  for (let i = 0; i < count; i++)
    documents[`daily/2026-04-${String((i % 28) + 1).padStart(2, '0')}-${i}.md`] =
      `# Day ${i}\n\n- worked on item ${i}\n`;
  return documents;
}

async function seed(store, documents) {
  const result = await store.write(
    Object.entries(documents).map(([path, text]) => ({ kind: 'put', path, content: encoder.encode(text) })),
  );
  if (result.status !== 'committed') throw new Error('seeding conflicted');
}

/** The naive mapping: the whole tree is a set of records, read whole and rewritten whole on every edit. */
async function naiveBulletAdd(connection, namespace, line) {
  const records = await listRecords(connection, { namespacePath: namespace });
  const documents = new Map(records.map((record) => [record.namespace, record.text]));
  const memoryNs = `${namespace}MEMORY/`;
  documents.set(memoryNs, `${documents.get(memoryNs) ?? '# Memory\n'}${line}\n`);
  await deleteRecords(
    connection,
    records.map((record) => record.id),
  );
  await createRecords(
    connection,
    [...documents].map(([ns, text]) => ({ namespace: ns, text, metadata: { kind: 'naive' }, at: new Date() })),
  );
}

/** Run the suite; returns a report section. */
export async function runAgentCore({ quick, log }) {
  const emulator = await startAgentCoreEmulator({ latencyMs: 0, memories: ['bench-agentcore-0123456789'] });
  const iterations = quick ? 5 : 20;
  try {
    // One bullet add on a 201-document tree, through the memory facade.
    const { connection, counter } = connect(emulator);
    const store = createAgentCoreStore({ connection, repo: 'bench/app', ownsConnection: false });
    await seed(store, tree(200));
    const memory = openMemory({ store });
    const naiveNs = '/bench/naive/';
    await createRecords(
      connection,
      Object.entries(tree(200)).map(([path, text]) => ({
        namespace: `${naiveNs}${path.replace(/[^A-Za-z0-9/-]/g, '-').replace(/-md$/, '')}/`,
        text,
        metadata: { kind: 'naive' },
        at: new Date(),
      })),
    );
    emulator.setLatency(LATENCY_MS);
    log('agentcore: bullet add');
    const add = await measure(emulator, counter, iterations, (i) =>
      memory.add({ file: 'MEMORY.md', section: 'Notes', text: `bench bullet ${i}` }),
    );
    // The same add on a file already edited 250 times (readers ask for the newest events only).
    emulator.setLatency(0);
    for (let i = 0; i < 250; i++) await memory.add({ file: 'MEMORY.md', section: 'Notes', text: `history ${i}` });
    emulator.setLatency(LATENCY_MS);
    const addLong = await measure(emulator, counter, iterations, (i) =>
      memory.add({ file: 'MEMORY.md', section: 'Notes', text: `late bullet ${i}` }),
    );
    const addNaive = await measure(emulator, counter, iterations, (i) =>
      naiveBulletAdd(connection, naiveNs, `- naive bullet ${i}`),
    );

    // Read of 50 verified memories (what `recall(repo, { limit: 50 })` asks its backend).
    emulator.setLatency(0);
    log('agentcore: 50 verified memories');
    const backend = createAgentCoreVerifiedBackend({ connection, ownsConnection: false });
    const docBackend = createDocumentRecordBackend(
      createAgentCoreStore({ connection, repo: 'acme/app', ownsConnection: false }),
    );
    for (let i = 1; i <= 50; i++) {
      const record = conformanceRecord({ id: conformanceId(i), fact: `Fact number ${i} about the build.` });
      for (const target of [backend, docBackend]) {
        const result = await target.apply([{ record, expectedRevision: null }], []);
        if (!result.ok) throw new Error('seeding memories conflicted');
      }
    }
    emulator.setLatency(LATENCY_MS);
    const recall = await measure(emulator, counter, iterations, async () => {
      const found = await backend.recent({ repo: 'acme/app', statuses: ['active'], limit: 50 });
      if (found.length !== 50) throw new Error(`expected 50 memories, got ${found.length}`);
    });
    const recallNaive = await measure(emulator, counter, Math.max(2, iterations / 4), async () => {
      // A fresh backend each time: its per-process cache would otherwise hide the reads.
      const fresh = createDocumentRecordBackend(
        createAgentCoreStore({ connection, repo: 'acme/app', ownsConnection: false }),
      );
      const found = await fresh.recent({ repo: 'acme/app', statuses: ['active'], limit: 50 });
      if (found.length !== 50) throw new Error(`expected 50 memories, got ${found.length}`);
    });

    // Listing 1,000 documents.
    emulator.setLatency(0);
    log('agentcore: 1,000 documents');
    const big = createAgentCoreStore({ connection, repo: 'bench/large', ownsConnection: false });
    const documents = {};
    for (let i = 0; i < 1000; i++) documents[`notes/${String(i).padStart(4, '0')}.md`] = `- note ${i}\n`;
    await seed(big, documents);
    emulator.setLatency(LATENCY_MS);
    const list = await measure(emulator, counter, Math.max(2, iterations / 4), async () => {
      const entries = await big.list();
      if (entries.length !== 1000) throw new Error(`expected 1,000 entries, got ${entries.length}`);
    });
    const listNaive = await measure(emulator, counter, 2, async () => {
      // Without the record index: every document's chain is read (10 requests at a time).
      const paths = Object.keys(documents);
      for (let i = 0; i < paths.length; i += 10) {
        await Promise.all(
          paths
            .slice(i, i + 10)
            .map((path) => readLinks(connection, { actorId: big.actorId, sessionId: hashedSessionId('d', path) })),
        );
      }
    });
    await store.close();
    await big.close();
    await backend.close();
    await docBackend.close();
    connection.close();

    const table = markdownTable(
      ['operation', 'kind', 'requests (p50)', 'round trips p50', 'round trips p95', 'wall ms p50', 'wall ms p95', 'n'],
      [
        row('one bullet add (`memory.add`, 201-document tree)', 'repomem', add),
        row('one bullet add to a file edited 250 times before', 'repomem', addLong),
        row('one bullet add, naive: read every record, delete all, create all', 'baseline', addNaive),
        row('read 50 verified memories (`recent(repo, 50)`, native backend)', 'repomem', recall),
        row('read 50 verified memories, JSON documents on the same store', 'baseline', recallNaive),
        row('list 1,000 documents (`store.list()`)', 'repomem', list),
        row('list 1,000 documents, naive: read each document chain (10 at a time)', 'baseline', listNaive),
      ],
    );
    return {
      title: 'AgentCore Memory store (emulator, 25 ms per request)',
      intro:
        'The `@repomem/store-agentcore` adapter through the real AWS SDK client against its wire-level emulator with ' +
        `${LATENCY_MS} ms of latency on every request. "round trips" are sequential waits: a request sent while none is in ` +
        'flight starts one, requests sent in parallel share it; "requests" counts every request the emulator served.',
      tables: [{ caption: 'Requests, round trips and wall time per operation', markdown: table }],
      goals: [
        {
          goal: `AgentCore: one bullet add in at most ${GOAL_ROUND_TRIPS} round trips`,
          measured: `${add.roundTrips.p50} round trips (p50), ${add.requests.p50} requests`,
          met: add.roundTrips.p50 <= GOAL_ROUND_TRIPS,
        },
      ],
      notes: [
        'A bullet add is: read the document (its chain of events and its records, in parallel), append one event, then re-read the chain, write the new records and delete the old ones (in parallel).',
        'The naive bullet add needs as many round trips here but moves every document of the tree over the wire twice, grows with the tree, and loses edits under concurrency (no compare-and-swap); the naive listing reads one chain per document.',
        'Verified memories: the native backend reads one chain of deltas (one request per 100 writes); the baseline keeps one JSON document per memory in the same AgentCore document store and reads them from a fresh process.',
      ],
    };
  } finally {
    await emulator.close();
  }
}
