// Why: the one contract every embedding provider implements (a local model, an HTTP service, a
// cloud SDK) and the guard core puts around it: batches of a bounded size, retries when the
// provider throttles or is briefly down, and a checked answer (one finite vector of the declared
// dimension per text), so a wrong model or a provider bug fails loudly with a stable code instead
// of storing vectors that would be compared with another model's.
import pRetry from 'p-retry';
import { RepomemError } from '../errors.js';
import { classifyMemoryFailure } from '../tasks/memory/failure.js';

/** Options of one {@link Embedder.embed} call. */
export interface EmbedOptions {
  /** Aborts the call (and any retry waiting); the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/**
 * A text embedding model. Vectors of two embedders are never compared: everything derived from
 * them (stored vectors, caches) is keyed by {@link Embedder.id}.
 */
export interface Embedder {
  /**
   * Identifies the model and anything that changes its vectors (provider, model name, version,
   * dimensions), e.g. `local:use-lite@0.2.0` or `openai:text-embedding-3-small`.
   */
  readonly id: string;
  /** Length of every vector `embed` returns. */
  readonly dimensions: number;
  /** One vector per text, in order. Need not be normalised. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
}

/** Options of {@link guardEmbedder}. */
export interface GuardEmbedderOptions {
  /** Texts per call to the wrapped embedder (default 32). */
  readonly batchSize?: number;
  /** Retries of a throttled or failed call (default 5); configuration errors are never retried. */
  readonly retries?: number;
  /** Delay before the first retry in ms (default 500), doubled each time with jitter, at most 20 s. */
  readonly minTimeoutMs?: number;
  /** Called before each retry (for logs). */
  readonly onRetry?: (info: { readonly attempt: number; readonly error: unknown }) => void;
}

const GUARDED = /* @__PURE__ */ Symbol.for('@repomem/core/guarded-embedder');

/**
 * Check an embedder's declared shape: a non-empty `id` and a positive integer `dimensions`.
 * @throws RepomemError `INVALID_ARGUMENT` otherwise.
 */
export function assertEmbedder(embedder: Embedder): void {
  if (typeof embedder?.id !== 'string' || embedder.id.trim() === '' || typeof embedder.embed !== 'function') {
    throw new RepomemError('INVALID_ARGUMENT', 'an embedder needs a non-empty id and an embed function');
  }
  if (!Number.isInteger(embedder.dimensions) || embedder.dimensions < 1 || embedder.dimensions > 65_536) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `embedder ${embedder.id} declares invalid dimensions ${embedder.dimensions}`,
    );
  }
}

/**
 * Wrap `embedder` so that calls are split into batches, throttling and outages are retried with
 * backoff (p-retry), and every answer is checked: as many vectors as texts, each of
 * `dimensions` finite numbers. Wrapping a guarded embedder again returns it unchanged.
 *
 * @throws RepomemError `EMBEDDER_MISMATCH` when the model answers with another dimension or count.
 */
export function guardEmbedder(embedder: Embedder, options: GuardEmbedderOptions = {}): Embedder {
  if ((embedder as unknown as Record<symbol, unknown>)[GUARDED] === true) return embedder;
  assertEmbedder(embedder);
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 32));
  const retries = Math.max(0, Math.floor(options.retries ?? 5));
  const minTimeout = options.minTimeoutMs ?? 500;
  const embedBatch = async (batch: readonly string[], signal: AbortSignal | undefined): Promise<Float32Array[]> =>
    pRetry(() => embedder.embed(batch, signal === undefined ? {} : { signal }), {
      retries,
      minTimeout,
      maxTimeout: 20_000,
      randomize: true,
      shouldRetry: ({ error }) => signal?.aborted !== true && isTransient(error),
      ...(signal === undefined ? {} : { signal }),
      onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
        if (retriesLeft > 0) options.onRetry?.({ attempt: attemptNumber, error });
      },
    });
  const guarded: Embedder = {
    id: embedder.id,
    dimensions: embedder.dimensions,
    async embed(texts, embedOptions) {
      const signal = embedOptions?.signal;
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        signal?.throwIfAborted();
        const batch = texts.slice(start, start + batchSize);
        const answer = await embedBatch(batch, signal);
        checkAnswer(embedder, batch.length, answer);
        vectors.push(...answer);
      }
      return vectors;
    },
  };
  Object.defineProperty(guarded, GUARDED, { value: true });
  return guarded;
}

function isTransient(error: unknown): boolean {
  const { category } = classifyMemoryFailure(error);
  return category === 'throttled' || category === 'outage';
}

function checkAnswer(embedder: Embedder, expected: number, answer: unknown): asserts answer is Float32Array[] {
  if (!Array.isArray(answer) || answer.length !== expected) {
    throw new RepomemError(
      'EMBEDDER_MISMATCH',
      `embedder ${embedder.id} returned ${Array.isArray(answer) ? answer.length : 'no'} vectors for ${expected} texts`,
      { details: { embedderId: embedder.id, expected, actual: Array.isArray(answer) ? answer.length : null } },
    );
  }
  for (const vector of answer) {
    if (!(vector instanceof Float32Array) || vector.length !== embedder.dimensions) {
      const actual = vector instanceof Float32Array ? vector.length : null;
      throw new RepomemError(
        'EMBEDDER_MISMATCH',
        `embedder ${embedder.id} declares ${embedder.dimensions} dimensions but returned a vector of ${actual ?? 'another type'}: the model changed or is misconfigured`,
        { details: { embedderId: embedder.id, expectedDimensions: embedder.dimensions, actualDimensions: actual } },
      );
    }
    for (const value of vector) {
      if (!Number.isFinite(value)) {
        throw new RepomemError(
          'EMBEDDER_MISMATCH',
          `embedder ${embedder.id} returned a vector with a non-finite value`,
          {
            details: { embedderId: embedder.id },
          },
        );
      }
    }
  }
}

/** `vector` scaled to length 1 (a zero vector stays zero). Returns a new array. */
export function normalizeVector(vector: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let index = 0; index < vector.length; index += 1) sum += (vector[index] as number) ** 2;
  const out = new Float32Array(vector.length);
  const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  for (let index = 0; index < vector.length; index += 1) out[index] = (vector[index] as number) * scale;
  return out;
}

/** Options of {@link createTestEmbedder}. */
export interface TestEmbedderOptions {
  /** Vector length (default 64). */
  readonly dimensions?: number;
}

/**
 * A deterministic embedder for plumbing tests only (it knows nothing of meaning): each lower-cased
 * word adds a fixed pseudo-random direction, so texts sharing words are similar and the same text
 * always gets the same vector. Its id names it, so its vectors are never mixed with a model's.
 */
export function createTestEmbedder(options: TestEmbedderOptions = {}): Embedder {
  const dimensions = options.dimensions ?? 64;
  const embedder: Embedder = {
    id: `test:bag-of-words-${dimensions}`,
    dimensions,
    async embed(texts, embedOptions) {
      embedOptions?.signal?.throwIfAborted();
      return texts.map((text) => {
        const vector = new Float32Array(dimensions);
        for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
          let seed = 2166136261;
          for (let index = 0; index < word.length; index += 1)
            seed = Math.imul(seed ^ word.charCodeAt(index), 16777619);
          for (let index = 0; index < 4; index += 1) {
            seed = Math.imul(seed ^ (seed >>> 15), 2246822507) >>> 0;
            vector[seed % dimensions] = (vector[seed % dimensions] as number) + (seed & 1 ? 1 : -1);
          }
        }
        return vector;
      });
    },
  };
  assertEmbedder(embedder);
  return embedder;
}
