// Why: semantic retrieval must not cost more than it gives. This suite measures, on this machine:
// the local model's throughput (chunks of the fixture tree embedded per second) and its query
// latency; the memory held by 20,000 chunks' vectors; a semantic query over 20,000 chunks on the
// default SQLite store with the query's embedding excluded (reported apart); and the incremental
// re-index after editing one file (goal < 1 s), with the real local model embedding the edit.
// Embedding 20,000 chunks with the local model would take ~17 minutes on two cores, so the
// 20,000 stored vectors are written by a fast stand-in under the local model's id and dimension
// (timings do not depend on what the vectors mean); the re-index then embeds the edit with the
// real model.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chunkDocument, createSemanticIndex, createTestEmbedder } from '@repomem/core';
import { createSeededRandom } from '@repomem/core/testing';
import {
  createLocalEmbedder,
  LOCAL_EMBEDDER_DIMENSIONS,
  LOCAL_EMBEDDER_ID,
} from '../../packages/embedder-local/dist/index.js';
import { openSqliteStore } from '../../packages/store-sqlite/dist/index.js';
import { elapsedMs, summarize, timeRepeated } from '../lib/measure.mjs';
import { formatMs, markdownTable } from '../lib/table.mjs';
import { fixtureTreeSource, listTreeFiles } from '../lib/trees.mjs';
import { buildVocabulary, zipfPicker } from '../lib/vocabulary.mjs';

const GOAL_REINDEX_MS = 1_000;
const GOAL_QUERY_MS = 25;
const encoder = new TextEncoder();

/** Chunks of the fixture tree (real Markdown and mirrored GitHub JSON), the first `count`. */
function fixtureChunks(count) {
  const root = fixtureTreeSource();
  const chunks = [];
  try {
    for (const path of listTreeFiles(root)) {
      if (!/\.(md|json)$/.test(path)) continue;
      for (const chunk of chunkDocument(path, readFileSync(join(root, path), 'utf8'))) {
        chunks.push(chunk.text);
        if (chunks.length >= count) return chunks;
      }
    }
  } catch {
    // no fixture tree: generated text below
  }
  return chunks;
}

/** `documents` Markdown files of `bullets` bullets each (Zipf text from a 3,000-word vocabulary). */
function generatedDocuments(documents, bullets) {
  const random = createSeededRandom('repomem-vectors');
  const next = zipfPicker(random, buildVocabulary(random, 3000));
  const sentence = (words) => Array.from({ length: words }, () => next()).join(' ');
  return Array.from({ length: documents }, (_, index) => ({
    path: `notes/${String(index).padStart(5, '0')}.md`,
    text: `# ${sentence(3)}\n\n${Array.from({ length: bullets }, () => `- ${sentence(14)}`).join('\n')}\n`,
  }));
}

async function writeAll(store, documents) {
  for (let start = 0; start < documents.length; start += 500) {
    const result = await store.write(
      documents.slice(start, start + 500).map((document) => ({
        kind: 'put',
        path: document.path,
        content: encoder.encode(document.text),
      })),
    );
    if (result.status !== 'committed') throw new Error('bench: seeding conflicted');
  }
}

/** A fast stand-in that writes vectors under the local model's id and dimension (timing only). */
function standIn() {
  const inner = createTestEmbedder({ dimensions: LOCAL_EMBEDDER_DIMENSIONS });
  return {
    id: LOCAL_EMBEDDER_ID,
    dimensions: LOCAL_EMBEDDER_DIMENSIONS,
    embed: (texts, options) => inner.embed(texts, options),
  };
}

/** MiB of heap and array buffers a fresh process holds after its index answered one query. */
function measureHeldMemory(database) {
  const core = new URL('../../packages/core/dist/index.js', import.meta.url).href;
  const sqlite = new URL('../../packages/store-sqlite/dist/index.js', import.meta.url).href;
  const script = `
    const { createSemanticIndex, createTestEmbedder } = await import(${JSON.stringify(core)});
    const { openSqliteStore } = await import(${JSON.stringify(sqlite)});
    const store = await openSqliteStore({ path: ${JSON.stringify(database)}, repo: 'bench/app', readOnly: true });
    const inner = createTestEmbedder({ dimensions: ${LOCAL_EMBEDDER_DIMENSIONS} });
    const embedder = { id: ${JSON.stringify(LOCAL_EMBEDDER_ID)}, dimensions: ${LOCAL_EMBEDDER_DIMENSIONS}, embed: (t, o) => inner.embed(t, o) };
    const used = () => { globalThis.gc(); globalThis.gc(); const m = process.memoryUsage(); return m.heapUsed + m.arrayBuffers; };
    const index = createSemanticIndex({ store, embedder });
    const before = used();
    await index.searchDocuments('warm the matrix', { limit: 10 });
    const after = used();
    process.stdout.write(String((after - before) / 2 ** 20));
    globalThis.keep = index;
    await store.close();`;
  const child = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`memory probe failed: ${child.stderr}`);
  return Number(child.stdout);
}

export async function runVectors({ quick, log }) {
  const dir = mkdtempSync(join(tmpdir(), 'repomem-bench-vectors-'));
  try {
    // 1. The local model: load, throughput on real chunks, query latency.
    const texts = fixtureChunks(quick ? 32 : 96);
    const local = createLocalEmbedder();
    let started = process.hrtime.bigint();
    await local.embed(['warm up the model']);
    const loadMs = elapsedMs(started);
    const batchSamples = [];
    for (let start = 0; start < texts.length; start += 16) {
      const batch = texts.slice(start, start + 16);
      const t = process.hrtime.bigint();
      await local.embed(batch);
      batchSamples.push(elapsedMs(t) / batch.length);
    }
    const perChunk = summarize(batchSamples);
    const words = texts.reduce((sum, text) => sum + text.split(/\s+/).length, 0) / Math.max(1, texts.length);
    const queries = [
      'why is the login test flaky',
      'how do we publish a release',
      'which store keeps vectors',
      'cache invalidation bug',
    ];
    const querySamples = await timeRepeated((i) => local.embed([`${queries[i % queries.length]} ${i}`]), {
      iterations: quick ? 8 : 24,
      warmup: 2,
    });
    log(
      `vectors: local model ${(1000 / perChunk.p50).toFixed(1)} chunks/s, query ${formatMs(summarize(querySamples).p50)} ms`,
    );

    // 2. 20,000 chunks on SQLite: 5,000 documents of 4 bullets.
    const documentCount = quick ? 1_250 : 5_000;
    const documents = generatedDocuments(documentCount, 4);
    const store = await openSqliteStore({ path: join(dir, 'memory.db'), repo: 'bench/app' });
    try {
      await writeAll(store, documents);
      started = process.hrtime.bigint();
      const built = await createSemanticIndex({ store, embedder: standIn() }).refresh();
      const buildMs = elapsedMs(started);
      const chunks = built.embedded;
      log(`vectors: ${chunks} chunks stored in ${(buildMs / 1000).toFixed(1)} s (stand-in embedder)`);

      // Memory: measured in a fresh process (a fresh index reads every shard and builds its matrix).
      const heldMb = measureHeldMemory(join(dir, 'memory.db'));
      const reader = createSemanticIndex({ store, embedder: standIn() });
      started = process.hrtime.bigint();
      await reader.searchDocuments('warm the matrix', { limit: 10 });
      const firstQueryMs = elapsedMs(started);
      const matrixMb = (chunks * (LOCAL_EMBEDDER_DIMENSIONS + 4 + 4)) / 2 ** 20;
      const floatMb = (chunks * LOCAL_EMBEDDER_DIMENSIONS * 4) / 2 ** 20;

      // Warm semantic queries, query vectors already cached (their embedding is reported above).
      const searchQueries = Array.from({ length: 16 }, (_, i) => `${queries[i % queries.length]} ${i}`);
      for (const query of searchQueries) await reader.searchDocuments(query, { limit: 10 });
      const warm = summarize(
        await timeRepeated((i) => reader.searchDocuments(searchQueries[i % searchQueries.length], { limit: 10 }), {
          iterations: quick ? 10 : 40,
          warmup: 2,
        }),
      );

      // CPU time of a warm query (process.cpuUsage: the store is in-process, so this is all of it).
      const cpuSamples = [];
      for (let i = 0; i < (quick ? 10 : 40); i++) {
        const before = process.cpuUsage();
        await reader.searchDocuments(searchQueries[i % searchQueries.length], { limit: 10 });
        const used = process.cpuUsage(before);
        cpuSamples.push((used.user + used.system) / 1000);
      }
      const cpu = summarize(cpuSamples);

      // Incremental re-index with the real model: nothing changed, then one file edited.
      const indexer = createSemanticIndex({ store, embedder: local });
      started = process.hrtime.bigint();
      const unchanged = await indexer.refresh();
      const noopMs = elapsedMs(started);
      const editSamples = [];
      const editRuns = quick ? 2 : 5;
      let embeddedPerEdit = 0;
      for (let run = 0; run < editRuns; run++) {
        const target = documents[run * 7];
        const edited = `${target.text}- edited note ${run}: the deploy script now retries the upload twice\n`;
        await store.write([{ kind: 'put', path: target.path, content: encoder.encode(edited) }]);
        const t = process.hrtime.bigint();
        const result = await indexer.refresh();
        editSamples.push(elapsedMs(t));
        embeddedPerEdit = result.embedded;
      }
      const edit = summarize(editSamples);
      const freshRunner = createSemanticIndex({ store, embedder: local });
      started = process.hrtime.bigint();
      const fresh = await freshRunner.refresh();
      const freshMs = elapsedMs(started);

      const rows = [
        { kind: 'reference', label: 'local model: first `embed` (loads the model)', stats: summarize([loadMs]) },
        {
          kind: 'repomem',
          label: `local model: per chunk, batches of 16 fixture chunks (~${words.toFixed(0)} words)`,
          stats: perChunk,
        },
        { kind: 'repomem', label: 'local model: one short query', stats: summarize(querySamples) },
        {
          kind: 'repomem',
          label: `semantic query over ${chunks.toLocaleString('en-US')} chunks, SQLite, warm (query embedding excluded)`,
          stats: warm,
        },
        { kind: 'reference', label: 'CPU time of that warm query (process.cpuUsage)', stats: cpu },
        {
          kind: 'reference',
          label: 'first semantic query of a fresh index (reads every shard, builds the matrix)',
          stats: summarize([firstQueryMs]),
        },
        { kind: 'repomem', label: 're-index after editing one file (local model embeds the edit)', stats: edit },
        { kind: 'reference', label: 're-index with nothing changed (same process)', stats: summarize([noopMs]) },
        {
          kind: 'reference',
          label: 're-index in a fresh process-like index (a CI runner: nothing to embed)',
          stats: summarize([freshMs]),
        },
        {
          kind: 'reference',
          label: `first index of ${chunks.toLocaleString('en-US')} chunks, stand-in embedder (chunking, quantising, writing)`,
          stats: summarize([buildMs]),
        },
      ];
      const memory = markdownTable(
        ['what', 'MiB'],
        [
          [
            `int8 matrix of ${chunks.toLocaleString('en-US')} vectors (512 values + scale + row index each), computed`,
            matrixMb.toFixed(1),
          ],
          ['the same as float32, for comparison', floatMb.toFixed(1)],
          [
            'measured: heap + array buffers a fresh process holds after its index answered one query (decoded shards, manifest, matrix)',
            heldMb.toFixed(1),
          ],
        ],
      );
      return {
        id: 'vectors',
        title: `Semantic index: local model throughput, ${chunks.toLocaleString('en-US')} chunks' vectors on SQLite, incremental re-index`,
        intro:
          'The local embedder (`@repomem/embedder-local`, Universal Sentence Encoder lite, 512 dimensions, ' +
          'WebAssembly on one thread) embeds chunks of the fixture tree in batches of 16. Then ' +
          `${documentCount.toLocaleString('en-US')} generated Markdown files of 4 bullets each (Zipf text) on a SQLite ` +
          'store get their vectors kept with the memory (`.repomem/vectors/`, 256 int8 shards plus a manifest); ' +
          "these are written by a fast stand-in embedder under the local model's id and dimension, since the " +
          'model would need ~17 minutes for them and query and re-index timings do not depend on what the ' +
          'vectors mean. Warm queries have their query vector cached (its embedding is the "one short query" ' +
          'row). The re-index rows embed with the real local model.',
        tables: [
          { caption: 'local model, semantic query and re-index', rows },
          { caption: `memory held by ${chunks.toLocaleString('en-US')} chunks' vectors`, markdown: memory },
        ],
        goals: [
          {
            goal: `incremental re-index after editing one file: < ${GOAL_REINDEX_MS} ms`,
            measured: `p50 ${formatMs(edit.p50)} ms (${embeddedPerEdit} chunk(s) embedded per edit)`,
            met: edit.p50 < GOAL_REINDEX_MS,
          },
          {
            goal: `semantic query over ${chunks.toLocaleString('en-US')} chunks on SQLite, excluding the query embedding: p50 < ${GOAL_QUERY_MS} ms`,
            measured: `p50 ${formatMs(warm.p50)} ms wall, ${formatMs(cpu.p50)} ms CPU (query embedding p50 ${formatMs(summarize(querySamples).p50)} ms, apart)`,
            met: warm.p50 < GOAL_QUERY_MS,
          },
        ],
        notes: [
          `Local model throughput: ${(1000 / perChunk.p50).toFixed(1)} chunks/s at p50 (${texts.length} fixture chunks).`,
          `A CI runner that fetched the memory with its vectors embeds nothing: ${fresh.embedded} embedded, ${fresh.reused.toLocaleString('en-US')} reused (${unchanged.embedded} on the unchanged re-index).`,
          'Wall times include waiting for the CPU on a shared machine (see the load average).',
        ],
      };
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
