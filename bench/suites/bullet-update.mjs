// Why: agents edit MEMORY.md one bullet at a time, often on a file that has grown large; each
// edit must stay cheap. This suite times `memory.add` and `memory.replace` through `openMemory`
// on a 2,000-bullet MEMORY.md over the in-memory and directory stores, next to a naive plain-fs
// read-modify-write and the bare text edit, all in the same run.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInMemoryStore, openMemory } from '@repomem/core';
import { createSeededRandom } from '@repomem/core/testing';
import { openDirectoryStore } from '@repomem/store-fs';
import { naiveAddBullet, naiveAddToText, naiveReplaceBullet, naiveReplaceInText } from '../baseline-naive-update.mjs';
import { summarize, timeRepeated } from '../lib/measure.mjs';
import { formatMs } from '../lib/table.mjs';

const UPDATE_GOAL_MS = 2;
const SECTIONS = [
  'Durable',
  'Conventions',
  'Gotchas',
  'Open questions',
  'Build',
  'Testing',
  'Release',
  'CI',
  'Security',
  'Performance',
  'Search',
  'Storage',
  'CLI',
  'Prompts',
  'Policies',
  'Sync',
  'Review',
  'Docs',
  'Tooling',
  'Decisions',
];
const BULLETS_PER_SECTION = 100;
const WORDS = (
  'workflow agent memory review dispatch prompt policy sync rubrics scheduler planner triage mirror cursor ' +
  'installer labels runtime envelope handoff sandbox webhook tokenizer snapshot ledger fix add update remove ' +
  'document validate retry cache migrate rename branch comment token state summary lock file exit code ' +
  'rate limit session thread key merge queue the and to of in is that should keep only when before after'
).split(' ');

/** A deterministic MEMORY.md of 20 sections x 100 bullets; each bullet carries a unique `ref Sss-Bbbb` tag. */
export function buildLargeMemory(seed = 'repomem-bench-memory') {
  const random = createSeededRandom(seed);
  const sentence = () => {
    const words = Array.from({ length: random.int(8, 18) }, () => random.skewed(WORDS));
    const text = words.join(' ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  };
  const parts = ['# Memory', ''];
  SECTIONS.forEach((section, s) => {
    parts.push(`## ${section}`);
    for (let b = 0; b < BULLETS_PER_SECTION; b++) parts.push(`- ${sentence()} (ref ${tag(s, b)}).`);
    parts.push('');
  });
  return { text: `${parts.join('\n').trimEnd()}\n`, sentence };
}

function tag(section, bullet) {
  return `S${String(section).padStart(2, '0')}-B${String(bullet).padStart(3, '0')}`;
}

/** Inputs for iteration `i`: a new bullet for add, and a distinct existing bullet for replace. */
function addInput(i, sentence) {
  return { file: 'MEMORY.md', section: SECTIONS[i % SECTIONS.length], text: `${sentence()} (new ${i}).` };
}
function replaceInput(i, sentence) {
  const s = i % SECTIONS.length;
  const b = Math.floor(i / SECTIONS.length) % BULLETS_PER_SECTION;
  return { file: 'MEMORY.md', section: SECTIONS[s], match: `ref ${tag(s, b)})`, with: `${sentence()} (rev ${i}).` };
}

function expectKind(outcome, kind) {
  if (outcome.kind !== kind) throw new Error(`expected ${kind}, got ${JSON.stringify(outcome)}`);
}

/** Run the bullet update benchmark; returns a report section. */
export async function runBulletUpdate({ quick, log }) {
  const { text: initial, sentence } = buildLargeMemory();
  const bulletCount = initial.split('\n').filter((line) => line.startsWith('- ')).length;
  const iterations = { memory: quick ? 100 : 400, directory: quick ? 50 : 200, naive: quick ? 100 : 400 };
  const warmup = 20;
  // Replace walks distinct bullets; keep warmup + iterations within the 2,000 that exist.
  const scratch = mkdtempSync(join(tmpdir(), 'repomem-bench-update-'));
  const rows = { add: [], replace: [] };
  try {
    log(`bullet update: in-memory store (${bulletCount} bullets)`);
    const memoryStore = createInMemoryStore({ initialDocuments: { 'MEMORY.md': initial } });
    const memory = openMemory({ store: memoryStore });
    const memoryAdd = await timeRepeated(async (i) => expectKind(await memory.add(addInput(i, sentence)), 'added'), {
      iterations: iterations.memory,
      warmup,
    });
    const memoryReplace = await timeRepeated(
      async (i) => expectKind(await memory.replace(replaceInput(i, sentence)), 'replaced'),
      { iterations: iterations.memory, warmup },
    );
    await memoryStore.close();

    log('bullet update: directory store');
    const directoryRoot = join(scratch, 'directory-store');
    const directoryStore = await openDirectoryStore({ root: directoryRoot, create: true });
    writeFileSync(join(directoryRoot, 'MEMORY.md'), initial);
    const directoryMemory = openMemory({ store: directoryStore });
    const directoryAdd = await timeRepeated(
      async (i) => expectKind(await directoryMemory.add(addInput(i, sentence)), 'added'),
      { iterations: iterations.directory, warmup },
    );
    const directoryReplace = await timeRepeated(
      async (i) => expectKind(await directoryMemory.replace(replaceInput(i, sentence)), 'replaced'),
      { iterations: iterations.directory, warmup },
    );
    await directoryStore.close();

    log('bullet update: naive baselines');
    const naiveFile = join(scratch, 'naive-MEMORY.md');
    writeFileSync(naiveFile, initial);
    const naiveFsAdd = await timeRepeated(
      (i) => {
        const input = addInput(i, sentence);
        naiveAddBullet(naiveFile, input.section, input.text);
      },
      { iterations: iterations.naive, warmup },
    );
    const naiveFsReplace = await timeRepeated(
      (i) => {
        const input = replaceInput(i, sentence);
        naiveReplaceBullet(naiveFile, input.section, input.match, input.with);
      },
      { iterations: iterations.naive, warmup },
    );
    let text = initial;
    const naiveTextAdd = await timeRepeated(
      (i) => {
        const input = addInput(i, sentence);
        text = naiveAddToText(text, input.section, input.text);
      },
      { iterations: iterations.naive, warmup },
    );
    const naiveTextReplace = await timeRepeated(
      (i) => {
        const input = replaceInput(i, sentence);
        text = naiveReplaceInText(text, input.section, input.match, input.with);
      },
      { iterations: iterations.naive, warmup },
    );

    for (const [operation, samples] of [
      ['add', { memory: memoryAdd, directory: directoryAdd, fs: naiveFsAdd, text: naiveTextAdd }],
      ['replace', { memory: memoryReplace, directory: directoryReplace, fs: naiveFsReplace, text: naiveTextReplace }],
    ]) {
      const fsLabel = `naive fs read-modify-write ${operation} (baseline)`;
      rows[operation] = [
        {
          label: `memory.${operation}, in-memory store`,
          kind: 'repomem',
          stats: summarize(samples.memory),
          baseline: fsLabel,
        },
        {
          label: `memory.${operation}, directory store`,
          kind: 'repomem',
          stats: summarize(samples.directory),
          baseline: fsLabel,
        },
        { label: fsLabel, kind: 'baseline', stats: summarize(samples.fs) },
        { label: `naive string ${operation}, no I/O`, kind: 'reference', stats: summarize(samples.text) },
      ];
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const goals = ['add', 'replace'].map((operation) => {
    const stats = rows[operation][0].stats;
    return {
      goal: `bullet ${operation} on a ${bulletCount.toLocaleString('en-US')}-bullet MEMORY.md, library (in-memory store) p50 < ${UPDATE_GOAL_MS} ms`,
      measured: `p50 ${formatMs(stats.p50)} ms, p95 ${formatMs(stats.p95)} ms`,
      met: stats.p50 < UPDATE_GOAL_MS,
    };
  });
  const directoryAdd = rows.add[1].stats;
  goals.push({
    goal: `(directory store, not a stated goal) bullet add p50 < ${UPDATE_GOAL_MS} ms`,
    measured: `p50 ${formatMs(directoryAdd.p50)} ms, p95 ${formatMs(directoryAdd.p95)} ms`,
    met: directoryAdd.p50 < UPDATE_GOAL_MS,
  });
  return {
    id: 'update',
    title: 'Bullet update on a 2,000-bullet MEMORY.md',
    intro:
      `MEMORY.md with ${SECTIONS.length} sections x ${BULLETS_PER_SECTION} bullets (${(initial.length / 1024).toFixed(0)} KiB). ` +
      'Each `add` sample inserts a new distinct bullet into a rotating section (the file grows by one bullet per ' +
      `sample, ${warmup} warmup samples first); each \`replace\` sample rewrites a different existing bullet matched ` +
      'by its unique `ref Sss-Bbbb` tag. Outcomes are checked (`added` / `replaced`) on every call.',
    tables: [
      { caption: '`add` of a new bullet', rows: rows.add },
      { caption: '`replace` of an existing bullet', rows: rows.replace },
    ],
    goals,
    notes: [
      'The directory store does what Sepo does and more on every write: a `<file>.lock` (O_EXCL), re-read and SHA-256 ' +
        'of the file under the lock to check the expected version, a temp file that is fsynced, rename, and a directory ' +
        'fsync. The naive fs baseline does none of that (no lock, no fsync, not atomic), so it is a floor, not a peer.',
      'The in-memory store hashes the new content (SHA-256) on each write, like every store, for compare-and-swap versions.',
    ],
  };
}
