// Why: the local model is the default embedder and must work on a machine with no network: the
// loader is always given the packaged model (called without one, the runtime downloads it). One
// test embeds in a child process whose fetch, http(s), net, tls and dns all throw; another checks
// the vectors themselves (normalised, deterministic, paraphrases nearer than unrelated text).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createInMemoryStore, createSemanticIndex, openEmbedder } from '@repomem/core';
import { describe, expect, it } from 'vitest';
import { createLocalEmbedder, LOCAL_EMBEDDER_DIMENSIONS, LOCAL_EMBEDDER_ID } from '../src/index.js';

const run = promisify(execFile);
const dot = (left: Float32Array, right: Float32Array) =>
  left.reduce((sum, value, index) => sum + value * (right[index] as number), 0);

describe('local embedder', () => {
  it('loads the packaged model and embeds with networking disabled', async () => {
    const script = fileURLToPath(new URL('./no-network.mjs', import.meta.url));
    const entry = new URL('../dist/index.js', import.meta.url).href;
    const { stdout } = await run(process.execPath, [script, entry], { timeout: 60_000 });
    const result = JSON.parse(stdout) as { count: number; dimensions: number; length: number };
    expect(result.count).toBe(2);
    expect(result.dimensions).toBe(512);
    expect(result.length).toBeCloseTo(1, 5);
  });

  it('gives normalised, deterministic vectors where a paraphrase is nearer than unrelated text', async () => {
    const embedder = createLocalEmbedder();
    expect(embedder.id).toBe(LOCAL_EMBEDDER_ID);
    const [flaky, paraphrase, unrelated, again] = await embedder.embed([
      'The integration tests fail randomly on CI',
      'CI test runs are flaky and break intermittently',
      'Bake the bread at 220 degrees for forty minutes',
      'The integration tests fail randomly on CI',
    ]);
    expect(flaky).toHaveLength(LOCAL_EMBEDDER_DIMENSIONS);
    expect(dot(flaky as Float32Array, flaky as Float32Array)).toBeCloseTo(1, 5);
    expect(again).toEqual(flaky);
    expect(dot(flaky as Float32Array, paraphrase as Float32Array)).toBeGreaterThan(
      dot(flaky as Float32Array, unrelated as Float32Array) + 0.2,
    );
    expect(await embedder.embed([])).toEqual([]);
  });

  it('is what core opens for the spec "local" and indexes a store', async () => {
    const embedder = await openEmbedder('local');
    expect(embedder.id).toBe(LOCAL_EMBEDDER_ID);
    const store = createInMemoryStore();
    await store.write([
      {
        kind: 'put',
        path: 'MEMORY.md',
        content: new TextEncoder().encode(
          '# Memory\n\n- Deploys go through the staging cluster first\n- Use pnpm, never npm\n',
        ),
      },
    ]);
    const index = createSemanticIndex({ store, embedder });
    expect(await index.refresh()).toEqual({ embedded: 2, reused: 0, removed: 0 });
    const [hit] = await index.searchDocuments('how do we ship to production', { limit: 1 });
    expect(hit?.chunk).toBe('Memory\n- Deploys go through the staging cluster first');
  });
});
