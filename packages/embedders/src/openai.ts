// Why: one client for every service that speaks OpenAI's `POST /v1/embeddings` (OpenAI, Azure
// OpenAI's v1 API, Ollama, vLLM, LM Studio, llama.cpp's server), configured from the variables
// their users already set, so pointing repomem at a hosted or self-hosted model is one spec.
// The answer is validated with zod before any vector is used.
import { type Embedder, type EmbedOptions, RepomemError, type SchemeEnvironment } from '@repomem/core';
import { z } from 'zod';
import { EmbeddingHttpError, embeddingFailure } from './http-error.js';

/** Dimensions of well-known models, so no request is needed to learn them. */
export const KNOWN_OPENAI_DIMENSIONS: Readonly<Record<string, number>> = Object.freeze({
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
  'nomic-embed-text': 768,
  'mxbai-embed-large': 1024,
  'all-minilm': 384,
  'bge-m3': 1024,
});

/** Options of {@link createOpenAiEmbedder}. */
export interface OpenAiEmbedderOptions {
  /** Model name, e.g. `text-embedding-3-small`, `nomic-embed-text`. */
  readonly model: string;
  /**
   * Base URL ending before `/embeddings`. Default: `OPENAI_BASE_URL`, else
   * `${AZURE_OPENAI_ENDPOINT}/openai/v1`, else `https://api.openai.com/v1`.
   */
  readonly baseUrl?: string;
  /** API key. Default `OPENAI_API_KEY`, or `AZURE_OPENAI_API_KEY` for Azure. None for a local server. */
  readonly apiKey?: string;
  /**
   * Vector length. Known models need none; when given it is also sent as `dimensions`
   * (text-embedding-3 shortens its vectors). Unknown models without it: learned from one request.
   */
  readonly dimensions?: number;
  /** Environment to read the defaults from (default `process.env`). */
  readonly env?: SchemeEnvironment;
  /** Per-request timeout in ms (default 60,000). */
  readonly timeoutMs?: number;
}

const ResponseSchema = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().int().nonnegative() })),
});

interface Endpoint {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

function endpointOf(options: OpenAiEmbedderOptions, env: SchemeEnvironment): Endpoint {
  const azure = env.AZURE_OPENAI_ENDPOINT?.trim();
  const base =
    options.baseUrl?.trim() ||
    env.OPENAI_BASE_URL?.trim() ||
    (azure ? `${azure.replace(/\/+$/, '')}/openai/v1` : 'https://api.openai.com/v1');
  let url: URL;
  try {
    url = new URL(`${base.replace(/\/+$/, '')}/embeddings`);
  } catch {
    throw new RepomemError('INVALID_ARGUMENT', `invalid embedding base URL "${base}"`);
  }
  const usesAzure = options.baseUrl === undefined && !env.OPENAI_BASE_URL?.trim() && Boolean(azure);
  const key = options.apiKey ?? (usesAzure ? env.AZURE_OPENAI_API_KEY : env.OPENAI_API_KEY);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (key) {
    if (usesAzure) headers['api-key'] = key;
    else headers.authorization = `Bearer ${key}`;
  }
  return { url: url.href, headers };
}

async function request(
  endpoint: Endpoint,
  body: Record<string, unknown>,
  count: number,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<number[][]> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const response = await fetch(endpoint.url, {
    method: 'POST',
    headers: endpoint.headers,
    body: JSON.stringify(body),
    signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
  });
  const text = await response.text();
  if (!response.ok) {
    let reason = text.slice(0, 300);
    try {
      const parsed = JSON.parse(text) as { error?: { message?: unknown } | string };
      const message = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message;
      if (typeof message === 'string') reason = message;
    } catch {}
    throw new EmbeddingHttpError(`HTTP ${response.status}: ${reason}`, response.status);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new EmbeddingHttpError('the answer is not JSON', 502);
  }
  const parsed = ResponseSchema.safeParse(json);
  if (!parsed.success || parsed.data.data.length !== count) {
    throw new RepomemError('EMBEDDER_MISMATCH', `the embeddings answer does not match the request (${count} texts)`);
  }
  const vectors: number[][] = new Array(count);
  for (const item of parsed.data.data) {
    if (item.index >= count || vectors[item.index] !== undefined) {
      throw new RepomemError('EMBEDDER_MISMATCH', `the embeddings answer has a bad index ${item.index}`);
    }
    vectors[item.index] = item.embedding;
  }
  return vectors;
}

/**
 * An embedder over an OpenAI-compatible `/embeddings` endpoint. Errors carry the HTTP status as
 * their cause, so core's guard retries 429 and 5xx and stops on 401/403/404.
 *
 * @example
 * ```ts
 * // OPENAI_API_KEY set; or OPENAI_BASE_URL=http://localhost:11434/v1 for Ollama
 * const embedder = await createOpenAiEmbedder({ model: 'text-embedding-3-small' });
 * ```
 */
export async function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Promise<Embedder> {
  const model = options.model.trim();
  if (model === '') throw new RepomemError('INVALID_ARGUMENT', 'the openai embedder needs a model: openai:<model>');
  const env = options.env ?? process.env;
  const endpoint = endpointOf(options, env);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const explicit = options.dimensions;
  if (explicit !== undefined && (!Number.isInteger(explicit) || explicit < 1)) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid dimensions ${explicit} for ${model}`);
  }
  const embedRaw = async (texts: readonly string[], signal?: AbortSignal): Promise<number[][]> => {
    try {
      return await request(
        endpoint,
        { model, input: texts, encoding_format: 'float', ...(explicit === undefined ? {} : { dimensions: explicit }) },
        texts.length,
        timeoutMs,
        signal,
      );
    } catch (error) {
      if (signal?.aborted || error instanceof RepomemError) throw error;
      throw embeddingFailure('openai', model, error);
    }
  };
  const dimensions =
    explicit ?? KNOWN_OPENAI_DIMENSIONS[model] ?? (await embedRaw(['dimension probe']))[0]?.length ?? 0;
  return {
    id: `openai:${model}@${dimensions}`,
    dimensions,
    async embed(texts: readonly string[], embedOptions?: EmbedOptions): Promise<Float32Array[]> {
      if (texts.length === 0) return [];
      return (await embedRaw(texts, embedOptions?.signal)).map((vector) => Float32Array.from(vector));
    },
  };
}
