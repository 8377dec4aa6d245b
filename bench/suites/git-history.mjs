// Why: "what did the agent know, and when?" must stay cheap as the branch grows (issue 3): a cold
// `history({ path })` of one file with 1,000 commits (a fresh store each sample: open, read the
// packfile index, walk every commit), next to `git log -- <path>` in the same run.
import { rmSync } from 'node:fs';
import {
  freshBenchRepository,
  git,
  gitQuiet,
  memoryHistoryStream,
} from '../../packages/store-git/bench/git-bench-repo.mjs';
import { openGitStore } from '../../packages/store-git/dist/index.js';
import { elapsedMs, summarize, timeRepeated } from '../lib/measure.mjs';
import { formatMs } from '../lib/table.mjs';

const COMMITS = 1000;
const BRANCH = 'agent/memory';

/** Run the history benchmark; returns a report section. */
export async function runGitHistory({ quick, log }) {
  const iterations = quick ? 5 : 20;
  const dir = freshBenchRepository();
  try {
    log(`git-history: importing ${COMMITS} commits of MEMORY.md with git fast-import`);
    git(dir, ['fast-import', '--quiet'], memoryHistoryStream(`refs/heads/${BRANCH}`, COMMITS));
    const total = Number(git(dir, ['rev-list', '--count', BRANCH]));

    let revisions = 0;
    const cold = await timeRepeated(
      async () => {
        const store = await openGitStore({ dir });
        const history = await store.gitLog({ path: 'MEMORY.md' });
        revisions = history.length;
        await store.close();
      },
      { iterations, warmup: 1 },
    );
    if (revisions !== COMMITS) throw new Error(`history listed ${revisions} revisions, expected ${COMMITS}`);

    const store = await openGitStore({ dir });
    await store.gitLog({ path: 'MEMORY.md' });
    const warm = await timeRepeated(() => store.gitLog({ path: 'MEMORY.md' }), { iterations, warmup: 1 });
    const limited = await timeRepeated(
      async () => {
        const fresh = await openGitStore({ dir });
        await fresh.gitLog({ path: 'MEMORY.md', limit: 10 });
        await fresh.close();
      },
      { iterations, warmup: 1 },
    );
    await store.close();

    const cli = await timeRepeated(
      () => gitQuiet(dir, ['log', '--format=%H%x00%ct%x00%s%x00%(trailers)', BRANCH, '--', 'MEMORY.md']),
      { iterations, warmup: 1 },
    );
    const cliLines = git(dir, ['log', '--format=%H', BRANCH, '--', 'MEMORY.md']).split('\n').length;
    if (cliLines !== COMMITS) throw new Error(`git log listed ${cliLines} commits, expected ${COMMITS}`);

    const cliLabel = '`git log --format=... agent/memory -- MEMORY.md` (baseline, one process)';
    const start = process.hrtime.bigint();
    await (async () => {
      const once = await openGitStore({ dir });
      await once.gitLog({ path: 'MEMORY.md' });
      await once.close();
    })();
    const single = elapsedMs(start);
    const rows = [
      {
        label: `cold \`history({ path: 'MEMORY.md' })\`, open included (${COMMITS} revisions)`,
        kind: 'repomem',
        stats: summarize(cold),
        baseline: cliLabel,
      },
      {
        label: 'cold `history({ path, limit: 10 })`, open included',
        kind: 'repomem',
        stats: summarize(limited),
        baseline: cliLabel,
      },
      { label: 'warm `history({ path })` (same store, caches filled)', kind: 'reference', stats: summarize(warm) },
      { label: cliLabel, kind: 'baseline', stats: summarize(cli) },
    ];
    return {
      id: 'git-history',
      title: `Git store: history of one file with ${COMMITS.toLocaleString('en-US')} commits`,
      intro:
        `A branch of ${total.toLocaleString('en-US')} commits (one packfile from \`git fast-import\`): ${COMMITS} append a ` +
        `bullet to MEMORY.md, ${total - COMMITS} touch only another file. A cold sample opens a new \`openGitStore\` and ` +
        'lists the revisions that changed MEMORY.md (time, subject, body, trailers), newest first; one warmup sample ' +
        'first. The git CLI baseline prints the same fields.',
      tables: [{ caption: 'history of MEMORY.md', rows }],
      goals: [],
      notes: [
        `A single cold run outside the timing loop (first use of the pack in this store): ${formatMs(single)} ms.`,
        'The issue sets no latency goal for history; the figure is recorded.',
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
