// Why: `--embedder` and REPOMEM_EMBEDDER must parse the same everywhere, name what to install
// when a provider is missing, and mean "no embedder" (nothing loaded) when unset.
import { describe, expect, it } from 'vitest';
import { configuredEmbedderSpec } from '../../src/registry/embedder-config.js';
import { createTestEmbedder } from '../../src/retrieval/embedder.js';
import { openEmbedder, parseEmbedderSpec, registerEmbedderScheme } from '../../src/retrieval/embedder-registry.js';

describe('embedder registry', () => {
  it('parses scheme, model and options', () => {
    expect(parseEmbedderSpec('local')).toEqual({ scheme: 'local', model: '', options: {} });
    expect(parseEmbedderSpec('bedrock:amazon.titan-embed-text-v2:0?dimensions=512&region=eu-west-1')).toEqual({
      scheme: 'bedrock',
      model: 'amazon.titan-embed-text-v2:0',
      options: { dimensions: '512', region: 'eu-west-1' },
    });
    expect(() => parseEmbedderSpec(':x')).toThrow('invalid embedder');
    expect(() => parseEmbedderSpec('openai:m?novalue')).toThrow('invalid embedder option');
  });

  it('takes the option, else REPOMEM_EMBEDDER, else none', () => {
    expect(configuredEmbedderSpec('openai:m', { REPOMEM_EMBEDDER: 'local' })).toBe('openai:m');
    expect(configuredEmbedderSpec(undefined, { REPOMEM_EMBEDDER: 'local' })).toBe('local');
    expect(configuredEmbedderSpec(undefined, {})).toBeUndefined();
    expect(configuredEmbedderSpec('none', { REPOMEM_EMBEDDER: 'local' })).toBeUndefined();
  });

  it('opens registered schemes and names the known ones for an unknown scheme', async () => {
    registerEmbedderScheme({
      scheme: 'fake',
      open: ({ options }) => createTestEmbedder({ dimensions: Number(options.d ?? 8) }),
    });
    expect((await openEmbedder('fake?d=16')).dimensions).toBe(16);
    await expect(openEmbedder('nope:x')).rejects.toThrow(
      'unknown embedder "nope" (known: bedrock, fake, local, openai)',
    );
  });

  it('reports a missing provider package as PACKAGE_MISSING', async () => {
    registerEmbedderScheme({
      packageName: '@repomem/embedders',
      load: () =>
        Promise.reject(
          Object.assign(new Error("Cannot find package '@repomem/embedders'"), { code: 'ERR_MODULE_NOT_FOUND' }),
        ),
    });
    await expect(openEmbedder('openai:text-embedding-3-small')).rejects.toMatchObject({ code: 'PACKAGE_MISSING' });
  });
});
