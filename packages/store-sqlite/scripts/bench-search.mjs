// Why: measure the SQLite store next to core's engine in one run, over the same 20,000-file
// generated tree and the same queries as `pnpm bench`: loading the tree, a compare-and-swap put
// of one document (p50), and warm search (p50) through FTS5 vs core's SearchEngine over the
// in-memory store. No assertions; it prints figures for bench/RESULTS.md.
// Usage: node scripts/bench-search.mjs [jsonFiles=20000] (needs `pnpm --filter @repomem/store-sqlite build`)
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInMemoryStore, SearchEngine } from '@repomem/core';
import { generateMemoryCorpus } from '@repomem/core/testing';
import { elapsedMs, summarize, timeRepeated } from '../../../bench/lib/measure.mjs';
import { GENERATED_QUERIES } from '../../../bench/lib/queries.mjs';
import { openSqliteStore } from '../dist/index.js';

const jsonFiles = Number(process.argv[2] ?? 20_000);
const encoder = new TextEncoder();
const fmt = (ms) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
const row = (label, stats) =>
  `| ${label} | ${stats.n} | ${fmt(stats.p50)} | ${fmt(stats.p95)} | ${fmt(stats.min)} | ${fmt(stats.max)} |`;

const files = generateMemoryCorpus({ seed: 'repomem-bench', jsonFiles });
const bytes = files.reduce((sum, file) => sum + Buffer.byteLength(file.content), 0);
console.log(`corpus: ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB (seed repomem-bench, ${jsonFiles} JSON)`);

const dir = mkdtempSync(join(tmpdir(), 'repomem-sqlite-bench-'));
const file = join(dir, 'memory.db');
try {
  // Load: one batch (one transaction) of every file, FTS5 index included.
  let start = process.hrtime.bigint();
  const sqlite = await openSqliteStore({ path: file, repo: 'acme/rocket' });
  const loaded = await sqlite.write(
    files.map((f) => ({ kind: 'put', path: f.path, content: encoder.encode(f.content) })),
  );
  if (loaded.status !== 'committed') throw new Error('load failed');
  const loadMs = elapsedMs(start);

  start = process.hrtime.bigint();
  const memory = createInMemoryStore({ initialDocuments: Object.fromEntries(files.map((f) => [f.path, f.content])) });
  const engine = new SearchEngine();
  await engine.search(memory, GENERATED_QUERIES[0]);
  const coreBuildMs = elapsedMs(start);

  // Put: compare-and-swap of MEMORY.md (read, append a bullet, write with the read version).
  const putSamples = await timeRepeated(
    async (i) => {
      const current = await sqlite.get('MEMORY.md');
      const next = `${new TextDecoder().decode(current.content)}- bench bullet ${i}\n`;
      const result = await sqlite.write([
        { kind: 'put', path: 'MEMORY.md', content: encoder.encode(next), expectedVersion: current.version },
      ]);
      if (result.status !== 'committed') throw new Error('conflict in a single-writer bench');
    },
    { iterations: 200, warmup: 5 },
  );
  const blindPut = await timeRepeated(
    (i) => sqlite.write([{ kind: 'put', path: `daily/bench-${i % 20}.md`, content: encoder.encode(`- note ${i}\n`) }]),
    { iterations: 200, warmup: 5 },
  );
  const memoryPut = await timeRepeated(
    async (i) => {
      const current = await memory.get('MEMORY.md');
      const next = `${new TextDecoder().decode(current.content)}- bench bullet ${i}\n`;
      await memory.write([
        { kind: 'put', path: 'MEMORY.md', content: encoder.encode(next), expectedVersion: current.version },
      ]);
    },
    { iterations: 200, warmup: 5 },
  );

  const rounds = 20;
  const query = (i) => GENERATED_QUERIES[i % GENERATED_QUERIES.length];
  const iterations = rounds * GENERATED_QUERIES.length;
  await engine.search(memory, query(0)); // the in-memory store changed during the put bench
  const fts = await timeRepeated((i) => sqlite.search(query(i)), { iterations, warmup: GENERATED_QUERIES.length });
  const core = await timeRepeated((i) => engine.search(memory, query(i)), {
    iterations,
    warmup: GENERATED_QUERIES.length,
  });
  const perQuery = [];
  for (const q of GENERATED_QUERIES) {
    const a = summarize(await timeRepeated(() => sqlite.search(q), { iterations: rounds, warmup: 1 }));
    const b = summarize(await timeRepeated(() => engine.search(memory, q), { iterations: rounds, warmup: 1 }));
    const ours = (await sqlite.search(q)).results.map((hit) => hit.path);
    const theirs = (await engine.search(memory, q)).results.map((hit) => hit.path);
    const overlap = ours.filter((path) => theirs.includes(path)).length;
    perQuery.push(`| ${q} | ${fmt(a.p50)} | ${fmt(b.p50)} | ${overlap}/${theirs.length} |`);
  }
  await sqlite.close();
  const sizeMb = statSync(file).size / 1e6; // closing checkpoints the WAL into the file and removes it

  console.log(
    `\nload (one write batch of ${files.length} documents, FTS5 included): ${fmt(loadMs)}; file ${sizeMb.toFixed(1)} MB`,
  );
  console.log(`core engine: store creation + first query (index build): ${fmt(coreBuildMs)}\n`);
  console.log('| operation | n | p50 | p95 | min | max |');
  console.log('|---|---|---|---|---|---|');
  console.log(row('sqlite: CAS put of MEMORY.md (get + write, fsync)', summarize(putSamples)));
  console.log(row('sqlite: blind put of a small daily file', summarize(blindPut)));
  console.log(row('in-memory store: CAS put of MEMORY.md', summarize(memoryPut)));
  console.log(row('sqlite FTS5 search (10 queries rotated)', summarize(fts)));
  console.log(row('core SearchEngine over in-memory store, warm', summarize(core)));
  console.log('\n| query | sqlite p50 | core p50 | same top-5 paths |');
  console.log('|---|---|---|---|');
  for (const line of perQuery) console.log(line);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
