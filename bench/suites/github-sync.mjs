// Why: the mirror sync's promise is a few requests per thousand items and an incremental sync in
// a handful, where Sepo's sync makes one `gh` call per changed issue or pull request. This suite
// syncs a generated repository (5,000 issues and 2,000 pull requests with comments, reviews and
// files) from the loopback GitHub API with 30 ms of latency per request into a SQLite store,
// first in full and then after 50 changes, and counts Sepo's strategy on the same data: one REST
// listing page per 100 changed items, then one `gh issue view` / `gh pr view` per item (each at
// least one request), plus its discussion checks. Sepo's wall time is given as its latency floor
// (requests x 30 ms), not run: 7,000 sequential requests would take minutes on the shared machine.
//
//   node bench/suites/github-sync.mjs [--quick]   (also `node bench/run.mjs github-sync`)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { syncGitHubMirror } from '../../packages/github/dist/index.js';
import { generateRepository, startLoopbackGitHub } from '../../packages/github/dist/testing/index.js';
import { openSqliteStore } from '../../packages/store-sqlite/dist/index.js';
import { markdownTable } from '../lib/table.mjs';

const LATENCY_MS = 30;
const CHANGES = 50;
const GOAL_PER_THOUSAND = 30;
const GOAL_INCREMENTAL = 5;

/** Requests Sepo's sync makes for `issues` and `pulls` changed items (REST listing + one view per item + discussions). */
function sepoRequests(issues, pulls) {
  const listing = Math.max(1, Math.ceil((issues + pulls) / 100));
  // hasDiscussionsEnabled and one discussions page (the generated repository has none).
  return listing + issues + pulls + 2;
}

async function timedSync(options) {
  const started = process.hrtime.bigint();
  const result = await syncGitHubMirror(options);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 'complete') throw new Error(`sync interrupted: ${result.reason}: ${result.message}`);
  return { result, ms };
}

/** Run the suite; returns a section for bench/run.mjs. */
export async function runGitHubSync({ quick = false, log = () => {} } = {}) {
  const issues = quick ? 500 : 5_000;
  const pulls = quick ? 200 : 2_000;
  const root = mkdtempSync(join(tmpdir(), 'repomem-bench-sync-'));
  const github = await startLoopbackGitHub({ latencyMs: LATENCY_MS, rateLimit: { limit: 100_000 } });
  const store = await openSqliteStore({ path: join(root, 'memory.db'), repo: 'bench/app' });
  try {
    github.data.addRepository(
      generateRepository({
        owner: 'bench',
        name: 'app',
        issues,
        pullRequests: pulls,
        commentsPerItem: 3,
        reviewsPerPull: 2,
        filesPerPull: 3,
        seed: 42,
      }),
    );
    const options = { repo: 'bench/app', store, token: 'loopback-token', baseUrl: github.url, env: {} };
    log(`github-sync: first sync of ${issues} issues and ${pulls} pull requests`);
    const first = await timedSync(options);
    const firstCost = github.stats().cost;

    // 50 changes: 35 issues and 15 pull requests, spread over the repository.
    const data = github.data.repository('bench', 'app');
    const changedIssues = Math.round(CHANGES * 0.7);
    for (let index = 0; index < changedIssues; index += 1) {
      const issue = data.issues[Math.floor((index * data.issues.length) / changedIssues)];
      github.data.updateItem(
        { owner: 'bench', name: 'app', kind: 'issue', number: issue.number },
        { title: `changed ${index}` },
      );
    }
    for (let index = 0; index < CHANGES - changedIssues; index += 1) {
      const pull = data.pullRequests[Math.floor((index * data.pullRequests.length) / (CHANGES - changedIssues))];
      github.data.updateItem(
        { owner: 'bench', name: 'app', kind: 'pullRequest', number: pull.number },
        { title: `changed ${index}` },
      );
    }
    github.resetStats();
    log(`github-sync: incremental sync after ${CHANGES} changes`);
    const incremental = await timedSync(options);
    const incrementalCost = github.stats().cost;
    github.resetStats();
    const unchanged = await timedSync(options);

    const total = issues + pulls;
    const perThousand = (first.result.requests / total) * 1000;
    const sepoFirst = sepoRequests(issues, pulls);
    const sepoIncremental = sepoRequests(changedIssues, CHANGES - changedIssues);
    const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
    const rows = [
      [
        `first sync (${total.toLocaleString('en-US')} items)`,
        String(first.result.requests),
        perThousand.toFixed(1),
        String(firstCost),
        seconds(first.ms),
        String(sepoFirst),
        `≥ ${seconds(sepoFirst * LATENCY_MS)}`,
      ],
      [
        `incremental sync (${CHANGES} changed)`,
        String(incremental.result.requests),
        ((incremental.result.requests / CHANGES) * 1000).toFixed(0),
        String(incrementalCost),
        seconds(incremental.ms),
        String(sepoIncremental),
        `≥ ${seconds(sepoIncremental * LATENCY_MS)}`,
      ],
      [
        'sync with nothing changed',
        String(unchanged.result.requests),
        '-',
        String(github.stats().cost),
        seconds(unchanged.ms),
        String(sepoRequests(0, 0)),
        `≥ ${seconds(sepoRequests(0, 0) * LATENCY_MS)}`,
      ],
    ];
    return {
      id: 'github-sync',
      title: 'GitHub mirror sync (loopback GitHub API, 30 ms latency)',
      intro:
        `\`syncGitHubMirror\` (built package, real Octokit with its throttling and retry plugins) against the ` +
        `schema-validating loopback GitHub API from \`@repomem/github/testing\` with ${LATENCY_MS} ms per request, ` +
        `into a SQLite store: a generated repository of ${issues.toLocaleString('en-US')} issues and ` +
        `${pulls.toLocaleString('en-US')} pull requests (3 comments each; pull requests with 2 reviews and 3 files). ` +
        `Then ${changedIssues} issues and ${CHANGES - changedIssues} pull requests are updated and the sync runs again, ` +
        "then once more with nothing changed. Sepo's strategy is counted on the same data (one listing request per " +
        '100 changed items, one `gh ... view` per item, two discussion checks).',
      tables: [
        {
          caption: "Requests and wall time beside Sepo's one-request-per-item strategy",
          markdown: markdownTable(
            [
              'run',
              'requests',
              'per 1,000 items',
              'GraphQL points',
              'wall time',
              'Sepo requests',
              'Sepo wall time (latency floor)',
            ],
            rows,
          ),
        },
      ],
      goals: [
        {
          goal: `≤ ${GOAL_PER_THOUSAND} requests per 1,000 changed items (first sync)`,
          measured: `${perThousand.toFixed(1)}`,
          met: perThousand <= GOAL_PER_THOUSAND,
        },
        {
          goal: `incremental sync of ${CHANGES} changes in < ${GOAL_INCREMENTAL} requests`,
          measured: String(incremental.result.requests),
          met: incremental.result.requests < GOAL_INCREMENTAL,
        },
      ],
      notes: [
        `Files written: first sync ${first.result.changed.length}, incremental ${incremental.result.changed.length}, ` +
          `nothing changed ${unchanged.result.changed.length}.`,
        'Requests are HTTP requests as sent (retries included). Pages hold 100 issues or 50 pull requests with their ' +
          'first 20 comments, 20 reviews, 50 files and 20 labels; longer connections cost follow-up requests batched ' +
          'across items. Issues, pull requests and discussions share requests while each has pages left.',
        "The loopback API validates each query against GitHub's published schema and its node limit, and charges " +
          "GitHub's rate-limit cost (the points column).",
      ],
    };
  } finally {
    await store.close();
    await github.close();
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { renderSection } = await import('../lib/report.mjs');
  const section = await runGitHubSync({
    quick: process.argv.includes('--quick'),
    log: (line) => process.stderr.write(`[bench] ${line}\n`),
  });
  process.stdout.write(`${renderSection(section)}\n`);
}
