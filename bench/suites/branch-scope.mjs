// Why: issue 26 sets a goal for branch scope: `recall` over 10,000 memories on a 5,000-commit
// history at a p50 under 20 ms. This suite builds that history with `git fast-import` (a main line
// of 4,000 commits, a `feature` branch of 1,000 off its middle, main checked out), loads two SQLite
// record backends of 10,000 memories citing a file at HEAD, and times `recall` (default limit 50)
// on main through the git reader, the two alternated in the same run:
//   - baseline: memories that record no `learned_on` (written before branch scope: no history asked);
//   - scoped: 40% learned on main, 30% on `feature` (out of scope on main), 20% on other branches at
//     main commits (abbreviated ids: in scope by ancestry), 10% without `learned_on`;
// plus the first recall of a new reader (the head's `git rev-list` included) and the scope
// decision alone over all 10,000 memories.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openVerifiedMemory, resolveBranchScope, scopeVerdicts, snippetHash } from '@repomem/core';
import { createSeededRandom } from '@repomem/core/testing';
import { createGitCitationReader } from '../../packages/store-git/dist/index.js';
import { openSqliteRecordBackend } from '../../packages/store-sqlite/dist/index.js';
import { elapsedMs, summarize, summarizeRatios } from '../lib/measure.mjs';
import { formatMs } from '../lib/table.mjs';

const MEMORIES = 10_000;
const COMMITS = 5_000;
const GOAL_MS = 20;
const REPO = 'bench/scope';
const LINES = Array.from({ length: 200 }, (_, index) => `export const VALUE_${index} = ${index};`);

/** A repository of `COMMITS` commits: main (80%) and `feature` (20%) forked from main's middle. */
function buildHistory(dir) {
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  const mainCount = Math.round(COMMITS * 0.8);
  const featureCount = COMMITS - mainCount;
  const forkAt = Math.round(mainCount / 2);
  const chunks = [];
  const app = `${LINES.join('\n')}\n`;
  let mark = 0;
  const commit = (branch, from, index) => {
    mark += 1;
    const message = `${branch} ${index}`;
    chunks.push(
      `commit refs/heads/${branch}\nmark :${mark}\ncommitter Bench <bench@example.com> ${1_700_000_000 + mark} +0000\n` +
        `data ${Buffer.byteLength(message)}\n${message}\n${from === undefined ? '' : `from :${from}\n`}` +
        `M 100644 inline src/app.ts\ndata ${Buffer.byteLength(app)}\n${app}\n` +
        `M 100644 inline log/${branch}.txt\ndata ${String(index).length + 1}\n${index}\n\n`,
    );
    return mark;
  };
  const mainMarks = [];
  let previous;
  for (let index = 0; index < mainCount; index++) {
    previous = commit('main', previous, index);
    mainMarks.push(previous);
  }
  let featurePrevious = mainMarks[forkAt];
  const featureMarks = [];
  for (let index = 0; index < featureCount; index++) {
    featurePrevious = commit('feature', featurePrevious, index);
    featureMarks.push(featurePrevious);
  }
  const marksFile = join(dir, '..', 'marks');
  execFileSync('git', ['fast-import', '--quiet', `--export-marks=${marksFile}`], { cwd: dir, input: chunks.join('') });
  execFileSync('git', ['checkout', '-q', '-f', 'main'], { cwd: dir });
  const marks = new Map(
    readFileSync(marksFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => {
        const [markText, sha] = line.split(' ');
        return [Number(markText.slice(1)), sha];
      }),
  );
  return { main: mainMarks.map((m) => marks.get(m)), feature: featureMarks.map((m) => marks.get(m)) };
}

function record(index, learned, at) {
  const line = (index % LINES.length) + 1;
  return {
    record: {
      id: `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
      repo: REPO,
      subject: `memory ${index}`,
      fact: `fact ${index} about src/app.ts`,
      scope: null,
      citations: [{ path: 'src/app.ts', line_start: line, line_end: line, snippet_hash: snippetHash(LINES[line - 1]) }],
      reason: null,
      created_by: null,
      created_at: at,
      refreshed_at: at,
      expires_at: new Date(Date.parse(at) + 30 * 86_400_000).toISOString(),
      status: 'active',
      superseded_by: null,
      supersedes: null,
      invalid_reason: null,
      verification_count: 0,
      revision: 1,
      ...(learned === undefined ? {} : { learned_on: learned }),
    },
    expectedRevision: null,
  };
}

async function load(backend, learnedOf) {
  const base = Date.now() - 86_400_000;
  const writes = [];
  for (let index = 0; index < MEMORIES; index++) {
    writes.push(record(index, learnedOf(index), new Date(base + index * 1000).toISOString()));
  }
  for (let offset = 0; offset < writes.length; offset += 1000) {
    const result = await backend.apply(writes.slice(offset, offset + 1000), []);
    if (!result.ok) throw new Error('loading memories failed');
  }
}

async function time(action) {
  const started = process.hrtime.bigint();
  const value = await action();
  return { value, ms: elapsedMs(started) };
}

/** Run the branch-scope benchmark; returns a report section. */
export async function runBranchScope({ quick, log }) {
  const runs = quick ? 11 : 61;
  const work = mkdtempSync(join(tmpdir(), 'repomem-scope-bench-'));
  const dir = join(work, 'repo');
  mkdirSync(dir);
  try {
    log(`branch-scope: building a ${COMMITS.toLocaleString('en-US')}-commit history with git fast-import`);
    const history = buildHistory(dir);
    const random = createSeededRandom('repomem-branch-scope');
    const pick = (list) => list[random.int(0, list.length - 1)];
    const plainBackend = openSqliteRecordBackend({ path: join(work, 'plain.db') });
    const scopedBackend = openSqliteRecordBackend({ path: join(work, 'scoped.db') });
    log(`branch-scope: loading ${MEMORIES.toLocaleString('en-US')} memories twice`);
    await load(plainBackend, () => undefined);
    const kinds = { main: 0, feature: 0, other: 0, none: 0 };
    await load(scopedBackend, () => {
      const roll = random.next();
      if (roll < 0.4) {
        kinds.main += 1;
        return { ref: 'main', commit: pick(history.main) };
      }
      if (roll < 0.7) {
        kinds.feature += 1;
        return { ref: 'feature', commit: pick(history.feature) };
      }
      if (roll < 0.9) {
        kinds.other += 1;
        return { ref: `topic/${random.int(1, 50)}`, commit: pick(history.main).slice(0, 12) };
      }
      kinds.none += 1;
      return undefined;
    });

    // Each recall refreshes what it serves (newest first next time), as in use: after the first
    // call the scoped recall meets few memories out of scope; the first one meets the loaded mix.
    const firstPlain = await time(() =>
      openVerifiedMemory({ backend: plainBackend, citations: createGitCitationReader({ dir }) }).recall(REPO),
    );
    const firstScoped = await time(() =>
      openVerifiedMemory({ backend: scopedBackend, citations: createGitCitationReader({ dir }) }).recall(REPO),
    );
    const reader = createGitCitationReader({ dir });
    const plain = openVerifiedMemory({ backend: plainBackend, citations: reader });
    const scoped = openVerifiedMemory({ backend: scopedBackend, citations: reader });
    const plainMs = [];
    const scopedMs = [];
    for (let run = 0; run < runs + 3; run++) {
      // Alternated, so both see the same machine load; the first 3 pairs warm up.
      const a = await time(() => plain.recall(REPO));
      const b = await time(() => scoped.recall(REPO));
      if (b.value.memories.length !== 50) throw new Error(`scoped recall served ${b.value.memories.length}`);
      if (run >= 3) {
        plainMs.push(a.ms);
        scopedMs.push(b.ms);
      }
    }
    const all = await scopedBackend.recent({ repo: REPO, statuses: ['active'] });
    const scope = await resolveBranchScope({}, reader, REPO);
    const decideCold = await time(() => scopeVerdicts(all, scope, createGitCitationReader({ dir }), REPO));
    const decideWarm = [];
    for (let run = 0; run < runs; run++)
      decideWarm.push((await time(() => scopeVerdicts(all, scope, reader, REPO))).ms);
    const inScope = decideCold.value.filter((verdict) => verdict.kind === 'in_scope').length;
    await plain.close();
    await scoped.close();

    const plainStats = summarize(plainMs);
    const scopedStats = summarize(scopedMs);
    const one = (ms) => summarize([ms]);
    const baselineLabel = '`recall`, memories without `learned_on` (no scope question)';
    return {
      title: `Branch scope: \`recall\` over ${MEMORIES.toLocaleString('en-US')} memories on a ${COMMITS.toLocaleString('en-US')}-commit history (SQLite, git reader)`,
      intro:
        `A generated repository (\`git fast-import\`): main ${history.main.length.toLocaleString('en-US')} commits, \`feature\` ` +
        `${history.feature.length.toLocaleString('en-US')} commits off main's middle; main checked out. The scoped store's ` +
        `\`learned_on\`: ${kinds.main} on main, ${kinds.feature} on \`feature\` (out of scope on main), ${kinds.other} on ` +
        `other branches at main commits (12-digit abbreviations, in scope by ancestry), ${kinds.none} without; ` +
        `${inScope.toLocaleString('en-US')} of ${all.length.toLocaleString('en-US')} are in scope on main. \`recall\` ` +
        'verifies and refreshes the 50 newest memories in scope (one write for all); the baseline is the same recall over ' +
        'memories that record no `learned_on`, alternated with it in the same run.',
      tables: [
        {
          caption: 'recall on main (default limit 50), the history cached by head commit',
          rows: [
            { kind: 'baseline', label: baselineLabel, stats: plainStats },
            {
              kind: 'repomem',
              label: '`recall` in branch scope',
              stats: scopedStats,
              baseline: baselineLabel,
              paired: summarizeRatios(scopedMs, plainMs),
            },
          ],
        },
        {
          caption: 'first call of a new reader, and the scope decision alone',
          rows: [
            { kind: 'reference', label: 'first `recall`, new reader, no `learned_on`', stats: one(firstPlain.ms) },
            {
              kind: 'reference',
              label: `first \`recall\` in branch scope, new reader (\`git rev-list\` of ${history.main.length.toLocaleString('en-US')} commits; ${firstScoped.value.outOfScope} passed over)`,
              stats: one(firstScoped.ms),
            },
            {
              kind: 'reference',
              label: `scope decision over all ${all.length.toLocaleString('en-US')} memories, new reader`,
              stats: one(decideCold.ms),
            },
            {
              kind: 'reference',
              label: `scope decision over all ${all.length.toLocaleString('en-US')} memories, history cached`,
              stats: summarize(decideWarm),
            },
          ],
        },
      ],
      goals: [
        {
          goal: `\`recall\` with branch scope, ${MEMORIES.toLocaleString('en-US')} memories, ${COMMITS.toLocaleString('en-US')} commits: p50 < ${GOAL_MS} ms`,
          measured: `${formatMs(scopedStats.p50)} ms (without scope ${formatMs(plainStats.p50)} ms)`,
          met: scopedStats.p50 < GOAL_MS,
        },
      ],
      notes: [
        'The history of a head is one `git rev-list <head>` per reader and head commit (cached); each memory learned on ' +
          'another branch is then a set lookup (abbreviated ids by binary search over the sorted ids).',
        'Out-of-scope memories are read in growing pages (limit, 4x, 16x...) until 50 in scope are found, and are never ' +
          'verified or changed.',
      ],
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
