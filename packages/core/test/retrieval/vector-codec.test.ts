// Why: stored vectors are int8 with one scale; the docs promise the cosine moves by < 0.01 and
// that a shard round-trips exactly. An interrupted refresh must keep what it embedded.
import { describe, expect, it } from 'vitest';
import { isRepomemError } from '../../src/errors.js';
import { createTestEmbedder, type Embedder, normalizeVector } from '../../src/retrieval/embedder.js';
import { createSemanticIndex } from '../../src/retrieval/semantic-index.js';
import {
  cosineToStored,
  decodeVectorShard,
  encodeVectorShard,
  quantizeVector,
} from '../../src/retrieval/vector-codec.js';
import { createInMemoryStore } from '../../src/store/memory-store.js';

function randomVector(seed: number, dimensions: number): Float32Array {
  let state = seed;
  return Float32Array.from({ length: dimensions }, () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state / 2 ** 32) * 2 - 1;
  });
}

describe('vector codec', () => {
  it('keeps cosine similarity within 0.01 and round-trips a shard exactly', () => {
    const hashes = ['00'.repeat(16), 'ab'.repeat(16), 'ff'.repeat(16)];
    const vectors = hashes.map((hash, index) => quantizeVector(hash, randomVector(index + 1, 512)));
    for (let index = 0; index < 20; index += 1) {
      const query = normalizeVector(randomVector(100 + index, 512));
      const exact = normalizeVector(randomVector(1, 512)).reduce(
        (sum, value, i) => sum + value * (query[i] as number),
        0,
      );
      expect(Math.abs(cosineToStored(query, vectors[0] as (typeof vectors)[0]) - exact)).toBeLessThan(0.01);
    }
    const decoded = decodeVectorShard(encodeVectorShard(512, [...vectors].reverse()), 'x.bin');
    expect(decoded.dimensions).toBe(512);
    expect(decoded.vectors.map((vector) => vector.hash)).toEqual(hashes);
    expect(decoded.vectors.map((vector) => [...vector.values])).toEqual(vectors.map((vector) => [...vector.values]));
    const error = (() => {
      try {
        decodeVectorShard(new Uint8Array([1, 2, 3]), 'bad.bin');
      } catch (caught) {
        return caught;
      }
    })();
    expect(isRepomemError(error, 'INVALID_DOCUMENT')).toBe(true);
  });

  it('keeps the vectors embedded before a refresh was aborted', async () => {
    const store = createInMemoryStore();
    const bullets = Array.from({ length: 40 }, (_, index) => `- note number ${index} about topic ${index * 7}`).join(
      '\n',
    );
    await store.write([
      { kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode(`# Notes\n\n${bullets}\n`) },
    ]);
    const controller = new AbortController();
    const inner = createTestEmbedder();
    let calls = 0;
    const stopping: Embedder = {
      id: inner.id,
      dimensions: inner.dimensions,
      async embed(texts, options) {
        calls += 1;
        if (calls === 3) controller.abort(new Error('stop'));
        return inner.embed(texts, options);
      },
    };
    await expect(
      createSemanticIndex({ store, embedder: stopping }).refresh({ signal: controller.signal }),
    ).rejects.toThrow('stop');
    // Two batches of 16 were stored; the batch in flight when the signal fired is discarded.
    const resumed = await createSemanticIndex({ store, embedder: inner }).refresh();
    expect(resumed).toEqual({ embedded: 40 - 32, reused: 32, removed: 0 });
  });
});
