// Why: Bedrock is reached through the official SDK, which takes its endpoint and credentials from
// its own sources; these tests point it at a loopback server with AWS_ENDPOINT_URL_BEDROCK_RUNTIME
// and fake static keys, validate the InvokeModel bodies of Titan and Cohere with zod, and throttle
// with the service's ThrottlingException.
import { guardEmbedder, isRepomemError, openEmbedder } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createBedrockEmbedder } from '../src/index.js';
import { fakeVector, type Loopback, startLoopback } from './loopback.js';

const RequestSchema = z.union([
  z.strictObject({
    inputText: z.string().min(1),
    dimensions: z.union([z.literal(256), z.literal(512), z.literal(1024)]).optional(),
    normalize: z.boolean().optional(),
  }),
  z.strictObject({
    texts: z.array(z.string()).min(1).max(96),
    input_type: z.enum(['search_document', 'search_query', 'classification', 'clustering']),
    truncate: z.enum(['NONE', 'START', 'END']).optional(),
    embedding_types: z.array(z.literal('float')).optional(),
    output_dimension: z.number().int().optional(),
  }),
]);

let server: Loopback;

beforeEach(async () => {
  server = await startLoopback(
    RequestSchema,
    ({ path, headers, body }) => {
      if (!String(headers.authorization).startsWith('AWS4-HMAC-SHA256 Credential=AKIDLOOPBACK/')) {
        return {
          status: 403,
          headers: { 'x-amzn-errortype': 'UnrecognizedClientException' },
          body: { message: 'bad signature' },
        };
      }
      const modelId = decodeURIComponent(path.split('/')[2] ?? '');
      if ('inputText' in body)
        return {
          status: 200,
          body: { embedding: fakeVector(body.inputText, body.dimensions ?? 1536), inputTextTokenCount: 3 },
        };
      const vectors = body.texts.map((text) => fakeVector(text, 1024));
      return {
        status: 200,
        body: { id: modelId, response_type: 'embeddings_floats', texts: body.texts, embeddings: vectors },
      };
    },
    { http2: true },
  );
  vi.stubEnv('AWS_ENDPOINT_URL_BEDROCK_RUNTIME', server.url);
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDLOOPBACK');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'loopback-secret');
  vi.stubEnv('AWS_REGION', 'us-east-1');
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await server.close();
});

describe('Bedrock embedder', () => {
  it('invokes Titan Text v2 once per text through the endpoint the SDK resolves', async () => {
    const embedder = createBedrockEmbedder({ model: 'amazon.titan-embed-text-v2:0', dimensions: 256 });
    expect(embedder.id).toBe('bedrock:amazon.titan-embed-text-v2:0@256');
    const vectors = await embedder.embed(['first text', 'second text']);
    expect(vectors.map((vector) => vector.length)).toEqual([256, 256]);
    expect(vectors[1]).toEqual(Float32Array.from(fakeVector('second text', 256)));
    expect(server.requests.map((request) => request.path).sort()).toEqual([
      '/model/amazon.titan-embed-text-v2%3A0/invoke',
      '/model/amazon.titan-embed-text-v2%3A0/invoke',
    ]);
    expect(server.requests[0]?.body).toMatchObject({ dimensions: 256, normalize: true });
  });

  it('sends Cohere texts in one request and is retried on ThrottlingException', async () => {
    const embedder = guardEmbedder(await openEmbedder('bedrock:cohere.embed-english-v3'), { minTimeoutMs: 1 });
    server.failNext(1, {
      status: 429,
      headers: { 'x-amzn-errortype': 'ThrottlingException' },
      body: { message: 'Too many requests, please wait before trying again.' },
    });
    const vectors = await embedder.embed(['a', 'b', 'c']);
    expect(vectors).toHaveLength(3);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.body).toEqual({
      texts: ['a', 'b', 'c'],
      input_type: 'search_document',
      truncate: 'END',
    });
  });

  it('does not retry an access error and names the model', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDOTHER');
    const embedder = guardEmbedder(createBedrockEmbedder({ model: 'amazon.titan-embed-text-v1' }), { minTimeoutMs: 1 });
    const error = await embedder.embed(['x']).catch((caught: unknown) => caught);
    expect(isRepomemError(error, 'BACKEND_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toContain('amazon.titan-embed-text-v1');
    expect(server.requests).toHaveLength(1);
  });

  it('refuses an unknown model or a dimension the model cannot give', () => {
    expect(() => createBedrockEmbedder({ model: 'meta.llama3' })).toThrow('unsupported Bedrock embedding model');
    expect(() => createBedrockEmbedder({ model: 'amazon.titan-embed-text-v2:0', dimensions: 300 })).toThrow(
      '256, 512 or 1024',
    );
  });
});
