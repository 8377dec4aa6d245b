// Why: the SQLite store answers document search natively with FTS5 (bm25 ranking, snippets) while
// core's SearchEngine builds its own in-memory index; an embedder choosing between them needs both
// on the same trees and queries in the same run: load cost, warm query latency, one
// compare-and-swap put, and how far their top results agree.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInMemoryStore, SearchEngine, searchStore } from '@repomem/core';
import { openSqliteStore } from '../../packages/store-sqlite/dist/index.js';
import { elapsedMs, summarize, timeRepeated } from '../lib/measure.mjs';
import { queriesFor } from '../lib/queries.mjs';
import { formatMs } from '../lib/table.mjs';

const WARM_GOAL_MS = 10;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function plan(tree, quick) {
  const big = tree.name !== 'fixture';
  return { rounds: quick ? 5 : big ? 20 : 50, puts: quick ? 20 : 200 };
}

const topPaths = (response) => response.results.map((hit) => hit.path);

/** Compare-and-swap append of one bullet to MEMORY.md (get, edit, write with the version read). */
async function casPut(store, i) {
  const current = await store.get('MEMORY.md');
  const before = current === undefined ? '' : decoder.decode(current.content);
  const result = await store.write([
    {
      kind: 'put',
      path: 'MEMORY.md',
      content: encoder.encode(`${before}- bench bullet ${i}\n`),
      expectedVersion: current?.version ?? null,
    },
  ]);
  if (result.status !== 'committed') throw new Error(`put of MEMORY.md was ${result.status} in a single-writer bench`);
}

async function benchTree(tree, quick, log) {
  const p = plan(tree, quick);
  const queries = queriesFor(tree);
  const query = (i) => queries[i % queries.length];
  const dir = mkdtempSync(join(tmpdir(), 'repomem-sqlite-search-bench-'));
  const file = join(dir, 'memory.db');
  try {
    let start = process.hrtime.bigint();
    const sqlite = await openSqliteStore({ path: file, repo: 'bench/tree' });
    const loaded = await sqlite.write(
      Object.entries(tree.documents).map(([path, content]) => ({ kind: 'put', path, content })),
    );
    if (loaded.status !== 'committed') throw new Error(`loading ${tree.label} into SQLite: ${loaded.status}`);
    const loadMs = elapsedMs(start);
    start = process.hrtime.bigint();
    await searchStore(sqlite, query(0));
    const firstFtsMs = elapsedMs(start);
    log(`sqlite-search: ${tree.label}: loaded into SQLite in ${formatMs(loadMs)} ms`);

    start = process.hrtime.bigint();
    const memory = createInMemoryStore({ initialDocuments: tree.documents });
    const engine = new SearchEngine();
    await engine.search(memory, query(0));
    const coreBuildMs = elapsedMs(start);

    const iterations = p.rounds * queries.length;
    // Warm, as the memory facade searches: one engine keeps the candidates' analyses by version.
    const sqliteEngine = new SearchEngine();
    const fts = await timeRepeated((i) => searchStore(sqlite, query(i), { engine: sqliteEngine }), {
      iterations,
      warmup: queries.length,
    });
    const core = await timeRepeated((i) => engine.search(memory, query(i)), { iterations, warmup: queries.length });
    let overlap = 0;
    let compared = 0;
    for (const q of queries) {
      const ours = topPaths(await searchStore(sqlite, q));
      const theirs = topPaths(await engine.search(memory, q));
      overlap += ours.filter((path) => theirs.includes(path)).length;
      compared += theirs.length;
    }
    const sqlitePut = await timeRepeated((i) => casPut(sqlite, i), { iterations: p.puts, warmup: 5 });
    const memoryPut = await timeRepeated((i) => casPut(memory, i), { iterations: p.puts, warmup: 5 });
    await sqlite.close();
    await memory.close();
    const sizeMb = statSync(file).size / 1048576; // closing checkpoints the WAL into the file

    const coreLabel = 'core `SearchEngine.search`, in-memory store, warm (baseline)';
    const rows = [
      {
        label: 'sqlite FTS5 candidates + core ranking `searchStore(store, query, { engine })`, warm',
        kind: 'repomem',
        stats: summarize(fts),
        baseline: coreLabel,
      },
      { label: coreLabel, kind: 'baseline', stats: summarize(core) },
      {
        label: 'sqlite: compare-and-swap put of MEMORY.md (get + write, synchronous FULL)',
        kind: 'repomem',
        stats: summarize(sqlitePut),
      },
      {
        label: 'in-memory store: compare-and-swap put of MEMORY.md (nothing on disk)',
        kind: 'reference',
        stats: summarize(memoryPut),
      },
      {
        label: `sqlite: load every document in one write batch (FTS5 included), ${sizeMb.toFixed(0)} MiB file`,
        kind: 'reference',
        stats: summarize([loadMs]),
      },
      { label: 'sqlite: first query after load', kind: 'reference', stats: summarize([firstFtsMs]) },
      {
        label: 'core: in-memory store creation + first query (builds the index)',
        kind: 'reference',
        stats: summarize([coreBuildMs]),
      },
    ];
    return {
      table: {
        caption: `${tree.label}: ${tree.files.toLocaleString('en-US')} files, ${(tree.bytes / 1048576).toFixed(1)} MiB; ${queries.length} rotating queries (the warm suite's)`,
        rows,
      },
      overlap: `${tree.label}: ${overlap} of ${compared} top-result paths of core's engine are also in SQLite's top results (same limit; the rankings differ: bm25 vs core's scorer).`,
      fts: rows[0].stats,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Run the SQLite documents search benchmark over each prepared tree; returns a report section. */
export async function runSqliteSearch({ trees, quick, log }) {
  const tables = [];
  const goals = [];
  const notes = [];
  for (const tree of trees) {
    const result = await benchTree(tree, quick, log);
    tables.push(result.table);
    notes.push(result.overlap);
    if (tree.name !== 'fixture') {
      goals.push({
        goal: `sqlite FTS5 document query over ${tree.files.toLocaleString('en-US')} files p50 < ${WARM_GOAL_MS} ms (the warm library goal)`,
        measured: `p50 ${formatMs(result.fts.p50)} ms, p95 ${formatMs(result.fts.p95)} ms`,
        met: result.fts.p50 < WARM_GOAL_MS,
      });
    }
  }
  const skipped = trees.some((tree) => tree.name === 'fixture') ? [] : ['fixture tree absent: generated tree only'];
  notes.push(
    'Both stores are loaded from the same bytes (`tree.documents`). SQLite keeps its FTS5 index in the file and ' +
      'updates it in the write transaction, so it has no index build after a restart; core builds its index on ' +
      'the first query of each process.',
  );
  return {
    id: 'sqlite-search',
    title: 'SQLite store: FTS5 document search vs core SearchEngine',
    intro:
      '`openSqliteStore({ path, repo })` on a real file in a temp directory, loaded with every document of the ' +
      'tree in one write batch, then `searchStore(store, query)` (FTS5 names the candidates, core ranks them and builds the snippets) with the queries rotating, next ' +
      "to core's `SearchEngine` over the in-memory store holding the same documents, in the same run. One " +
      'untimed pass over the query set first for each.',
    tables,
    ...(skipped.length > 0 ? { skipped } : {}),
    goals,
    notes,
  };
}
