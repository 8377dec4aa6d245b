// Why: the issue "Retrieval that understands" sets quality goals, measured here side by side:
// search MRR@5 and recall@5 over the real fixture tree (lexical, and hybrid with the local model:
// lexical and semantic rankings fused by reciprocal rank fusion), and hydration recall of the
// items an expert says a task needs, at 2,000 and 600 tokens, on a generated monorepo memory.
// Tuning and held-out parts are reported apart (bench/relevance/README.md).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as core from '@repomem/core';
import { createLocalEmbedder, LOCAL_EMBEDDER_ID } from '../../packages/embedder-local/dist/index.js';
import { markdownTable } from '../lib/table.mjs';
import { CORPUS_DIR, fixtureTreeSource } from '../lib/trees.mjs';
import { evaluateHydration } from '../relevance/evaluate-hydration.mjs';
import { evaluateSearch, readTree } from '../relevance/fixture-search.mjs';

const GOALS = { searchMrrHybrid: 0.93, hydration2000: 0.9, hydration600: 0.75 };
const fixed = (value) => value.toFixed(3);

/**
 * The fixture tree in an in-memory store (the tree itself is never written to: vectors are kept
 * in the store), with vectors of earlier runs restored from bench/.corpus so a rerun embeds only
 * what changed.
 */
async function fixtureStore(root, log) {
  const store = core.createInMemoryStore();
  const files = readTree(root);
  for (let i = 0; i < files.length; i += 200) {
    await store.write(files.slice(i, i + 200).map((file) => ({ kind: 'put', path: file.path, content: file.content })));
  }
  const cache = join(CORPUS_DIR, `relevance-vectors-${LOCAL_EMBEDDER_ID.replace(/[^\w.-]/g, '_')}.json`);
  if (existsSync(cache)) {
    const saved = JSON.parse(readFileSync(cache, 'utf8'));
    await store.write(
      saved.map((entry) => ({ kind: 'put', path: entry.path, content: Buffer.from(entry.content, 'base64') })),
    );
  }
  const semantic = core.createSemanticIndex({ store, embedder: createLocalEmbedder() });
  const started = performance.now();
  const refreshed = await semantic.refresh({
    onProgress: (done, total) => {
      if (done === total || done % 512 === 0) log(`relevance: embedded ${done}/${total} chunks`);
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const vectors = (await store.list(core.VECTOR_INDEX_PREFIX)).map((entry) => entry.path);
  const saved = [];
  for (const path of vectors)
    saved.push({ path, content: Buffer.from((await store.get(path)).content).toString('base64') });
  mkdirSync(CORPUS_DIR, { recursive: true });
  writeFileSync(cache, JSON.stringify(saved));
  return { store, semantic, files: files.length, refreshed, seconds };
}

/** Run the relevance suite; returns a report section. */
export async function runRelevance({ log }) {
  const rows = [];
  const goals = [];
  const notes = [];
  const root = fixtureTreeSource();
  if (existsSync(root)) {
    const { store, semantic, files, refreshed, seconds } = await fixtureStore(root, log);
    notes.push(
      `Search set: ${files} files of the fixture tree, read in place into an in-memory store; vectors: ${refreshed.embedded} chunks embedded now (${seconds.toFixed(0)} s), ${refreshed.reused} reused from bench/.corpus.`,
    );
    const ranked = (semanticIndex) => async (query) =>
      (
        await core.hybridSearch(store, query, { limit: 5, ...(semanticIndex ? { semantic: semanticIndex } : {}) })
      ).results.map((hit) => hit.path);
    const nearest = async (query) => (await semantic.searchDocuments(query, { limit: 5 })).map((hit) => hit.path);
    const lexical = await evaluateSearch(ranked(undefined));
    const hybrid = await evaluateSearch(ranked(semantic));
    const alone = await evaluateSearch(nearest);
    for (const [name, result] of [
      ['lexical (`searchStore`)', lexical],
      ['semantic alone (local model)', alone],
      ['hybrid: lexical + local model, RRF k=60 (`hybridSearch`)', hybrid],
    ]) {
      rows.push([
        `search: ${name}`,
        `${fixed(result.tuning.mrr)} / ${fixed(result.tuning.recall)}`,
        `${fixed(result.heldOut.mrr)} / ${fixed(result.heldOut.recall)}`,
      ]);
    }
    goals.push({
      goal: `search MRR@5 >= ${GOALS.searchMrrHybrid} hybrid (held-out part)`,
      measured: fixed(hybrid.heldOut.mrr),
      met: hybrid.heldOut.mrr >= GOALS.searchMrrHybrid,
    });
  } else {
    notes.push(`fixture tree not found at ${root}: the search part was skipped`);
  }

  const embedder = createLocalEmbedder();
  const hydrationSemantic = core.createSemanticIndex({ store: core.createInMemoryStore(), embedder });
  const lexicalHydration = await evaluateHydration(core);
  const hybridHydration = await evaluateHydration(core, { semantic: hydrationSemantic });
  for (const [name, result] of [
    ['lexical', lexicalHydration],
    ['hybrid (local model)', hybridHydration],
  ]) {
    for (const budget of [2000, 600]) {
      const part = result.budgets[budget];
      rows.push([
        `hydration recall at ${budget.toLocaleString('en-US')} tokens: ${name}`,
        fixed(part.tuning),
        fixed(part.heldOut),
      ]);
    }
  }
  for (const [budget, goal] of [
    [2000, GOALS.hydration2000],
    [600, GOALS.hydration600],
  ]) {
    const best = Math.max(lexicalHydration.budgets[budget].heldOut, hybridHydration.budgets[budget].heldOut);
    goals.push({
      goal: `hydration recall >= ${goal} at ${budget} tokens (held-out part, best mode)`,
      measured: fixed(best),
      met: best >= goal,
    });
  }
  notes.push(
    `Hydration set: bench/relevance/monorepo-memory.mjs (120 learnings, 50 episodes of which 9 closed unmerged, 6 rules, 8 preferences of 6 users; ${lexicalHydration.tasks.tuning} tuning and ${lexicalHydration.tasks.heldOut} held-out tasks). Recall = share of the needed items (learnings, episodes, the user's preferences; rules are always loaded and not counted) in the context, averaged over tasks.`,
  );
  return {
    id: 'relevance',
    title: 'Relevance: search and hydration (tuning / held-out parts)',
    intro:
      '`node bench/run.mjs relevance` (or `pnpm bench relevance`). Sets: bench/relevance (README there). Search: MRR@5 / recall@5 (recall = share of the relevant documents in the top 5, of at most 5). Hydration: recall of needed items in the context. Lexical needs no model; hybrid uses `@repomem/embedder-local` (Universal Sentence Encoder lite, 512 dimensions). Quality figures, not timings: the same on every run.',
    tables: [{ caption: 'Relevance', markdown: markdownTable(['case', 'tuning part', 'held-out part'], rows) }],
    goals,
    notes,
  };
}
