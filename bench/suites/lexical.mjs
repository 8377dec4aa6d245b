// Why: the issue "Retrieval that understands" sets lexical goals for a warm query over 20,000
// documents (p50 < 10 ms on SQLite, < 30 ms on PostgreSQL): what an agent's long-lived process
// (the memory facade, the MCP server) pays per query with one `SearchEngine`. This measures,
// on the same generated tree in one run, per store: the warm query, the first query, the queries
// that complete the engine's index, a query right after a write, the one-shot `searchStore`
// (no engine: candidates read once, what the `repomem search` process does) and core's engine
// over the in-memory store as the floor. Results of the warm and one-shot paths are compared
// query by query.
//
//   node bench/suites/lexical.mjs                 20,000 JSON mirror files (default)
//   node bench/suites/lexical.mjs --files=2000    a smaller tree
//   node bench/suites/lexical.mjs --no-postgres   SQLite and in-memory only
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInMemoryStore, SearchEngine, searchStore } from '@repomem/core';
import { openPostgresStore } from '../../packages/store-postgres/dist/index.js';
import { openSqliteStore } from '../../packages/store-sqlite/dist/index.js';
import { elapsedMs, summarize, timeRepeated } from '../lib/measure.mjs';
import { startBenchServer } from '../lib/postgres-server.mjs';
import { GENERATED_QUERIES } from '../lib/queries.mjs';
import { formatMs, timingTable } from '../lib/table.mjs';
import { prepareGeneratedTree } from '../lib/trees.mjs';

const encoder = new TextEncoder();
/** Inflected forms of the warm queries' words (plural, -ing, -ed, -ion), searched after them. */
const INFLECTED_QUERIES = ['threads keys', 'merging queued reviews', 'cached workflows', 'retried rate limits'];
const QUERIES = [...GENERATED_QUERIES, ...INFLECTED_QUERIES];

async function time(work) {
  const start = process.hrtime.bigint();
  const result = await work();
  return { ms: elapsedMs(start), result };
}

async function load(store, documents) {
  const entries = Object.entries(documents);
  for (let start = 0; start < entries.length; start += 2000) {
    const batch = entries.slice(start, start + 2000).map(([path, content]) => ({ kind: 'put', path, content }));
    const result = await store.write(batch);
    if (result.status !== 'committed') throw new Error(`loading the tree: ${result.status}`);
  }
}

/** Every measurement for one store holding the tree. */
async function measureStore(name, store, quick) {
  const engine = new SearchEngine();
  const first = await time(() => searchStore(store, QUERIES[0], { engine }));
  // The queries that feed the index until it is complete (one listing once it holds half).
  const completing = [];
  for (let round = 0; round < 2; round++) {
    for (const query of QUERIES) completing.push((await time(() => searchStore(store, query, { engine }))).ms);
  }
  const warm = await timeRepeated((i) => searchStore(store, QUERIES[i % QUERIES.length], { engine }), {
    iterations: quick ? 42 : 210,
  });
  let differ = 0;
  const oneShot = [];
  for (let i = 0; i < (quick ? 7 : 14); i++) {
    const query = QUERIES[i % QUERIES.length];
    const { ms, result } = await time(() => searchStore(store, query));
    oneShot.push(ms);
    const again = await searchStore(store, query, { engine });
    if (JSON.stringify(again) !== JSON.stringify(result)) differ++;
  }
  const afterWrite = [];
  for (let i = 0; i < 5; i++) {
    const bullet = `- a bullet about quokka migrations number ${i}\n`;
    await store.write([{ kind: 'put', path: 'MEMORY.md', content: encoder.encode(bullet) }]);
    afterWrite.push((await time(() => searchStore(store, QUERIES[i % QUERIES.length], { engine }))).ms);
  }
  const label = (what) => `${name}: ${what}`;
  const warmLabel = label('warm `searchStore(store, query, { engine })`');
  return {
    differ,
    checked: oneShot.length,
    warm: summarize(warm),
    rows: [
      {
        label: warmLabel,
        kind: 'repomem',
        stats: summarize(warm),
        baseline: label('one-shot `searchStore(store, query)`'),
      },
      { label: label('one-shot `searchStore(store, query)`'), kind: 'baseline', stats: summarize(oneShot) },
      {
        label: label('first query of a new engine (candidates only)'),
        kind: 'reference',
        stats: summarize([first.ms]),
      },
      {
        label: label(`the next ${completing.length} queries (they complete the index)`),
        kind: 'reference',
        stats: summarize(completing),
      },
      { label: label('query right after a one-document write'), kind: 'reference', stats: summarize(afterWrite) },
    ],
  };
}

/** Run the suite; returns a report section (lib/report.mjs format). */
export async function runLexical({ quick = false, files = 20_000, postgres = true, log = console.log } = {}) {
  const tree = await prepareGeneratedTree(files);
  const title = `Lexical search, one pipeline: warm queries over ${tree.files.toLocaleString('en-US')} documents on SQLite and PostgreSQL`;
  const dir = mkdtempSync(join(tmpdir(), 'repomem-bench-lexical-'));
  const tables = [];
  const notes = [];
  const goals = [];
  let server;
  try {
    const memory = createInMemoryStore({ initialDocuments: tree.documents });
    const memoryEngine = new SearchEngine();
    for (const query of QUERIES) await memoryEngine.search(memory, query);
    const floor = await timeRepeated((i) => memoryEngine.search(memory, QUERIES[i % QUERIES.length]), {
      iterations: quick ? 42 : 210,
    });
    const floorRow = {
      label: 'core `SearchEngine.search`, in-memory store, warm (floor)',
      kind: 'reference',
      stats: summarize(floor),
    };

    const sqlite = await openSqliteStore({ path: join(dir, 'lexical.db'), repo: 'bench/lexical' });
    await load(sqlite, tree.documents);
    log(`lexical: SQLite loaded with ${tree.files} files`);
    const sqliteResult = await measureStore('sqlite', sqlite, quick);
    await sqlite.close();
    tables.push({ caption: `SQLite (FTS5 candidates), ${tree.label}`, rows: [...sqliteResult.rows, floorRow] });
    notes.push(
      `sqlite: warm and one-shot answers equal on ${sqliteResult.checked - sqliteResult.differ} of ${sqliteResult.checked} queries checked.`,
    );
    goals.push({
      goal: `warm lexical query over ${tree.files.toLocaleString('en-US')} documents on SQLite p50 < 10 ms`,
      measured: `p50 ${formatMs(sqliteResult.warm.p50)} ms, p95 ${formatMs(sqliteResult.warm.p95)} ms`,
      met: sqliteResult.warm.p50 < 10,
    });

    if (postgres) {
      server = await startBenchServer();
      if (server.missing) {
        notes.push(`PostgreSQL skipped: ${server.missing}`);
      } else {
        const pg = await openPostgresStore({
          connectionString: server.url,
          schema: 'bench_lexical',
          repo: 'bench/lexical',
        });
        await load(pg, tree.documents);
        log(`lexical: PostgreSQL ${server.version} loaded with ${tree.files} files`);
        const pgResult = await measureStore('postgres', pg, quick);
        await pg.close();
        tables.push({
          caption: `PostgreSQL ${server.version} (tsvector candidates), ${tree.label}`,
          rows: [...pgResult.rows, floorRow],
        });
        notes.push(
          `postgres: warm and one-shot answers equal on ${pgResult.checked - pgResult.differ} of ${pgResult.checked} queries checked.`,
        );
        goals.push({
          goal: `warm lexical query over ${tree.files.toLocaleString('en-US')} documents on PostgreSQL p50 < 30 ms`,
          measured: `p50 ${formatMs(pgResult.warm.p50)} ms, p95 ${formatMs(pgResult.warm.p95)} ms`,
          met: pgResult.warm.p50 < 30,
        });
      }
    }
  } finally {
    await server?.stop?.();
    rmSync(dir, { recursive: true, force: true });
  }
  notes.push(
    `Queries rotate: ${QUERIES.map((query) => `\`${query}\``).join(', ')} (the last ${INFLECTED_QUERIES.length} inflect the others' words).`,
  );
  const intro =
    'Per store, on the same tree: one `SearchEngine` kept across queries (as the memory facade and the MCP server keep it), ' +
    'its first query, the queries that complete its index, a query right after a one-document write, and the one-shot ' +
    "`searchStore` without an engine (what a `repomem search` process does), next to core's engine over the in-memory store.";
  return { title, intro, tables, goals, notes };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const filesArg = args.find((arg) => arg.startsWith('--files='));
  const section = await runLexical({
    quick: args.includes('--quick'),
    files: filesArg === undefined ? 20_000 : Number(filesArg.slice('--files='.length)),
    postgres: !args.includes('--no-postgres'),
  });
  console.log(`## ${section.title}\n`);
  for (const table of section.tables) console.log(`**${table.caption}**\n\n${timingTable(table.rows)}\n`);
  for (const goal of section.goals)
    console.log(`- goal: ${goal.goal}: ${goal.measured} (${goal.met ? 'met' : 'NOT met'})`);
  for (const note of section.notes) console.log(`- ${note}`);
  process.exit(0);
}
