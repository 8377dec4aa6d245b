// Why: records (without asserting: no timing assertions in tests) the latency of the pure `add` on a
// MEMORY.md of 2,000 bullets in 20 sections; the goal is a p50 under 2 ms in the library.
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { addBullet } from '../../src/markdown/operations.js';
import { openMemory } from '../../src/memory/facade.js';
import { createInMemoryStore } from '../../src/store/memory-store.js';

function largeMemory(sections: number, bulletsPerSection: number): string {
  const lines = ['# Memory', ''];
  for (let section = 0; section < sections; section += 1) {
    lines.push(`## Section ${section}`);
    for (let bullet = 0; bullet < bulletsPerSection; bullet += 1) {
      lines.push(`- Convention ${section}.${bullet}: keep workflows thin and move API logic into typed helpers`);
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

function percentiles(samples: number[]): string {
  samples.sort((a, b) => a - b);
  const p50 = samples[Math.floor(samples.length * 0.5)]!;
  const p95 = samples[Math.floor(samples.length * 0.95)]!;
  return `p50 ${p50.toFixed(3)} ms, p95 ${p95.toFixed(3)} ms`;
}

describe('add on 2,000 bullets (measurement only)', () => {
  it('reports p50 / p95 over 200 runs', () => {
    const text = largeMemory(20, 100);
    for (let warm = 0; warm < 50; warm += 1)
      addBullet(text, { file: 'MEMORY.md', section: 'Section 10', text: `w${warm}` });
    const samples: number[] = [];
    for (let run = 0; run < 200; run += 1) {
      const started = performance.now();
      const result = addBullet(text, { file: 'MEMORY.md', section: 'section 10', text: `New bullet ${run}` });
      samples.push(performance.now() - started);
      expect(result.outcome.kind).toBe('added');
    }
    console.info(`pure add, 2,000 bullets / 20 sections: ${percentiles(samples)}`);
  });

  it('reports the facade add over the in-memory store (decode, add, encode, hash, write)', async () => {
    const store = createInMemoryStore({ initialDocuments: { 'MEMORY.md': largeMemory(20, 100) } });
    const memory = openMemory({ store });
    const samples: number[] = [];
    for (let run = 0; run < 200; run += 1) {
      const started = performance.now();
      const outcome = await memory.add({ file: 'MEMORY.md', section: 'Section 10', text: `Facade bullet ${run}` });
      samples.push(performance.now() - started);
      expect(outcome.kind).toBe('added');
    }
    console.info(`facade add (in-memory store), 2,000+ bullets: ${percentiles(samples)}`);
  });
});
