// Why: the directory store's port onto the store kit must not make it slower, and on a shared,
// loaded machine only a paired comparison in one process says so: two builds of @repomem/core and
// @repomem/store-fs (this checkout and an older worktree) run the same operations in turn, and the
// median of the per-pair ratios is reported (below 1: this checkout is faster).
//   node bench/store-fs-port.mjs <baseline worktree> <tree of many files> [runs]
// e.g. node bench/store-fs-port.mjs /work/baseline bench/.corpus/generated-20000
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [baselineRoot, tree, runsArg] = process.argv.slice(2);
if (baselineRoot === undefined || tree === undefined) {
  console.error('usage: node bench/store-fs-port.mjs <baseline worktree> <tree> [runs]');
  process.exit(2);
}
const runs = Number(runsArg ?? 15);
const load = async (root) => ({
  core: await import(join(resolve(root), 'packages/core/dist/index.js')),
  fs: await import(join(resolve(root), 'packages/store-fs/dist/index.js')),
});
const builds = { after: await load(new URL('..', import.meta.url).pathname), before: await load(baselineRoot) };
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const timed = async (work) => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};

/** Run `work(build, i)` for both builds in turn; print medians and the paired ratio. */
async function pair(label, count, warmup, work) {
  const after = [];
  const before = [];
  const ratios = [];
  for (let i = 0; i < count + warmup; i += 1) {
    const a = await timed(() => work('after', i));
    const b = await timed(() => work('before', i));
    if (i < warmup) continue;
    after.push(a);
    before.push(b);
    ratios.push(a / b);
  }
  console.log(
    `| ${label} | ${count} | ${median(after).toFixed(2)} | ${median(before).toFixed(2)} | ${median(ratios).toFixed(3)} |`,
  );
}

console.log('| operation | pairs | p50 ms after | p50 ms before | paired ratio after/before |');
console.log('|---|---|---|---|---|');
const big = {};
for (const name of ['after', 'before']) big[name] = await builds[name].fs.openDirectoryStore({ root: tree });
await pair(`revision() of ${tree}`, runs, 2, (name) => big[name].revision());
await pair(`list() of ${tree}`, runs, 2, (name) => big[name].list());
for (const store of Object.values(big)) await store.close();

const sections = Array.from({ length: 20 }, (_, index) => `Section ${index}`);
let memory = '# Memory\n';
for (const [s, section] of sections.entries()) {
  memory += `\n## ${section}\n`;
  for (let b = 0; b < 100; b += 1) memory += `- Bullet ${s}-${b} about the build and its tests (ref S${s}-B${b}).\n`;
}
const scratch = mkdtempSync(join(tmpdir(), 'repomem-store-fs-port-'));
try {
  const memories = {};
  for (const name of ['after', 'before']) {
    const root = join(scratch, name);
    const store = await builds[name].fs.openDirectoryStore({ root, create: true });
    writeFileSync(join(root, 'MEMORY.md'), memory);
    memories[name] = builds[name].core.openMemory({ store });
  }
  await pair('memory.add on a 2,000-bullet MEMORY.md', 240, 20, async (name, i) => {
    const outcome = await memories[name].add({
      file: 'MEMORY.md',
      section: sections[i % 20],
      text: `New bullet ${i}.`,
    });
    if (outcome.kind !== 'added') throw new Error(`add: ${outcome.kind}`);
  });
  await pair('memory.replace on the same file', 200, 20, async (name, i) => {
    const match = `(ref S${i % 20}-B${Math.floor(i / 20)})`;
    const outcome = await memories[name].replace({
      file: 'MEMORY.md',
      section: sections[i % 20],
      match,
      with: `Rewritten ${i}.`,
    });
    if (outcome.kind !== 'replaced') throw new Error(`replace: ${outcome.kind}`);
  });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
