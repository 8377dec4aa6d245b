// Why: the task-memory issue sets two goals for `hydrate` over a repository of 10,000 task records
// of mixed kinds: p50 under 10 ms on the default SQLite store, and, through a store answering each
// request after 25 ms, less than two round trips of wall time (every source is read in parallel),
// side by side with the same reads done one source after another.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDocumentTaskRecordBackend, createInMemoryStore, hydrate } from '@repomem/core';
import { createSeededRandom } from '@repomem/core/testing';
import { openSqliteStore } from '../../packages/store-sqlite/dist/index.js';
import { elapsedMs, summarize, timeRepeated } from '../lib/measure.mjs';
import { formatMs } from '../lib/table.mjs';
import { buildVocabulary, zipfPicker } from '../lib/vocabulary.mjs';

const REPO = 'bench/app';
const LATENCY_MS = 25;
const GOAL_SQLITE_MS = 10;
const GOAL_ROUND_TRIPS = 2;
/** Records per kind: 10,000 in all. */
const MIX = { knowledge: 4000, episode: 4000, rule: 500, preference: 500, receipt: 1000 };
const USERS = 50;

/** Text from a 3,000-word vocabulary with Zipf frequencies (as the verified-memory suite). */
const VOCABULARY_SIZE = 3000;
function sentence(pick, words) {
  return Array.from({ length: words }, () => pick()).join(' ');
}

/** The 10,000 records, in the shapes the task-memory modules write. */
function generateRecords() {
  const random = createSeededRandom('repomem-hydrate');
  const words = buildVocabulary(random, VOCABULARY_SIZE);
  const next = zipfPicker(random, words);
  const word = (i) => words[i % 200];
  const records = [];
  let minute = 0;
  const at = () => new Date(Date.UTC(2026, 0, 1) + minute++ * 60_000).toISOString();
  const record = (kind, id, text, data) => ({ kind, repo: REPO, id, revision: 1, updated_at: at(), text, data });
  for (let i = 0; i < MIX.knowledge; i++) {
    const subject = `${sentence(next, 2)} ${i}`;
    const fact = `${sentence(next, 14)}.`;
    const created = at();
    records.push(
      record('knowledge', `k-${i.toString(16).padStart(24, '0')}`, `${subject}: ${fact}`, {
        subject,
        scope: i % 5 === 0 ? `src/${word(i)}/` : null,
        fact,
        insight_type: i % 7 === 0 ? 'agent_self_feedback' : 'repo_learning',
        status: i % 9 === 0 ? 'superseded' : 'active',
        supersedes: [],
        tasks: [`task-${i}`],
        created_at: created,
      }),
    );
  }
  for (let i = 0; i < MIX.episode; i++) {
    const description = sentence(next, 10);
    const approach = sentence(next, 16);
    records.push(
      record('episode', `task-${i}`, `${description}\n${approach}`, {
        task_id: `task-${i}`,
        status: i % 6 === 0 ? 'failed' : 'completed',
        description,
        approach,
        files_changed: [`src/${word(i)}.ts`],
        files_omitted: 0,
        minimal: false,
        outcome: i % 3 === 0 ? 'positive' : i % 3 === 1 ? 'negative' : null,
        written_at: at(),
      }),
    );
  }
  for (let i = 0; i < MIX.rule; i++) {
    const rule = `Always ${sentence(next, 9)} (${i}).`;
    records.push(
      record('rule', `rule-${i.toString(16).padStart(24, '0')}`, rule, {
        rule,
        source: 'review',
        authority: 'member',
        weight: 0.9,
        status: i % 4 === 0 ? 'superseded' : 'active',
        provenance: {
          pr: i + 1,
          reviewer: 'alice',
          association: 'MEMBER',
          extracted_at: at(),
          prompt_version: 'manual',
        },
        confirmations: [],
        supersedes: [],
        tasks_since_retrieved: 0,
      }),
    );
  }
  for (let i = 0; i < MIX.preference; i++) {
    const user = `user${i % USERS}`;
    const preference = `I prefer ${sentence(next, 8)}.`;
    records.push(
      record('preference', `users/${user}/note-${i}`, preference, {
        user,
        topic: `note-${i}`,
        preference,
        source: 'explicit',
        set_at: at(),
      }),
    );
  }
  for (let i = 0; i < MIX.receipt; i++) {
    records.push(
      record('receipt', `task-${i}`, `task-${i}`, {
        schema: 1,
        repo: REPO,
        task_id: `task-${i}`,
        created_at: at(),
        estimator: 'chars/4',
        budget_tokens: 2000,
        used_tokens: 0,
        query_terms: [],
        sources: [],
        items: [],
        items_omitted: 0,
      }),
    );
  }
  return { records, tasks: Array.from({ length: 64 }, () => sentence(next, 8)) };
}

async function load(backend, records) {
  for (let i = 0; i < records.length; i += 500) {
    const result = await backend.apply(records.slice(i, i + 500).map((record) => ({ record, expectedRevision: null })));
    if (!result.ok) throw new Error('loading task records conflicted');
  }
}

/**
 * `store` answering each request after `latencyMs` (a network store), counting requests and
 * sequential round trips (a request started while another is in flight shares its round trip).
 */
function withLatency(store, latencyMs) {
  const counter = { requests: 0, roundTrips: 0, inFlight: 0 };
  const delayed =
    (action) =>
    async (...args) => {
      counter.requests += 1;
      if (counter.inFlight === 0) counter.roundTrips += 1;
      counter.inFlight += 1;
      try {
        await new Promise((resolve) => setTimeout(resolve, latencyMs));
        return await action(...args);
      } finally {
        counter.inFlight -= 1;
      }
    };
  const wrapped = {
    specificationVersion: store.specificationVersion,
    name: `${store.name}+${latencyMs}ms`,
    capabilities: store.capabilities,
    state: store.state,
    get: delayed((path) => store.get(path)),
    list: delayed((prefix) => store.list(prefix)),
    ...(store.readAll === undefined ? {} : { readAll: delayed((options) => store.readAll(options)) }),
    write: delayed((operations, metadata) => store.write(operations, metadata)),
    revision: delayed(() => store.revision()),
    close: () => store.close(),
  };
  return { store: wrapped, counter };
}

/** The same reads hydrate does (rules, knowledge, episodes, preferences), one after another. */
async function sequentialReads(backend, description, user) {
  const text = description;
  await backend.list({ repo: REPO, kind: 'rule', limit: 400 });
  await backend.search({ repo: REPO, kind: 'knowledge', text, match: 'any', limit: 50 });
  await backend.list({ repo: REPO, kind: 'knowledge', limit: 20 });
  await backend.search({ repo: REPO, kind: 'episode', text, match: 'any', limit: 20 });
  await backend.list({ repo: REPO, kind: 'episode', limit: 10 });
  await backend.list({ repo: REPO, kind: 'preference', idPrefix: `users/${user}/`, limit: 50 });
}

/** Run the hydrate benchmark; returns a report section. */
export async function runHydrate({ quick, log }) {
  const iterations = quick ? 30 : 200;
  const latencyIterations = quick ? 8 : 30;
  const { records, tasks } = generateRecords();
  const task = (i) => ({ id: `bench-${i}`, description: tasks[i % tasks.length], user: `user${i % USERS}` });
  const dir = mkdtempSync(join(tmpdir(), 'repomem-hydrate-bench-'));
  try {
    log(`hydrate: loading ${records.length.toLocaleString('en-US')} task records into SQLite`);
    const sqlite = await openSqliteStore({ path: join(dir, 'memory.db'), repo: REPO });
    const loadStart = process.hrtime.bigint();
    await load(createDocumentTaskRecordBackend(sqlite), records);
    const loadMs = elapsedMs(loadStart);

    const coldBackend = createDocumentTaskRecordBackend(sqlite);
    const coldStart = process.hrtime.bigint();
    const first = await hydrate({ backend: coldBackend, repo: REPO, task: task(0) });
    const coldMs = elapsedMs(coldStart);
    if (first.status !== 'ok') throw new Error(`hydrate on SQLite: ${first.status}`);
    const backend = coldBackend;
    let included = 0;
    const sqliteCpu = [];
    const sqliteSamples = await timeRepeated(
      async (i) => {
        const cpu = process.cpuUsage();
        const result = await hydrate({ backend, repo: REPO, task: task(i) });
        const used = process.cpuUsage(cpu);
        sqliteCpu.push((used.user + used.system) / 1000);
        if (result.status !== 'ok') throw new Error(`hydrate on SQLite: ${result.status}`);
        included += result.receipt.items.filter((item) => item.included).length;
      },
      { iterations, warmup: 5 },
    );
    const sqliteSequential = await timeRepeated((i) => sequentialReads(backend, task(i).description, task(i).user), {
      iterations,
      warmup: 5,
    });
    await sqlite.close();

    log('hydrate: through a store with 25 ms per request');
    const inner = createInMemoryStore();
    await load(createDocumentTaskRecordBackend(inner), records);
    const slow = withLatency(inner, LATENCY_MS);
    const slowBackend = createDocumentTaskRecordBackend(slow.store);
    const slowColdStart = process.hrtime.bigint();
    slow.counter.roundTrips = 0;
    slow.counter.requests = 0;
    const slowFirst = await hydrate({ backend: slowBackend, repo: REPO, task: task(0) });
    if (slowFirst.status !== 'ok') throw new Error(`hydrate through the slow store: ${slowFirst.status}`);
    const slowColdMs = elapsedMs(slowColdStart);
    const coldTrips = { roundTrips: slow.counter.roundTrips, requests: slow.counter.requests };
    const tripSamples = [];
    const requestSamples = [];
    const slowCpu = [];
    const parallel = await timeRepeated(
      async (i) => {
        slow.counter.roundTrips = 0;
        slow.counter.requests = 0;
        const cpu = process.cpuUsage();
        const result = await hydrate({ backend: slowBackend, repo: REPO, task: task(i) });
        const used = process.cpuUsage(cpu);
        slowCpu.push((used.user + used.system) / 1000);
        if (result.status !== 'ok') throw new Error(`hydrate through the slow store: ${result.status}`);
        tripSamples.push(slow.counter.roundTrips);
        requestSamples.push(slow.counter.requests);
      },
      { iterations: latencyIterations, warmup: 2 },
    );
    const sequential = await timeRepeated((i) => sequentialReads(slowBackend, task(i).description, task(i).user), {
      iterations: latencyIterations,
      warmup: 2,
    });

    const sqliteStats = summarize(sqliteSamples);
    const parallelStats = summarize(parallel);
    const rows = [
      {
        kind: 'repomem',
        label: 'SQLite: `hydrate` (warm backend)',
        stats: sqliteStats,
        baseline: 'SQLite: the same reads one after another',
      },
      { kind: 'baseline', label: 'SQLite: the same reads one after another', stats: summarize(sqliteSequential) },
      {
        kind: 'repomem',
        label: `${LATENCY_MS} ms per request: \`hydrate\` (warm backend)`,
        stats: parallelStats,
        baseline: `${LATENCY_MS} ms per request: the same reads one after another`,
      },
      {
        kind: 'baseline',
        label: `${LATENCY_MS} ms per request: the same reads one after another`,
        stats: summarize(sequential),
      },
    ];
    const reference = [
      {
        kind: 'reference',
        label: 'SQLite: CPU time of one warm `hydrate` (process.cpuUsage)',
        stats: summarize(sqliteCpu),
      },
      {
        kind: 'reference',
        label: `${LATENCY_MS} ms per request: CPU time of one warm \`hydrate\``,
        stats: summarize(slowCpu),
      },
      {
        kind: 'reference',
        label: 'SQLite: first `hydrate` on a fresh backend (reads and parses every record)',
        stats: summarize([coldMs]),
      },
      {
        kind: 'reference',
        label: `${LATENCY_MS} ms per request: first \`hydrate\` on a fresh backend`,
        stats: summarize([slowColdMs]),
      },
      { kind: 'reference', label: 'load: 10,000 records, 20 `apply` of 500 (SQLite)', stats: summarize([loadMs]) },
    ];
    const roundTripGoalMs = GOAL_ROUND_TRIPS * LATENCY_MS;
    return {
      id: 'hydrate',
      title: `Task memory: \`hydrate\` over ${records.length.toLocaleString('en-US')} records of mixed kinds`,
      intro:
        `One repository holding ${Object.entries(MIX)
          .map(([kind, count]) => `${count.toLocaleString('en-US')} ${kind}`)
          .join(
            ', ',
          )} records (text from a ${VOCABULARY_SIZE.toLocaleString('en-US')}-word vocabulary with Zipf frequencies, generated deterministically), kept ` +
        "by core's document task-record backend (`createDocumentTaskRecordBackend`, JSON documents under " +
        '`.repomem/tasks/`) on a real SQLite file, then on the in-memory store behind a wrapper that answers ' +
        `every request after ${LATENCY_MS} ms. Each call hydrates a different task description (8 words) for one ` +
        `of ${USERS} users, with the default budget (2,000 tokens). "Warm" = the backend has parsed the records ` +
        'before (a long-lived process); each call still lists every kind, so changes by other processes are seen. ' +
        'The sequential baseline does the same backend reads one after another.',
      tables: [
        { caption: 'hydrate, parallel sources vs the same reads in sequence', rows },
        { caption: 'CPU time, cold calls and load', rows: reference },
      ],
      goals: [
        {
          goal: `hydrate over 10,000 records on SQLite: p50 < ${GOAL_SQLITE_MS} ms`,
          measured: `p50 ${formatMs(sqliteStats.p50)} ms, p95 ${formatMs(sqliteStats.p95)} ms`,
          met: sqliteStats.p50 < GOAL_SQLITE_MS,
        },
        {
          goal: `hydrate through a store with ${LATENCY_MS} ms per request: wall time < ${GOAL_ROUND_TRIPS} round trips (${roundTripGoalMs} ms)`,
          measured: `p50 ${formatMs(parallelStats.p50)} ms (${summarize(tripSamples).p50} round trip(s), ${summarize(requestSamples).p50} requests)`,
          met: parallelStats.p50 < roundTripGoalMs,
        },
      ],
      notes: [
        `Round trips counted by the latency wrapper (requests started while another is in flight share one): ` +
          `warm calls p50 ${summarize(tripSamples).p50} round trip(s) and ${summarize(requestSamples).p50} requests; ` +
          `the first call on a fresh backend ${coldTrips.roundTrips} round trips and ${coldTrips.requests} requests ` +
          '(one `list` per kind, then the reads of what it has not parsed yet, in parallel).',
        `Included memories per call: ${(included / iterations).toFixed(1)} on average (budget-bound).`,
        'Wall times include waiting for the CPU: on a shared machine (see the load average) they exceed the CPU ' +
          'time of the call, which the reference rows give; the round-trip count is independent of load.',
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
