// Why: a server given an embedder searches by meaning too (lexical and semantic rankings fused,
// output in the same shape as without one) and hydrates with the semantic scorer; without one
// both stay lexical.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createInMemoryStore, createSemanticIndex, type Embedder, type MemoryStore } from '@repomem/core';
import { describe, expect, it } from 'vitest';
import { createMemoryMcpServer } from '../src/index.js';

const REPO = 'acme/app';

/** An embedder whose "meaning" is a tiny synonym table: car and automobile share a direction. */
const synonyms: Embedder = {
  id: 'test:synonyms-4',
  dimensions: 4,
  async embed(texts) {
    return texts.map((text) => {
      const vector = new Float32Array([0, 0, 0, 0.01]);
      for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
        if (word === 'car' || word === 'automobile') vector[0] = (vector[0] ?? 0) + 1;
        if (word === 'oven' || word === 'baking') vector[1] = (vector[1] ?? 0) + 1;
      }
      return vector;
    });
  },
};

async function connected(store: MemoryStore, embedder?: Embedder) {
  const server = await createMemoryMcpServer({ store, repo: REPO, ...(embedder === undefined ? {} : { embedder }) });
  const client = new Client({ name: 'test', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

describe('memory.search with an embedder', () => {
  it('finds a document by meaning when the server has an embedder, and only by words without one', async () => {
    const store = createInMemoryStore();
    const encode = (text: string) => new TextEncoder().encode(text);
    await store.write([
      { kind: 'put', path: 'MEMORY.md', content: encode('# Memory\n\n- Park the car in bay 3.\n') },
      { kind: 'put', path: 'PROJECT.md', content: encode('# Project\n\n- Preheat the oven.\n') },
    ]);
    await createSemanticIndex({ store, embedder: synonyms }).refresh();
    const search = async (client: Client) =>
      (
        (await client.callTool({ name: 'memory.search', arguments: { query: 'automobile' } })).structuredContent as {
          results: { path: string; matchCount: number }[];
        }
      ).results;
    const lexical = await connected(store);
    expect(await search(lexical)).toEqual([]);
    await lexical.close();
    const hybrid = await connected(store, synonyms);
    const results = await search(hybrid);
    expect(results.map((hit) => hit.path)).toContain('MEMORY.md');
    expect(results[0]).toMatchObject({ path: 'MEMORY.md', matchCount: 0 });
    const hydrated = (
      await hybrid.callTool({
        name: 'memory.hydrate',
        arguments: { description: 'automobile parking', files: ['src/garage/bay.ts'] },
      })
    ).structuredContent as { status: string };
    expect(hydrated.status).toBe('ok');
    await hybrid.close();
  });
});
