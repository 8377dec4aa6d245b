// Why: an OpenAI-compatible service is reached only through its wire format: these tests run the
// real client against a loopback server that validates each request (model, inputs, key) the way
// the service would, throttles on demand, and answers out of order.
import { createInMemoryStore, createSemanticIndex, guardEmbedder, isRepomemError, openEmbedder } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOpenAiEmbedder } from '../src/index.js';
import { fakeVector, type Loopback, startLoopback } from './loopback.js';

const RequestSchema = z.strictObject({
  model: z.string().min(1),
  input: z.array(z.string()).min(1).max(2048),
  encoding_format: z.literal('float').optional(),
  dimensions: z.number().int().positive().optional(),
});

let server: Loopback;

beforeEach(async () => {
  server = await startLoopback(RequestSchema, ({ headers, body }) => {
    if (
      headers.authorization !== 'Bearer test-key' &&
      headers['api-key'] !== 'azure-key' &&
      headers.authorization !== undefined
    ) {
      return { status: 401, body: { error: { message: 'Incorrect API key provided' } } };
    }
    const dimensions = body.dimensions ?? 8;
    // Answer in reverse order: the client must place vectors by `index`.
    const data = body.input.map((text, index) => ({
      object: 'embedding',
      index,
      embedding: fakeVector(text, dimensions),
    }));
    return {
      status: 200,
      body: { object: 'list', model: body.model, data: data.reverse(), usage: { prompt_tokens: 1 } },
    };
  });
});

afterEach(async () => {
  await server.close();
});

describe('OpenAI-compatible embedder', () => {
  it('posts to <base>/embeddings with the key and model from the usual variables', async () => {
    const embedder = await createOpenAiEmbedder({
      model: 'nomic-embed-text',
      dimensions: 8,
      env: { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'test-key' },
    });
    expect(embedder.id).toBe('openai:nomic-embed-text@8');
    const vectors = await embedder.embed(['alpha', 'beta']);
    expect(vectors).toEqual([Float32Array.from(fakeVector('alpha', 8)), Float32Array.from(fakeVector('beta', 8))]);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/embeddings',
      body: { model: 'nomic-embed-text', input: ['alpha', 'beta'], encoding_format: 'float', dimensions: 8 },
    });
  });

  it('learns an unknown model dimension from one request, and uses Azure variables', async () => {
    const embedder = await createOpenAiEmbedder({
      model: 'my-deployment',
      env: { AZURE_OPENAI_ENDPOINT: `${server.url}/`, AZURE_OPENAI_API_KEY: 'azure-key' },
    });
    expect(embedder.dimensions).toBe(8);
    expect(server.requests[0]?.path).toBe('/openai/v1/embeddings');
    expect(server.requests[0]?.headers['api-key']).toBe('azure-key');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('is retried by the guard when throttled (429), not when the key is wrong (401)', async () => {
    const env = { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'test-key' };
    const embedder = guardEmbedder(
      await createOpenAiEmbedder({ model: 'text-embedding-3-small', dimensions: 8, env }),
      {
        minTimeoutMs: 1,
      },
    );
    server.failNext(2, {
      status: 429,
      headers: { 'retry-after': '0' },
      body: { error: { message: 'Rate limit reached' } },
    });
    expect(await embedder.embed(['gamma'])).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
    const wrong = guardEmbedder(
      await createOpenAiEmbedder({
        model: 'text-embedding-3-small',
        dimensions: 8,
        env: { ...env, OPENAI_API_KEY: 'bad' },
      }),
      { minTimeoutMs: 1 },
    );
    const error = await wrong.embed(['delta']).catch((caught: unknown) => caught);
    expect(isRepomemError(error, 'BACKEND_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toContain('Incorrect API key provided');
    expect((error as Error).message).not.toContain('bad');
    expect(server.requests).toHaveLength(4);
  });

  it('refuses an answer that does not match the request', async () => {
    const embedder = await createOpenAiEmbedder({
      model: 'text-embedding-3-small',
      dimensions: 8,
      env: { OPENAI_BASE_URL: `${server.url}/v1` },
    });
    server.failNext(1, { status: 200, body: { data: [{ index: 0, embedding: [1, 2] }] } });
    await expect(embedder.embed(['a', 'b'])).rejects.toMatchObject({ code: 'EMBEDDER_MISMATCH' });
  });

  it('opens through core for openai:<model> and indexes a store', async () => {
    const embedder = await openEmbedder('openai:text-embedding-3-small?dimensions=8', {
      env: { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'test-key' },
    });
    const store = createInMemoryStore();
    await store.write([{ kind: 'put', path: 'a.md', content: new TextEncoder().encode('- one\n- two\n') }]);
    expect(await createSemanticIndex({ store, embedder }).refresh()).toEqual({ embedded: 2, reused: 0, removed: 0 });
  });
});
