// Why: hybrid search is lexical search plus meaning, never meaning alone: without a semantic
// index it must answer exactly what `searchStore` answers; with one, a document found only by
// meaning joins the fused ranking with the chunk that matched as its snippet; and a semantic
// index that fails leaves a lexical answer that says so.
import { describe, expect, it } from 'vitest';
import {
  createInMemoryStore,
  createSemanticIndex,
  type Embedder,
  hybridSearch,
  type MemoryStore,
  RepomemError,
  searchStore,
} from '../../src/index.js';

const text = (value: string) => new TextEncoder().encode(value);

/** An embedder whose "meaning" is a tiny synonym table: car and automobile share a direction. */
function synonymEmbedder(fail = false): Embedder {
  const concepts: Record<string, number> = { car: 0, automobile: 0, vehicle: 0, bread: 1, baking: 1, oven: 1 };
  return {
    id: 'test:synonyms-8',
    dimensions: 8,
    async embed(texts) {
      if (fail) throw new RepomemError('PACKAGE_MISSING', 'model not installed');
      return texts.map((value) => {
        const vector = new Float32Array(8);
        vector[7] = 0.01;
        for (const word of value.toLowerCase().match(/[a-z]+/g) ?? []) {
          const concept = concepts[word];
          if (concept !== undefined) vector[concept] = (vector[concept] ?? 0) + 1;
        }
        return vector;
      });
    },
  };
}

async function seeded(): Promise<MemoryStore> {
  const store = createInMemoryStore();
  await store.write([
    { kind: 'put', path: 'notes/garage.md', content: text('# Garage\n\n- Park the car in bay 3.\n') },
    { kind: 'put', path: 'notes/kitchen.md', content: text('# Kitchen\n\n- Preheat the oven before baking bread.\n') },
    { kind: 'put', path: 'notes/automobile-rules.md', content: text('# Rules\n\n- An automobile needs a permit.\n') },
  ]);
  return store;
}

describe('hybridSearch', () => {
  it('without a semantic index answers exactly what searchStore answers', async () => {
    const store = await seeded();
    const lexical = await searchStore(store, 'automobile permit', { limit: 5 });
    const hybrid = await hybridSearch(store, 'automobile permit', { limit: 5 });
    expect(hybrid).toEqual({ ...lexical, semantic: { status: 'off' } });
  });

  it('fuses the lexical and semantic rankings; a document found by meaning alone gets its chunk as snippet', async () => {
    const store = await seeded();
    const semantic = createSemanticIndex({ store, embedder: synonymEmbedder() });
    await semantic.refresh();
    const response = await hybridSearch(store, 'automobile', { limit: 5, semantic });
    expect(response.semantic).toEqual({ status: 'used' });
    const paths = response.results.map((hit) => hit.path);
    expect(paths[0]).toBe('notes/automobile-rules.md');
    expect(paths).toContain('notes/garage.md');
    const garage = response.results.find((hit) => hit.path === 'notes/garage.md');
    expect(garage?.lexicalRank).toBeUndefined();
    expect(garage?.semanticRank).toBeGreaterThan(0);
    expect(garage?.matchCount).toBe(0);
    expect(garage?.snippets[0]).toMatchObject({ lineNumber: 3, text: expect.stringContaining('Park the car') });
    expect(response.results.find((hit) => hit.path === 'notes/automobile-rules.md')?.lexicalRank).toBe(1);
  });

  it('a failing semantic index leaves the lexical answer and says why', async () => {
    const store = await seeded();
    const semantic = createSemanticIndex({ store, embedder: synonymEmbedder(true) });
    const response = await hybridSearch(store, 'automobile', { limit: 5, semantic });
    expect(response.semantic).toEqual({ status: 'failed', message: expect.stringContaining('model not installed') });
    expect(response.results.map((hit) => hit.path)).toEqual(['notes/automobile-rules.md']);
  });
});
