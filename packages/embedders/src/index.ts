// Why: the public entry of @repomem/embedders: hosted embedding models for repomem's semantic
// retrieval, and the `openai` and `bedrock` schemes core's embedder registry loads from here.
import { type EmbedderScheme, RepomemError } from '@repomem/core';
import { createBedrockEmbedder } from './bedrock.js';
import { createOpenAiEmbedder } from './openai.js';

export { type BedrockEmbedderOptions, createBedrockEmbedder } from './bedrock.js';
export { EmbeddingHttpError } from './http-error.js';
export { createOpenAiEmbedder, KNOWN_OPENAI_DIMENSIONS, type OpenAiEmbedderOptions } from './openai.js';

function dimensionsOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new RepomemError('INVALID_ARGUMENT', `invalid dimensions "${value}"`);
  return parsed;
}

/**
 * The schemes of this package: `openai:<model>[?dimensions=N&base=URL]` and
 * `bedrock:<model id>[?dimensions=N&region=R]`.
 */
export const embedderSchemes: readonly EmbedderScheme[] = [
  {
    scheme: 'openai',
    open: ({ model, options, env }) => {
      const dimensions = dimensionsOption(options.dimensions);
      return createOpenAiEmbedder({
        model,
        env,
        ...(dimensions === undefined ? {} : { dimensions }),
        ...(options.base === undefined ? {} : { baseUrl: options.base }),
      });
    },
  },
  {
    scheme: 'bedrock',
    open: ({ model, options }) => {
      const dimensions = dimensionsOption(options.dimensions);
      return createBedrockEmbedder({
        model,
        ...(dimensions === undefined ? {} : { dimensions }),
        ...(options.region === undefined ? {} : { region: options.region }),
      });
    },
  },
];
