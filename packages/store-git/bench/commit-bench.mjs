// Why: the git store's performance goal (issue 3): on a branch holding 20,000 files, one bullet
// edit committed in object mode must be at most as slow as the git CLI doing the same (worktree
// edit, `git add`, `git commit`) and under 30 ms p50. Both run here, in the same process, on the
// same repository and packfile. Also times a cold `history()` of one file with 1,000 commits.
// Prints a markdown table and a JSON line; asserts nothing.
//
//   node packages/store-git/bench/commit-bench.mjs [--iterations=50] [--files=20000]
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory } from '@repomem/core';
import { generateMemoryCorpus } from '@repomem/core/testing';
import { openGitStore } from '../dist/index.js';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, Number(value)];
  }),
);
const ITERATIONS = args.iterations || 50;
const FILES = args.files || 20_000;
const HISTORY_COMMITS = args.commits || 1000;
const BRANCH = 'agent/memory';
const env = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'bench@localhost',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'bench@localhost',
};
const git = (cwd, argv, input) =>
  execFileSync('git', argv, { cwd, env, input, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'] })
    .toString()
    .trim();
const log = (line) => process.stderr.write(`[store-git bench] ${line}\n`);

function percentile(samples, q) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1];
}
function summary(samples) {
  return {
    n: samples.length,
    p50: percentile(samples, 0.5),
    p95: percentile(samples, 0.95),
    min: Math.min(...samples),
  };
}
async function time(iterations, warmup, work) {
  const samples = [];
  for (let i = 0; i < warmup + iterations; i++) {
    const start = process.hrtime.bigint();
    await work(i);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (i >= warmup) samples.push(ms);
  }
  return summary(samples);
}

/** A fast-import stream committing `files` on `ref` in one commit. */
function importStream(ref, files) {
  const chunks = [`commit ${ref}\ncommitter bench <bench@localhost> 1767225600 +0000\ndata 11\nbench tree\n`];
  for (const file of files) {
    const bytes = Buffer.byteLength(file.content);
    chunks.push(`M 100644 inline ${file.path}\ndata ${bytes}\n${file.content}\n`);
  }
  return `${chunks.join('')}\n`;
}

/** A fast-import stream of `count` commits each changing MEMORY.md on `ref`. */
function historyStream(ref, count) {
  const chunks = [];
  let body = '# Memory\n\n## Notes\n';
  for (let i = 0; i < count; i++) {
    body += `- bullet ${i}\n`;
    chunks.push(
      `commit ${ref}\ncommitter bench <bench@localhost> ${1767225600 + i * 60} +0000\ndata 10\nedit ${String(i).padStart(4, '0')}\n`,
    );
    chunks.push(`M 100644 inline MEMORY.md\ndata ${Buffer.byteLength(body)}\n${body}\n`);
    if (i % 10 === 0) chunks.push(`M 100644 inline other/${i}.md\ndata 2\nx\n\n`);
  }
  return `${chunks.join('')}\n`;
}

const dir = mkdtempSync(join(tmpdir(), 'repomem-git-bench-'));
try {
  git(dir, ['init', '-q', '-b', 'main']);
  log(`generating ${FILES} files and importing them with git fast-import`);
  const files = generateMemoryCorpus({ jsonFiles: FILES, seed: 'store-git-bench' });
  git(dir, ['fast-import', '--quiet'], importStream(`refs/heads/${BRANCH}`, files));
  git(dir, ['branch', 'cli', BRANCH]);
  git(dir, ['checkout', '-q', 'cli']);
  log(`worktree checked out (${git(dir, ['ls-files']).split('\n').length} files); timing ${ITERATIONS} edits each`);

  const results = {};
  // git CLI: edit the worktree file, git add, git commit.
  results.gitCli = await time(ITERATIONS, 3, (i) => {
    appendFileSync(join(dir, 'MEMORY.md'), `- cli bullet ${i}\n`);
    for (const argv of [
      ['add', 'MEMORY.md'],
      ['commit', '-q', '-m', `chore(memory): add bullet to MEMORY.md (${i})`],
    ]) {
      const run = spawnSync('git', argv, { cwd: dir, env });
      if (run.status !== 0) throw new Error(`git ${argv.join(' ')} failed: ${run.stderr}`);
    }
  });
  for (const durable of [false, true]) {
    const store = await openGitStore({ dir, durable });
    const memory = openMemory({ store });
    const label = durable ? 'repomemDurable' : 'repomem';
    const coldStart = process.hrtime.bigint();
    await memory.add({ file: 'MEMORY.md', section: 'Durable', text: `cold bullet ${label}` });
    results[`${label}Cold`] = Number(process.hrtime.bigint() - coldStart) / 1e6;
    results[label] = await time(ITERATIONS, 3, async (i) => {
      const outcome = await memory.add({ file: 'MEMORY.md', section: 'Durable', text: `${label} bullet ${i}` });
      if (outcome.kind !== 'added') throw new Error(`unexpected ${outcome.kind}`);
    });
    await store.close();
  }
  git(dir, ['fsck', '--no-progress', '--no-dangling']);
  const listStore = await openGitStore({ dir });
  const listStart = process.hrtime.bigint();
  const listed = await listStore.list();
  results.coldListMs = Number(process.hrtime.bigint() - listStart) / 1e6;
  const warmListStart = process.hrtime.bigint();
  await listStore.list();
  results.warmListMs = Number(process.hrtime.bigint() - warmListStart) / 1e6;
  results.listedDocuments = listed.length;
  await listStore.close();

  log(`importing ${HISTORY_COMMITS} commits of MEMORY.md for the cold history timing`);
  git(dir, ['fast-import', '--quiet'], historyStream('refs/heads/history', HISTORY_COMMITS));
  const historyStart = process.hrtime.bigint();
  const historyStore = await openGitStore({ dir, branch: 'history' });
  const revisions = await historyStore.history({ path: 'MEMORY.md' });
  results.coldHistoryMs = Number(process.hrtime.bigint() - historyStart) / 1e6;
  results.historyRevisions = revisions.length;
  const warmStart = process.hrtime.bigint();
  await historyStore.history({ path: 'MEMORY.md' });
  results.warmHistoryMs = Number(process.hrtime.bigint() - warmStart) / 1e6;
  await historyStore.close();

  const ms = (value) => `${value.toFixed(1)} ms`;
  const row = (name, s) => `| ${name} | ${s.n} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.min)} |`;
  process.stdout.write(
    [
      `One bullet edit committed on a branch of ${files.length} files (${ITERATIONS} edits each, same repository)`,
      '',
      '| method | n | p50 | p95 | min |',
      '| --- | --- | --- | --- | --- |',
      row('repomem object mode (memory.add, durable: false)', results.repomem),
      row('repomem object mode (memory.add, durable: true, fsync)', results.repomemDurable),
      row('git CLI (edit worktree, git add, git commit)', results.gitCli),
      '',
      `First edit after open (cold caches): ${ms(results.repomemCold)} (durable: false), ${ms(results.repomemDurableCold)} (durable: true)`,
      `list() of all ${results.listedDocuments} documents (versions and sizes, from the packfile): cold ${ms(results.coldListMs)}, warm ${ms(results.warmListMs)}`,
      `history({ path: 'MEMORY.md' }) over ${HISTORY_COMMITS} commits: cold ${ms(results.coldHistoryMs)} (open included, ${results.historyRevisions} revisions), warm ${ms(results.warmHistoryMs)}`,
      `Goal: repomem p50 <= git CLI p50 and < 30 ms.`,
      '',
      JSON.stringify(results),
      '',
    ].join('\n'),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
