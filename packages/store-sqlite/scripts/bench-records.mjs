// Why: measure verified-memory storage in SQLite at seed 003's scale: 100,000 memories across 100
// repositories (1,000 each, 1-3 citations each, generated deterministically), then p50/p95 of the
// calls the verified-memory service makes: recent 50 active live memories, one create (apply with
// its event, fsync), a 2-word search and a lookup by cited path. No assertions; it prints figures
// to compare with the seed's budgets (retrieval < 100 ms for 50, store < 200 ms) and our goals
// (20x better: recent 50 < 5 ms, store < 10 ms).
// Usage: node scripts/bench-records.mjs [repos=100] [perRepo=1000]
//        (needs `pnpm --filter @repomem/store-sqlite build`)
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { elapsedMs, summarize, timeRepeated } from '../../../bench/lib/measure.mjs';
import { openSqliteRecordBackend } from '../dist/index.js';

const repos = Number(process.argv[2] ?? 100);
const perRepo = Number(process.argv[3] ?? 1000);
const fmt = (ms) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
const row = (label, stats) =>
  `| ${label} | ${stats.n} | ${fmt(stats.p50)} | ${fmt(stats.p95)} | ${fmt(stats.min)} | ${fmt(stats.max)} |`;

/** mulberry32: a small deterministic PRNG, so every run generates the same memories. */
function prng(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(0x5eed);
const pick = (list) => list[Math.floor(random() * list.length)];

const WORDS = (
  'api version client server route schema migration test vitest jest build lint format deploy release ' +
  'cache retry timeout token auth session database index query config env secret log metric trace queue ' +
  'worker job cron hook plugin module package workspace monorepo bundle chunk import export type interface ' +
  'error handler middleware controller service repository model view component state store reducer context'
).split(' ');
const DIRS = ['src', 'src/api', 'src/client', 'src/server', 'lib', 'packages/core/src', 'docs', 'test', 'scripts'];
const EPOCH = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

const uuid = (n) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const repoName = (r) => `org-${String(r).padStart(3, '0')}/app`;
const sentence = (count) => Array.from({ length: count }, () => pick(WORDS)).join(' ');
const filePath = () => `${pick(DIRS)}/${pick(WORDS)}-${pick(WORDS)}.ts`;

let serial = 0;
function generate(repo) {
  serial += 1;
  const created = EPOCH + Math.floor(random() * 60 * DAY);
  const refreshed = created + Math.floor(random() * 10 * DAY);
  const roll = random();
  const status = roll < 0.8 ? 'active' : roll < 0.9 ? 'invalid' : 'superseded';
  const citations = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
    const start = 1 + Math.floor(random() * 400);
    return { path: filePath(), line_start: start, line_end: start + Math.floor(random() * 20) };
  });
  return {
    id: uuid(serial),
    repo,
    subject: sentence(3),
    fact: `${sentence(18)}.`,
    scope: random() < 0.2 ? `${pick(DIRS)}/` : null,
    citations,
    reason: random() < 0.5 ? sentence(8) : null,
    created_by: 'bench',
    created_at: new Date(created).toISOString(),
    refreshed_at: new Date(refreshed).toISOString(),
    expires_at: new Date(refreshed + 28 * DAY).toISOString(),
    status,
    superseded_by: status === 'superseded' ? uuid(serial + 1) : null,
    supersedes: null,
    invalid_reason: status === 'invalid' ? 'citation no longer holds' : null,
    verification_count: Math.floor(random() * 5),
    revision: 1,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'repomem-sqlite-records-bench-'));
const file = join(dir, 'memory.db');
try {
  const backend = openSqliteRecordBackend({ path: file });
  // Load: one apply per repository (1,000 creates and their events in one transaction).
  const paths = new Map();
  const start = process.hrtime.bigint();
  for (let r = 0; r < repos; r++) {
    const repo = repoName(r);
    const records = Array.from({ length: perRepo }, () => generate(repo));
    paths.set(
      repo,
      records.flatMap((record) => record.citations.map((citation) => citation.path)),
    );
    const result = await backend.apply(
      records.map((record) => ({ record, expectedRevision: null })),
      records.map((record) => ({ type: 'created', memory_id: record.id, repo, at: record.created_at })),
    );
    if (!result.ok) throw new Error('load conflicted');
  }
  const loadMs = elapsedMs(start);
  const total = repos * perRepo;

  const liveAt = new Date(EPOCH + 45 * DAY).toISOString();
  const repoOf = (i) => repoName((i * 37) % repos);
  const recentSamples = await timeRepeated(
    async (i) => {
      const found = await backend.recent({ repo: repoOf(i), statuses: ['active'], liveAt, limit: 50 });
      if (found.length !== 50) throw new Error(`recent returned ${found.length}`);
    },
    { iterations: 1000, warmup: 50 },
  );
  const recentAll = await timeRepeated((i) => backend.recent({ repo: repoOf(i), limit: 50 }), {
    iterations: 500,
    warmup: 20,
  });
  const storeSamples = await timeRepeated(
    async (i) => {
      const record = generate(repoOf(i));
      const result = await backend.apply(
        [{ record, expectedRevision: null }],
        [{ type: 'created', memory_id: record.id, repo: record.repo, at: record.created_at }],
      );
      if (!result.ok) throw new Error('create conflicted');
    },
    { iterations: 300, warmup: 10 },
  );
  let hits = 0;
  const searchSamples = await timeRepeated(
    async (i) => {
      const found = await backend.search({
        repo: repoOf(i),
        text: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]}`,
        statuses: ['active'],
        liveAt,
        limit: 20,
      });
      if (i >= 50) hits += found.length;
    },
    { iterations: 1000, warmup: 50 },
  );
  const byPathSamples = await timeRepeated(
    async (i) => {
      const repo = repoOf(i);
      const list = paths.get(repo);
      await backend.byPath({ repo, path: list[(i * 13) % list.length], statuses: ['active'], liveAt });
    },
    { iterations: 1000, warmup: 50 },
  );
  await backend.close();
  const sizeMb = statSync(file).size / 1e6;

  console.log(
    `\nload: ${total} memories in ${repos} repos (${perRepo} each, 1-3 citations) via apply, one transaction per repo: ${fmt(loadMs)} (${Math.round(total / (loadMs / 1000))}/s); file ${sizeMb.toFixed(1)} MB`,
  );
  console.log(`search: ${(hits / searchSamples.length).toFixed(1)} results per query on average (limit 20)\n`);
  console.log('| operation | n | p50 | p95 | min | max |');
  console.log('|---|---|---|---|---|---|');
  console.log(row("recent({ statuses: ['active'], liveAt, limit: 50 })", summarize(recentSamples)));
  console.log(row('recent({ limit: 50 }) (all statuses)', summarize(recentAll)));
  console.log(row('apply: one create + created event (fsync)', summarize(storeSamples)));
  console.log(row('search: 2-word query, active, live, limit 20', summarize(searchSamples)));
  console.log(row('byPath: active, live', summarize(byPathSamples)));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
