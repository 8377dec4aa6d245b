// Why: the git store's bullet edit (the git-commit suite's operation) measured against another
// build of the store in ONE process on one repository, alternating sample by sample, so a noisy
// shared machine moves both sides alike. Both stores run under this checkout's core facade
// (`openMemory`), so the figure is the store's alone, not changes to core made in between. Each
// side's edit follows the other's commit, so both start from a tip they have not read yet.
//
//   node bench/git-store-ab.mjs <other store-git dist/index.js> [samples]
//   e.g. node bench/git-store-ab.mjs ../baseline/packages/store-git/dist/index.js 80
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openMemory } from '@repomem/core';
import { generateMemoryCorpus } from '@repomem/core/testing';
import { freshBenchRepository, git, singleCommitStream } from '../packages/store-git/bench/git-bench-repo.mjs';
import { openGitStore } from '../packages/store-git/dist/index.js';

const [otherPath, samplesArgument] = process.argv.slice(2);
if (otherPath === undefined) {
  console.error('usage: node bench/git-store-ab.mjs <other store-git dist/index.js> [samples]');
  process.exit(2);
}
const other = await import(pathToFileURL(resolve(otherPath)).href);
const samples = Number(samplesArgument ?? 80);
const warmup = 5;
const dir = freshBenchRepository();
const corpus = generateMemoryCorpus({ jsonFiles: 20_000, seed: 'store-git-bench' });
git(dir, ['fast-import', '--quiet'], singleCommitStream('refs/heads/agent/memory', corpus));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const durable of [false, true]) {
  const sides = [
    { name: 'other', memory: openMemory({ store: await other.openGitStore({ dir, durable }) }), wall: [], cpu: [] },
    { name: 'this', memory: openMemory({ store: await openGitStore({ dir, durable }) }), wall: [], cpu: [] },
  ];
  for (let i = 0; i < samples + warmup; i += 1) {
    for (const side of i % 2 === 0 ? sides : [...sides].reverse()) {
      const cpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      const outcome = await side.memory.add({
        file: 'MEMORY.md',
        section: 'Durable',
        text: `${side.name} ${durable} ${i}`,
      });
      const wall = Number(process.hrtime.bigint() - start) / 1e6;
      const used = process.cpuUsage(cpu);
      if (outcome.kind !== 'added') throw new Error(`${side.name}: ${JSON.stringify(outcome)}`);
      if (i < warmup) continue;
      side.wall.push(wall);
      side.cpu.push((used.user + used.system) / 1000);
    }
  }
  const [a, b] = sides;
  const figure = (key) =>
    `${key} p50 other ${median(a[key]).toFixed(2)} / this ${median(b[key]).toFixed(2)} ms (this/other ${(median(b[key]) / median(a[key])).toFixed(2)})`;
  console.log(`durable: ${durable}  ${figure('wall')}  ${figure('cpu')}  (${samples} samples each)`);
}
rmSync(dir, { recursive: true, force: true });
