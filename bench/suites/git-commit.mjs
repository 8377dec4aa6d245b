// Why: the git store's performance goal (issue 3): on a branch holding 20,000 files, one bullet
// edit committed in object mode must be at most as slow as the git CLI doing the same (worktree
// edit, `git add`, `git commit`) and under 30 ms p50. Both run in the same run, on the same
// repository and packfile (built with `git fast-import`).
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openMemory } from '@repomem/core';
import { generateMemoryCorpus } from '@repomem/core/testing';
import {
  freshBenchRepository,
  git,
  gitQuiet,
  singleCommitStream,
} from '../../packages/store-git/bench/git-bench-repo.mjs';
import { openGitStore } from '../../packages/store-git/dist/index.js';
import { elapsedMs, summarize, timeRepeated } from '../lib/measure.mjs';
import { formatMs } from '../lib/table.mjs';

const FILES = 20_000;
const BRANCH = 'agent/memory';
const GOAL_MS = 30;

/** Run the object-mode commit benchmark; returns a report section. */
export async function runGitCommit({ quick, log }) {
  const iterations = quick ? 15 : 50;
  const warmup = 3;
  const dir = freshBenchRepository();
  try {
    log(`git-commit: importing ${FILES} files with git fast-import`);
    const files = generateMemoryCorpus({ jsonFiles: FILES, seed: 'store-git-bench' });
    git(dir, ['fast-import', '--quiet'], singleCommitStream(`refs/heads/${BRANCH}`, files));
    git(dir, ['branch', 'cli', BRANCH]);
    git(dir, ['checkout', '-q', 'cli']);
    log(`git-commit: ${files.length} files on the branch; timing ${iterations} edits per method`);

    const cli = await timeRepeated(
      (i) => {
        appendFileSync(join(dir, 'MEMORY.md'), `- cli bullet ${i}\n`);
        gitQuiet(dir, ['add', 'MEMORY.md']);
        gitQuiet(dir, ['commit', '-q', '-m', `chore(memory): add bullet to MEMORY.md (${i})`]);
      },
      { iterations, warmup },
    );
    const measured = {};
    const cold = {};
    for (const durable of [true, false]) {
      const store = await openGitStore({ dir, durable });
      const memory = openMemory({ store });
      const label = durable ? 'durable' : 'fast';
      const start = process.hrtime.bigint();
      await memory.add({ file: 'MEMORY.md', section: 'Durable', text: `cold bullet ${label}` });
      cold[label] = elapsedMs(start);
      measured[label] = await timeRepeated(
        async (i) => {
          const outcome = await memory.add({ file: 'MEMORY.md', section: 'Durable', text: `${label} bullet ${i}` });
          if (outcome.kind !== 'added') throw new Error(`unexpected outcome ${outcome.kind}`);
        },
        { iterations, warmup },
      );
      await store.close();
    }
    git(dir, ['fsck', '--no-progress', '--no-dangling']);

    const cliLabel = 'git CLI: edit worktree file, `git add`, `git commit` (baseline)';
    const rows = [
      {
        label: 'repomem object mode, `memory.add` (durable: true, fsync; the default)',
        kind: 'repomem',
        stats: summarize(measured.durable),
        baseline: cliLabel,
      },
      {
        label: 'repomem object mode, `memory.add` (durable: false)',
        kind: 'repomem',
        stats: summarize(measured.fast),
        baseline: cliLabel,
      },
      { label: cliLabel, kind: 'baseline', stats: summarize(cli) },
    ];
    const repomem = rows[0].stats;
    const baseline = rows[2].stats;
    return {
      id: 'git-commit',
      title: `Git store: one bullet edit committed on a branch of ${files.length.toLocaleString('en-US')} files`,
      intro:
        `A branch of ${files.length.toLocaleString('en-US')} files (\`generateMemoryCorpus({ jsonFiles: ${FILES} })\`, one packfile ` +
        'from `git fast-import`). Each repomem sample is `openMemory(...).add` of a new bullet to MEMORY.md through ' +
        '`openGitStore` (read the blob, edit, write the blob, the trees along the path and a commit, compare-and-swap ' +
        'the ref; the worktree is untouched). Each git CLI sample appends a bullet to the checked-out MEMORY.md of the ' +
        `same repository, then runs \`git add\` and \`git commit\` (two processes). ${warmup} warmup samples each.`,
      tables: [{ caption: 'one bullet edit, committed', rows }],
      goals: [
        {
          goal: 'git store: one bullet edit on a 20,000-file branch, object mode p50 <= git CLI p50',
          measured: `p50 ${formatMs(repomem.p50)} ms vs git CLI ${formatMs(baseline.p50)} ms`,
          met: repomem.p50 <= baseline.p50,
        },
        {
          goal: `git store: one bullet edit on a 20,000-file branch, object mode p50 < ${GOAL_MS} ms`,
          measured: `p50 ${formatMs(repomem.p50)} ms, p95 ${formatMs(repomem.p95)} ms`,
          met: repomem.p50 < GOAL_MS,
        },
      ],
      notes: [
        `First edit after \`openGitStore\` (cold caches, reads the packfile index): ${formatMs(cold.durable)} ms ` +
          `(durable: true), ${formatMs(cold.fast)} ms (durable: false).`,
        '`git fsck` is clean after the run. The git CLI rows include two process start-ups per sample, which is what ' +
          'a workflow that shells out to git pays.',
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
