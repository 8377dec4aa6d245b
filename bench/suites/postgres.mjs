// Why: a team choosing the PostgreSQL store over the embedded SQLite file needs both measured in
// the same run on the same data: verified memory (`recent 50`, `store`, `byPath`) at 100,000
// memories across 50 repositories, one bullet add (round trips and wall time), search p50 over
// 20,000 documents, and the throughput of 8 concurrent writer processes. The server is started
// by the benchmark (postgres-server.mjs) with PostgreSQL's default durability (fsync on).
//
//   node bench/suites/postgres.mjs                       full size (100,000 memories, 20,000 documents)
//   node bench/suites/postgres.mjs --quick               fewer iterations
//   node bench/suites/postgres.mjs --memories=10000 --documents=2000 --writes=20
//                                                 a smaller quick run
//
// `runPostgres(options)` is the suite for bench/run.mjs (section format of lib/report.mjs).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openMemory, searchStore } from '@repomem/core';
import { createSeededRandom, runNodeWorkers } from '@repomem/core/testing';
import { openPostgresRecordBackend, openPostgresStore } from '../../packages/store-postgres/dist/index.js';
import pg from '../../packages/store-postgres/node_modules/pg/lib/index.js';
import { openSqliteRecordBackend, openSqliteStore } from '../../packages/store-sqlite/dist/index.js';
import { generateSourceTree } from '../lib/citation-repository.mjs';
import { elapsedMs, summarize, timeRepeated } from '../lib/measure.mjs';
import { startBenchServer } from '../lib/postgres-server.mjs';
import { formatMs, markdownTable } from '../lib/table.mjs';
import { BENCH_NOW, createdEvent, createMemoryGenerator, isLive, repoName } from '../lib/verified-corpus.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPOS = 50;
const WRITERS = 8;
const encoder = new TextEncoder();

function plan({ quick, memories, documents, writes }) {
  return {
    memories: memories ?? 100_000,
    documents: documents ?? 20_000,
    writes: writes ?? (quick ? 20 : 50),
    iterations: quick ? 30 : 200,
    searches: quick ? 30 : 100,
    bullets: quick ? 20 : 100,
  };
}

/** A pool that counts the statements sent (each one round trip with `pg`): what one bullet add costs. */
function countingPool(url) {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => undefined);
  const counter = { statements: 0 };
  return {
    counter,
    pool: {
      connect: async () => {
        const client = await pool.connect();
        return {
          query: (config) => {
            counter.statements += 1;
            return client.query(config);
          },
          release: (error) => client.release(error),
          on: (event, listener) => client.on(event, listener),
          removeListener: (event, listener) => client.removeListener(event, listener),
        };
      },
      end: () => pool.end(),
    },
  };
}

/** Load `memories` generated records across REPOS repositories, one `apply` per chunk. */
async function loadMemories(backend, generator, memories, log, label) {
  const perRepo = Math.ceil(memories / REPOS);
  const samples = [];
  const started = process.hrtime.bigint();
  for (let r = 0; r < REPOS; r++) {
    const records = Array.from({ length: perRepo }, () => generator.record(repoName(r)));
    for (let start = 0; start < records.length; start += 500) {
      const chunk = records.slice(start, start + 500);
      const result = await backend.apply(
        chunk.map((record) => ({ record, expectedRevision: null })),
        chunk.map(createdEvent),
      );
      if (!result.ok) throw new Error(`${label}: loading conflicted`);
    }
    const live = records.filter((record) => isLive(record, BENCH_NOW));
    for (let k = 0; k < 4 && live.length > 0; k++) {
      const record = live[(k * 97) % live.length];
      samples.push({ repo: record.repo, path: record.citations[0].path });
    }
    if (r % 10 === 9) log?.(`  ${label}: ${((r + 1) * perRepo).toLocaleString('en-US')} memories loaded`);
  }
  return { loadMs: elapsedMs(started), samples };
}

async function verifiedMemory(backend, label, p, log) {
  const generator = createMemoryGenerator({ tree: generateSourceTree({ files: 200 }) });
  const { loadMs, samples } = await loadMemories(backend, generator, p.memories, log, label);
  const liveAt = new Date(BENCH_NOW).toISOString();
  const recent = await timeRepeated(
    (i) => backend.recent({ repo: repoName(i % REPOS), statuses: ['active'], liveAt, limit: 50 }),
    { iterations: p.iterations, warmup: 10 },
  );
  const byPath = await timeRepeated(
    (i) => {
      const sample = samples[i % samples.length];
      return backend.byPath({ repo: sample.repo, path: sample.path, statuses: ['active'], liveAt, limit: 50 });
    },
    { iterations: p.iterations, warmup: 10 },
  );
  const store = await timeRepeated(
    async (i) => {
      const record = generator.record(repoName(i % REPOS));
      const result = await backend.apply([{ record, expectedRevision: null }], [createdEvent(record)]);
      if (!result.ok) throw new Error(`${label}: store conflicted`);
    },
    { iterations: p.iterations, warmup: 5 },
  );
  return { loadMs, recent: summarize(recent), byPath: summarize(byPath), store: summarize(store) };
}

/** Deterministic markdown documents over a Zipf vocabulary, and queries drawn from it. */
function documentCorpus(count) {
  const random = createSeededRandom('repomem-postgres-bench');
  const generator = createMemoryGenerator({ tree: generateSourceTree({ files: 50 }), seed: 'repomem-postgres-docs' });
  const words = generator.words;
  const zipf = () => words[Math.min(words.length - 1, Math.floor(words.length * random.next() ** 3))];
  const line = () => `- ${Array.from({ length: random.int(6, 16) }, zipf).join(' ')}`;
  const documents = Array.from({ length: count }, (_, i) => ({
    path: `notes/${String(Math.floor(i / 500)).padStart(3, '0')}/note-${i}.md`,
    text: `# Note ${i}\n\n${Array.from({ length: random.int(5, 30) }, line).join('\n')}\n`,
  }));
  const queries = Array.from({ length: 50 }, (_, i) => (i % 3 === 0 ? zipf() : `${zipf()} ${zipf()}`));
  return { documents, queries };
}

async function searchBench(store, corpus, p, label, log) {
  const started = process.hrtime.bigint();
  for (let start = 0; start < corpus.documents.length; start += 500) {
    const batch = corpus.documents.slice(start, start + 500);
    const result = await store.write(
      batch.map((document) => ({ kind: 'put', path: document.path, content: encoder.encode(document.text) })),
    );
    if (result.status !== 'committed') throw new Error(`${label}: loading documents conflicted`);
  }
  const loadMs = elapsedMs(started);
  log?.(`  ${label}: ${corpus.documents.length.toLocaleString('en-US')} documents loaded`);
  const samples = await timeRepeated(
    (i) => searchStore(store, corpus.queries[i % corpus.queries.length], { limit: 10 }),
    {
      iterations: p.searches,
      warmup: 5,
    },
  );
  return { loadMs, search: summarize(samples) };
}

async function bulletAdd(store, p) {
  const memory = openMemory({ store });
  for (let i = 0; i < 100; i++) await memory.add({ file: 'MEMORY.md', section: 'Notes', text: `seed bullet ${i}` });
  const samples = await timeRepeated(
    async (i) => {
      const outcome = await memory.add({ file: 'MEMORY.md', section: 'Notes', text: `timed bullet ${i}` });
      if (outcome.kind !== 'added') throw new Error(`bullet add: ${outcome.kind}`);
    },
    { iterations: p.bullets, warmup: 5 },
  );
  return summarize(samples);
}

async function writersBench(spec, p) {
  const core = pathToFileURL(
    join(dirname(createRequire(import.meta.url).resolve('@repomem/core/package.json')), 'dist', 'index.js'),
  ).href;
  const started = process.hrtime.bigint();
  const results = await runNodeWorkers(
    join(HERE, '..', 'lib', 'postgres-writer.mjs'),
    (worker) => [core, '', spec, String(worker), String(p.writes)],
    { count: WRITERS, nodeArgs: ['--no-warnings'] },
  );
  const wallMs = elapsedMs(started);
  for (const result of results) if (result.code !== 0) throw new Error(`writer failed: ${result.output}`);
  const writes = WRITERS * p.writes;
  return { writes, wallMs, perSecond: (writes / wallMs) * 1000 };
}

/** The benchmark section (see lib/report.mjs); `{ skipped }` without a server. */
export async function runPostgres(options = {}) {
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  const p = plan(options);
  const server = await startBenchServer();
  const title = `PostgreSQL store vs SQLite (${p.memories.toLocaleString('en-US')} memories across ${REPOS} repositories, ${p.documents.toLocaleString('en-US')} documents)`;
  if (server.missing) {
    return { title, intro: '', tables: [], goals: [], notes: [], skipped: [server.missing] };
  }
  const dir = mkdtempSync(join(tmpdir(), 'repomem-bench-postgres-'));
  try {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('DROP SCHEMA IF EXISTS bench_records, bench_docs, bench_bullet, bench_writers CASCADE');
    await admin.end();
    const url = (schema) => `${server.url}?schema=${schema}`;

    log('postgres: verified memory');
    const pgRecords = await openPostgresRecordBackend({ connectionString: server.url, schema: 'bench_records' });
    const pgVerified = await verifiedMemory(pgRecords, 'postgres', p, log);
    await pgRecords.close();
    log('sqlite: verified memory');
    const sqliteRecords = openSqliteRecordBackend({ path: join(dir, 'records.db') });
    const sqliteVerified = await verifiedMemory(sqliteRecords, 'sqlite', p, log);
    await sqliteRecords.close();

    log('one bullet add');
    const counting = countingPool(server.url);
    const pgBulletStore = await openPostgresStore({
      pool: counting.pool,
      schema: 'bench_bullet',
      repo: 'bench/bullet',
    });
    const pgBullet = await bulletAdd(pgBulletStore, p);
    const before = counting.counter.statements;
    await openMemory({ store: pgBulletStore }).add({ file: 'MEMORY.md', section: 'Notes', text: 'counted bullet' });
    const roundTrips = counting.counter.statements - before;
    await pgBulletStore.close();
    await counting.pool.end();
    const sqliteBulletStore = await openSqliteStore({ path: join(dir, 'bullet.db'), repo: 'bench/bullet' });
    const sqliteBullet = await bulletAdd(sqliteBulletStore, p);
    await sqliteBulletStore.close();

    log('search');
    const corpus = documentCorpus(p.documents);
    const pgDocs = await openPostgresStore({ connectionString: server.url, schema: 'bench_docs', repo: 'bench/docs' });
    const pgSearch = await searchBench(pgDocs, corpus, p, 'postgres', log);
    await pgDocs.close();
    const sqliteDocs = await openSqliteStore({ path: join(dir, 'docs.db'), repo: 'bench/docs' });
    const sqliteSearch = await searchBench(sqliteDocs, corpus, p, 'sqlite', log);
    await sqliteDocs.close();

    log(`${WRITERS} concurrent writers`);
    const pgWriters = await writersBench(url('bench_writers'), p);
    const sqliteWriters = await writersBench(`sqlite:${join(dir, 'writers.db')}`, p);

    const rows = [
      {
        label: 'postgres: verified `recent(repo, 50)` (active, live)',
        kind: 'repomem',
        stats: pgVerified.recent,
        baseline: 'sqlite: verified `recent(repo, 50)` (active, live)',
      },
      { label: 'sqlite: verified `recent(repo, 50)` (active, live)', kind: 'baseline', stats: sqliteVerified.recent },
      {
        label: 'postgres: verified `store` (one record + its event)',
        kind: 'repomem',
        stats: pgVerified.store,
        baseline: 'sqlite: verified `store` (one record + its event)',
      },
      { label: 'sqlite: verified `store` (one record + its event)', kind: 'baseline', stats: sqliteVerified.store },
      {
        label: 'postgres: verified `byPath(repo, path, 50)`',
        kind: 'repomem',
        stats: pgVerified.byPath,
        baseline: 'sqlite: verified `byPath(repo, path, 50)`',
      },
      { label: 'sqlite: verified `byPath(repo, path, 50)`', kind: 'baseline', stats: sqliteVerified.byPath },
      {
        label: 'postgres: one bullet add (`memory.add`, 100-bullet MEMORY.md)',
        kind: 'repomem',
        stats: pgBullet,
        baseline: 'sqlite: one bullet add (`memory.add`, 100-bullet MEMORY.md)',
      },
      { label: 'sqlite: one bullet add (`memory.add`, 100-bullet MEMORY.md)', kind: 'baseline', stats: sqliteBullet },
      {
        label: `postgres: \`searchStore\` over ${p.documents.toLocaleString('en-US')} documents (tsvector candidates)`,
        kind: 'repomem',
        stats: pgSearch.search,
        baseline: `sqlite: \`searchStore\` over ${p.documents.toLocaleString('en-US')} documents (FTS5 candidates)`,
      },
      {
        label: `sqlite: \`searchStore\` over ${p.documents.toLocaleString('en-US')} documents (FTS5 candidates)`,
        kind: 'baseline',
        stats: sqliteSearch.search,
      },
    ];
    const throughput = markdownTable(
      ['store', 'writers', 'bullet adds', 'wall time', 'adds per second'],
      [
        ['postgres', WRITERS, pgWriters.writes, formatMs(pgWriters.wallMs), pgWriters.perSecond.toFixed(0)],
        ['sqlite', WRITERS, sqliteWriters.writes, formatMs(sqliteWriters.wallMs), sqliteWriters.perSecond.toFixed(0)],
      ],
    );
    const loads = markdownTable(
      ['what', 'postgres', 'sqlite'],
      [
        [
          `load ${p.memories.toLocaleString('en-US')} memories (500 per apply)`,
          formatMs(pgVerified.loadMs),
          formatMs(sqliteVerified.loadMs),
        ],
        [
          `load ${p.documents.toLocaleString('en-US')} documents (500 per write)`,
          formatMs(pgSearch.loadMs),
          formatMs(sqliteSearch.loadMs),
        ],
        ['statements (round trips) of one bullet add', String(roundTrips), '(in-process file)'],
      ],
    );
    return {
      title,
      intro:
        `Both stores in one run on the same generated data: ${server.version} started by the benchmark on 127.0.0.1 ` +
        '(default settings, fsync on) and a SQLite file (WAL, synchronous=FULL) in a temporary directory.',
      tables: [
        { caption: 'latency, PostgreSQL against SQLite', rows },
        {
          caption: `throughput of ${WRITERS} concurrent writer processes (each its own repository, ${p.writes} bullet adds each)`,
          markdown: throughput,
        },
        { caption: 'loading and round trips', markdown: loads },
      ],
      goals: [],
      notes: [
        'Verified-memory rows are backend calls (`recent`, `byPath` with active/live filters and limit 50; `store` = one `apply` of a record and its `created` event).',
        "A bullet add is `get` + `write` through core's facade: on PostgreSQL each is one transaction (BEGIN with SET LOCAL, statements, COMMIT with the write receipt).",
        `Writers are separate node processes opening the store from a spec; on PostgreSQL each repository has its own lock, on SQLite all share the file's write lock.`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = { quick: process.argv.includes('--quick') };
  for (const arg of process.argv.slice(2)) {
    const match = /^--(memories|documents|writes)=(\d[\d_]*)$/.exec(arg);
    if (match) options[match[1]] = Number(match[2].replace(/_/g, ''));
  }
  const { renderSection } = await import('../lib/report.mjs');
  const section = await runPostgres(options);
  process.stdout.write(`${renderSection(section)}\n`);
}
