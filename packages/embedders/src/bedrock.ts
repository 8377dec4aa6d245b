// Why: Amazon Bedrock's embedding models (Titan Text Embeddings, Cohere Embed) for teams whose
// memory already lives in AWS. The official SDK client resolves region, credentials (profiles,
// SSO, roles) and the endpoint (`AWS_ENDPOINT_URL_BEDROCK_RUNTIME`) from its own sources; its own
// retries are off, because core's embedder guard retries throttling once for every provider. The
// SDK loads only when the first text is embedded.
import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { type Embedder, type EmbedOptions, RepomemError } from '@repomem/core';
import { z } from 'zod';
import { embeddingFailure } from './http-error.js';

/** Options of {@link createBedrockEmbedder}. */
export interface BedrockEmbedderOptions {
  /** Model id, e.g. `amazon.titan-embed-text-v2:0`, `cohere.embed-english-v3`, `cohere.embed-v4:0`. */
  readonly model: string;
  /** Region (default: the SDK's: `AWS_REGION`, the profile). */
  readonly region?: string;
  /** Titan Text v2 output size: 256, 512 or 1024 (default 1024); Cohere v4: 256, 512, 1024 or 1536. */
  readonly dimensions?: number;
  /** A client to use instead of a new one (tests, shared configuration). */
  readonly client?: BedrockRuntimeClient;
}

const TitanAnswer = z.object({ embedding: z.array(z.number()) });
const CohereAnswer = z.object({
  embeddings: z.union([z.array(z.array(z.number())), z.object({ float: z.array(z.array(z.number())) })]),
});

interface Family {
  readonly dimensions: number;
  /** Texts per request. */
  readonly batch: number;
  body(texts: readonly string[]): Record<string, unknown>;
  parse(json: unknown, count: number): number[][];
}

function familyOf(model: string, requested: number | undefined): Family {
  const name = model.replace(/^[a-z]{2}\./, ''); // cross-region inference profiles: us.cohere.embed-v4:0
  if (name.startsWith('amazon.titan-embed-text-v2')) {
    const dimensions = requested ?? 1024;
    if (![256, 512, 1024].includes(dimensions)) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `Titan Text Embeddings v2 gives 256, 512 or 1024 dimensions, not ${dimensions}`,
      );
    }
    return {
      dimensions,
      batch: 1,
      body: ([text]) => ({ inputText: text, dimensions, normalize: true }),
      parse: (json) => [TitanAnswer.parse(json).embedding],
    };
  }
  if (name.startsWith('amazon.titan-embed')) {
    return {
      dimensions: requested ?? 1536,
      batch: 1,
      body: ([text]) => ({ inputText: text }),
      parse: (json) => [TitanAnswer.parse(json).embedding],
    };
  }
  if (name.startsWith('cohere.embed')) {
    const v4 = name.startsWith('cohere.embed-v4');
    const dimensions = requested ?? (v4 ? 1536 : 1024);
    return {
      dimensions,
      batch: 96,
      body: (texts) => ({
        texts,
        input_type: 'search_document',
        truncate: 'END',
        ...(v4 ? { embedding_types: ['float'], output_dimension: dimensions } : {}),
      }),
      parse: (json, count) => {
        const { embeddings } = CohereAnswer.parse(json);
        const vectors = Array.isArray(embeddings) ? embeddings : embeddings.float;
        if (vectors.length !== count)
          throw new RepomemError('EMBEDDER_MISMATCH', `Cohere answered ${vectors.length} vectors for ${count} texts`);
        return vectors;
      },
    };
  }
  throw new RepomemError(
    'INVALID_ARGUMENT',
    `unsupported Bedrock embedding model "${model}" (amazon.titan-embed-text-v2:0, amazon.titan-embed-text-v1, cohere.embed-english-v3, cohere.embed-multilingual-v3, cohere.embed-v4:0)`,
  );
}

/**
 * An embedder over Bedrock `InvokeModel`. Throttling (`ThrottlingException`) and service errors
 * reach core's guard with their SDK names, so they are retried; access errors are not.
 *
 * @example
 * ```ts
 * const embedder = createBedrockEmbedder({ model: 'amazon.titan-embed-text-v2:0', region: 'us-east-1' });
 * ```
 */
export function createBedrockEmbedder(options: BedrockEmbedderOptions): Embedder {
  const model = options.model.trim();
  if (model === '')
    throw new RepomemError('INVALID_ARGUMENT', 'the bedrock embedder needs a model: bedrock:<model id>');
  const family = familyOf(model, options.dimensions);
  let client:
    | Promise<{
        client: BedrockRuntimeClient;
        Command: typeof import('@aws-sdk/client-bedrock-runtime').InvokeModelCommand;
      }>
    | undefined;
  const connect = () => {
    client ??= import('@aws-sdk/client-bedrock-runtime').then((sdk) => ({
      client:
        options.client ??
        new sdk.BedrockRuntimeClient({
          maxAttempts: 1,
          ...(options.region === undefined ? {} : { region: options.region }),
        }),
      Command: sdk.InvokeModelCommand,
    }));
    return client;
  };
  const invoke = async (texts: readonly string[], signal: AbortSignal | undefined): Promise<number[][]> => {
    const { client: sdkClient, Command } = await connect();
    try {
      const answer = await sdkClient.send(
        new Command({
          modelId: model,
          contentType: 'application/json',
          accept: 'application/json',
          body: new TextEncoder().encode(JSON.stringify(family.body(texts))),
        }),
        signal === undefined ? {} : { abortSignal: signal },
      );
      return family.parse(JSON.parse(new TextDecoder().decode(answer.body)), texts.length);
    } catch (error) {
      if (signal?.aborted || error instanceof RepomemError) throw error;
      throw embeddingFailure('bedrock', model, error);
    }
  };
  return {
    id: `bedrock:${model}@${family.dimensions}`,
    dimensions: family.dimensions,
    async embed(texts: readonly string[], embedOptions?: EmbedOptions): Promise<Float32Array[]> {
      const signal = embedOptions?.signal;
      const batches: Array<readonly string[]> = [];
      for (let start = 0; start < texts.length; start += family.batch)
        batches.push(texts.slice(start, start + family.batch));
      const out: number[][][] = new Array(batches.length);
      // Titan takes one text per request: a few requests in flight at once.
      let next = 0;
      const worker = async () => {
        while (next < batches.length) {
          const index = next++;
          out[index] = await invoke(batches[index] as readonly string[], signal);
        }
      };
      await Promise.all(Array.from({ length: Math.min(4, batches.length) }, worker));
      return out.flat().map((vector) => Float32Array.from(vector));
    },
  };
}
