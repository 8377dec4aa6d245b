// Why: promotion and quarantine (issue 26 item 3) run once per closed pull request and walk every
// verified memory of the repository to find those learned on the branch. This measures what that
// costs in a SQLite record backend of 10,000 memories: promoting a branch's 100 memories (one
// compare-and-swap write each), running it again (idempotent: the scan alone), quarantining a
// branch's 100, against a baseline measured in the same run: the full scan alone
// (`backend.recent({repo})`), which every run must pay.
//
//   node bench/promotion.mjs [--memories=10000] [--branches=20] [--per-branch=100]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promoteBranchMemories, quarantineBranchMemories } from '../packages/core/dist/index.js';
import { openSqliteRecordBackend } from '../packages/store-sqlite/dist/index.js';

const REPO = 'bench/promotion';
const option = (name, fallback) => {
  const arg = process.argv.find((item) => item.startsWith(`--${name}=`));
  return arg === undefined ? fallback : Number(arg.slice(name.length + 3).replace(/_/g, ''));
};
const MEMORIES = option('memories', 10_000);
const BRANCHES = option('branches', 20);
const PER_BRANCH = option('per-branch', 100);

const work = mkdtempSync(join(tmpdir(), 'repomem-promotion-bench-'));
const backend = openSqliteRecordBackend({ path: join(work, 'memories.db') });
const hex = (n, width) => n.toString(16).padStart(width, '0');

function memory(n, learnedOn) {
  const at = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
  return {
    id: `00000000-0000-4000-8000-${hex(n, 12)}`,
    repo: REPO,
    subject: `Subject ${n}`,
    fact: `Fact ${n}: the module keeps its settings in one place.`,
    scope: null,
    citations: [{ path: `src/module-${n % 500}.ts`, line_start: 1 + (n % 40), line_end: 2 + (n % 40) }],
    reason: null,
    created_by: null,
    created_at: at,
    refreshed_at: at,
    expires_at: '2027-01-01T00:00:00.000Z',
    status: 'active',
    superseded_by: null,
    supersedes: null,
    invalid_reason: null,
    verification_count: 0,
    revision: 1,
    ...(learnedOn === undefined ? {} : { learned_on: learnedOn }),
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function time(work) {
  const start = performance.now();
  const result = await work();
  return { ms: performance.now() - start, result };
}

try {
  const onBranches = BRANCHES * PER_BRANCH * 2; // half promoted, half quarantined
  const records = [];
  for (let n = 0; n < MEMORIES; n += 1) {
    const branch = n < onBranches ? Math.floor(n / PER_BRANCH) : undefined;
    records.push(memory(n, branch === undefined ? undefined : { commit: hex(n, 40), ref: `feature/b-${branch}` }));
  }
  for (let from = 0; from < records.length; from += 500) {
    const result = await backend.apply(
      records.slice(from, from + 500).map((record) => ({ record, expectedRevision: null })),
      [],
    );
    if (!result.ok) throw new Error('seeding conflicted');
  }
  const samples = { scan: [], promote: [], again: [], quarantine: [] };
  for (let branch = 0; branch < BRANCHES; branch += 1) {
    samples.scan.push((await time(() => backend.recent({ repo: REPO }))).ms);
    const options = {
      repo: REPO,
      verified: backend,
      ref: `feature/b-${branch}`,
      mergeCommit: hex(branch + 1, 40),
      defaultBranch: 'main',
    };
    const promoted = await time(() => promoteBranchMemories(options));
    if (promoted.result.promoted.length !== PER_BRANCH) throw new Error('promoted the wrong number');
    samples.promote.push(promoted.ms);
    const again = await time(() => promoteBranchMemories(options));
    if (again.result.promoted.length !== 0) throw new Error('promotion was not idempotent');
    samples.again.push(again.ms);
    const quarantined = await time(() =>
      quarantineBranchMemories({ repo: REPO, verified: backend, ref: `feature/b-${BRANCHES + branch}` }),
    );
    if (quarantined.result.quarantined.length !== PER_BRANCH) throw new Error('quarantined the wrong number');
    samples.quarantine.push(quarantined.ms);
  }
  const base = median(samples.scan);
  const row = (name, values, kind) =>
    `| ${name} | ${kind} | ${values.length} | ${median(values).toFixed(1)} | ${kind === 'baseline' ? '' : `${(median(values) / base).toFixed(2)}x`} |`;
  console.log(
    `${MEMORIES} memories in SQLite, ${BRANCHES} branches promoted and ${BRANCHES} quarantined, ${PER_BRANCH} memories each`,
  );
  console.log('| case | kind | n | p50 ms | p50 vs baseline |');
  console.log('|---|---|---|---|---|');
  console.log(row('full scan `recent({repo})` (what every run reads)', samples.scan, 'baseline'));
  console.log(
    row(`promote a branch's ${PER_BRANCH} memories (no reader: not re-verified)`, samples.promote, 'repomem'),
  );
  console.log(row('promote the same branch again (idempotent: nothing written)', samples.again, 'repomem'));
  console.log(row(`quarantine a branch's ${PER_BRANCH} memories`, samples.quarantine, 'repomem'));
} finally {
  await backend.close();
  rmSync(work, { recursive: true, force: true });
}
