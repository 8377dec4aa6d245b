// Why: an agent calls `repomem search` as a fresh process each time, so what it feels is the
// wall time from process start to exit. This suite measures that for the built CLI and, in the
// same run and interleaved with it, for the naive baseline script and a bare `node` start.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { summarize, timeProcess } from '../lib/measure.mjs';
import { queriesFor } from '../lib/queries.mjs';
import { formatMs } from '../lib/table.mjs';
import { REPO_ROOT } from '../lib/trees.mjs';

/** The built CLI entry point the benchmark spawns. */
export const CLI_BIN = join(REPO_ROOT, 'packages', 'cli', 'dist', 'bin.js');
const BASELINE = join(REPO_ROOT, 'bench', 'baseline-naive-search.mjs');
const COLD_GOAL_MS = 150;

function plan(tree, quick) {
  if (tree.name === 'fixture') return quick ? { queries: 3, runs: 3 } : { queries: 5, runs: 10 };
  return quick ? { queries: 2, runs: 1 } : { queries: 3, runs: 2 };
}

/** Run the cold CLI benchmark over each prepared tree; returns a report section. */
export async function runColdSearch({ trees, quick, log }) {
  if (!existsSync(CLI_BIN)) throw new Error(`${CLI_BIN} is missing: build first (./dev bench or pnpm build)`);
  // Child processes must not inherit a memory dir or query from the caller's environment.
  const env = { ...process.env };
  delete env.MEMORY_DIR;
  delete env.MEMORY_QUERY;
  const tables = [];
  const goals = [];
  for (const tree of trees) {
    const { queries: queryCount, runs } = plan(tree, quick);
    const queries = queriesFor(tree).slice(0, queryCount);
    const samples = { cli: [], help: [], baseline: [], node: [] };
    log(`cold CLI: ${tree.label}: ${queries.length} queries x ${runs} runs`);
    for (let run = 0; run < runs; run++) {
      for (const query of queries) {
        const cli = timeProcess(process.execPath, [CLI_BIN, 'search', '--dir', tree.root, query], { env });
        if (!cli.stdout.startsWith('Memory search:'))
          throw new Error(`unexpected CLI output: ${cli.stdout.slice(0, 200)}`);
        samples.cli.push(cli.ms);
        samples.baseline.push(timeProcess(process.execPath, [BASELINE, tree.root, query], { env }).ms);
        samples.node.push(timeProcess(process.execPath, ['-e', ''], { env }).ms);
        samples.help.push(timeProcess(process.execPath, [CLI_BIN, 'search', '--help'], { env }).ms);
      }
    }
    const rows = [
      {
        label: '`repomem search --dir <tree> <query>`',
        kind: 'repomem',
        stats: summarize(samples.cli),
        baseline: 'naive baseline script',
      },
      { label: 'naive baseline script', kind: 'baseline', stats: summarize(samples.baseline) },
      {
        label: '`repomem search --help` (process start + CLI entry; the search bundle is not loaded)',
        kind: 'reference',
        stats: summarize(samples.help),
      },
      { label: '`node -e ""` (process start floor)', kind: 'reference', stats: summarize(samples.node) },
    ];
    tables.push({
      caption: `${tree.label}: ${tree.files.toLocaleString('en-US')} files, ${(tree.bytes / 1048576).toFixed(1)} MiB; queries: ${queries.map((q) => `\`${q}\``).join(', ')}; ${runs} run(s) each`,
      rows,
    });
    if (tree.name === 'fixture') {
      const stats = rows[0].stats;
      goals.push({
        goal: `cold CLI query over the fixture tree < ${COLD_GOAL_MS} ms wall (p50)`,
        measured: `p50 ${formatMs(stats.p50)} ms, p95 ${formatMs(stats.p95)} ms`,
        met: stats.p50 < COLD_GOAL_MS,
      });
    }
  }
  return {
    id: 'cold',
    title: 'Cold CLI search (process start to exit)',
    intro:
      'Wall time of `spawnSync(node, [packages/cli/dist/bin.js, "search", "--dir", tree, query])` from spawn to exit, ' +
      'interleaved run by run with the naive baseline script (`node bench/baseline-naive-search.mjs <tree> <query>`), ' +
      '`repomem search --help` and a bare `node -e ""`. The OS page cache is warm (the process is cold, the disk is not).',
    tables,
    goals,
    notes: [
      'What a cold query costs beyond the CLI entry (`--help` row) is loading the search bundle and the first search ' +
        'of a fresh process: the directory store reads every file once (`readAll`: bytes and version in one pass) and ' +
        'the engine analyses every document (JSON flattening, tokenising) before ranking; a CPU profile puts about ' +
        '105 ms of a 170 ms run in that analysis, about 14 ms in module loading. The warm table\'s "first query" rows ' +
        'measure the same work in-process.',
    ],
  };
}
