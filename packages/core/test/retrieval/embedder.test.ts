// Why: the guard is what stands between a provider's answer and stored vectors: batches, retries
// of throttling only, and a loud error for a model that answers with another shape.
import { describe, expect, it } from 'vitest';
import { isRepomemError, RepomemError } from '../../src/errors.js';
import { createTestEmbedder, type Embedder, guardEmbedder, normalizeVector } from '../../src/retrieval/embedder.js';

function scripted(answers: Array<(texts: readonly string[]) => Float32Array[]>): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    id: 'scripted',
    dimensions: 2,
    calls,
    async embed(texts) {
      calls.push([...texts]);
      const next = answers.shift() ?? ((batch: readonly string[]) => batch.map(() => Float32Array.of(1, 0)));
      return next(texts);
    },
  };
}

describe('guardEmbedder', () => {
  it('splits calls into batches and keeps the order', async () => {
    const inner = scripted([]);
    const vectors = await guardEmbedder(inner, { batchSize: 2 }).embed(['a', 'b', 'c']);
    expect(inner.calls).toEqual([['a', 'b'], ['c']]);
    expect(vectors).toHaveLength(3);
  });

  it('retries throttling and outages, never configuration errors', async () => {
    const throttled = Object.assign(new Error('slow down'), { name: 'ThrottlingException' });
    const inner = scripted([
      () => {
        throw throttled;
      },
      () => {
        throw Object.assign(new Error('bad gateway'), { status: 502 });
      },
    ]);
    const retries: number[] = [];
    const guarded = guardEmbedder(inner, { minTimeoutMs: 1, onRetry: ({ attempt }) => retries.push(attempt) });
    expect(await guarded.embed(['x'])).toEqual([Float32Array.of(1, 0)]);
    expect(retries).toEqual([1, 2]);
    const denied = scripted([
      () => {
        throw Object.assign(new Error('denied'), { status: 401 });
      },
    ]);
    await expect(guardEmbedder(denied, { minTimeoutMs: 1 }).embed(['x'])).rejects.toThrow('denied');
    expect(denied.calls).toHaveLength(1);
    const mismatch = scripted([() => [Float32Array.of(1, 0, 0)]]);
    const error = await guardEmbedder(mismatch, { minTimeoutMs: 1 })
      .embed(['x'])
      .catch((caught: unknown) => caught);
    expect(isRepomemError(error, 'EMBEDDER_MISMATCH')).toBe(true);
    expect((error as RepomemError).details).toEqual({
      embedderId: 'scripted',
      expectedDimensions: 2,
      actualDimensions: 3,
    });
    expect(mismatch.calls).toHaveLength(1);
  });

  it('refuses a wrong count, non-finite values and a bad declaration', async () => {
    await expect(guardEmbedder(scripted([() => []])).embed(['x'])).rejects.toThrow(RepomemError);
    await expect(guardEmbedder(scripted([() => [Float32Array.of(Number.NaN, 0)]])).embed(['x'])).rejects.toThrow(
      'non-finite',
    );
    expect(() => guardEmbedder({ ...scripted([]), dimensions: 0 })).toThrow('invalid dimensions');
  });

  it('stops at an abort', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(guardEmbedder(scripted([])).embed(['x'], { signal: controller.signal })).rejects.toThrow('stop');
  });
});

describe('createTestEmbedder', () => {
  it('is deterministic and similar for shared words', async () => {
    const embedder = createTestEmbedder({ dimensions: 32 });
    const [a, b, c] = (await embedder.embed(['pnpm workspace', 'pnpm workspace', 'docker image'])).map(normalizeVector);
    expect(a).toEqual(b);
    const dot = (x: Float32Array, y: Float32Array) =>
      x.reduce((sum, value, index) => sum + value * (y[index] as number), 0);
    expect(dot(a as Float32Array, b as Float32Array)).toBeCloseTo(1, 5);
    expect(dot(a as Float32Array, c as Float32Array)).toBeLessThan(0.9);
  });
});
