// Why: a document's vectors are listed in the manifest by document version, so an index written
// by an older chunking would be trusted forever after a change of chunking (its documents keep
// the old chunks, or none). The manifest records the chunking version, and a refresh re-chunks a
// document indexed by another one.
import { describe, expect, it } from 'vitest';
import { createInMemoryStore, createSemanticIndex, type Embedder, VECTOR_INDEX_PREFIX } from '../../src/index.js';

const encoder = new TextEncoder();

/** Two directions: texts about cars and everything else. */
const embedder: Embedder = {
  id: 'test:cars-4',
  dimensions: 4,
  async embed(texts) {
    return texts.map((value) => Float32Array.from(/car|automobile/i.test(value) ? [1, 0, 0, 0.01] : [0, 1, 0, 0.01]));
  },
};

describe('semantic index chunking version', () => {
  it('re-chunks a document whose manifest entry was written by another chunking', async () => {
    const store = createInMemoryStore();
    await store.write([
      { kind: 'put', path: 'notes/garage.md', content: encoder.encode('- The automobile is repaired on Fridays.\n') },
    ]);
    expect((await createSemanticIndex({ store, embedder }).refresh()).embedded).toBe(1);

    // Rewrite the manifest as an older chunking left it: the bare document version, other chunks.
    const shards = (await store.list(VECTOR_INDEX_PREFIX)).filter((entry) => entry.path.includes('/m/'));
    expect(shards).toHaveLength(1);
    const shard = shards[0] as { path: string; version: string };
    const body = JSON.parse(new TextDecoder().decode((await store.get(shard.path))?.content)) as {
      documents: Record<string, { v: string; c: string[] }>;
    };
    const document = await store.get('notes/garage.md');
    body.documents['notes/garage.md'] = { v: document?.version as string, c: ['0'.repeat(32)] };
    await store.write([{ kind: 'put', path: shard.path, content: encoder.encode(JSON.stringify(body)) }]);

    const index = createSemanticIndex({ store, embedder });
    const refreshed = await index.refresh();
    expect(refreshed.embedded).toBe(0); // the chunk text is unchanged: its vector is kept
    const hits = await index.searchDocuments('car', { limit: 5 });
    expect(hits.map((hit) => hit.path)).toEqual(['notes/garage.md']);
  });
});
