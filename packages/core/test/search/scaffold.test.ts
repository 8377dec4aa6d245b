// Why: the README.md that `init` seeds describes the layout; it must not compete with memory in
// search (it used to be the top hit for ordinary requests). Only the seeded file (marked on its
// first line) is skipped, on every search path; a README someone wrote, or the seeded one with
// its marker line removed, is searched like any document.
import { describe, expect, it } from 'vitest';
import { openMemory } from '../../src/memory/index.js';
import { MEMORY_README } from '../../src/memory/readme-template.js';
import { decodeSearchableBytes, decodeSearchableText, SCAFFOLD_MARKER } from '../../src/search/document-filter.js';
import { SearchEngine } from '../../src/search/engine.js';
import { searchStore } from '../../src/search/search-store.js';
import { createInMemoryStore } from '../../src/store/memory-store.js';

const encoder = new TextEncoder();

async function seededStore() {
  const store = createInMemoryStore();
  const memory = openMemory({ store });
  await memory.init();
  await memory.add({ file: 'MEMORY.md', section: 'Conventions', text: 'Release checklist lives in docs/release.md' });
  return { store, memory };
}

describe('seeded scaffolding in search', () => {
  it('marks the seeded README on its first line and skips it when decoding', () => {
    expect(MEMORY_README.startsWith(SCAFFOLD_MARKER)).toBe(true);
    expect(decodeSearchableBytes(encoder.encode(MEMORY_README))).toEqual({ kind: 'skipped', reason: 'scaffold' });
    expect(decodeSearchableBytes(encoder.encode(`\ufeff${MEMORY_README}`))).toEqual({
      kind: 'skipped',
      reason: 'scaffold',
    });
    expect(decodeSearchableText(MEMORY_README)).toEqual({ kind: 'skipped', reason: 'scaffold' });
    expect(decodeSearchableText(`# Notes\n${SCAFFOLD_MARKER} -->\n`).kind).toBe('text');
  });

  it('keeps the seeded README out of every search path, and out of the document count', async () => {
    const { store, memory } = await seededStore();
    // Words only the README has ("layout", "mirror") and a word both have ("release").
    for (const query of ['layout mirror', 'release checklist']) {
      const responses = [
        await memory.search(query),
        await searchStore(store, query),
        await new SearchEngine().search(store, query),
        await new SearchEngine().searchNaive(store, query),
        await new SearchEngine().searchOnce(store, query),
      ];
      for (const response of responses) {
        expect(response.results.map((hit) => hit.path)).not.toContain('README.md');
        expect(response.documentCount).toBe(responses[0]?.documentCount);
      }
    }
    expect((await memory.search('release checklist')).results[0]?.path).toBe('MEMORY.md');
  });

  it('searches the README once its marker line is deleted, and any README written by hand', async () => {
    const { store, memory } = await seededStore();
    const edited = MEMORY_README.split('\n').slice(1).join('\n');
    const current = await store.get('README.md');
    await store.write([
      { kind: 'put', path: 'README.md', content: encoder.encode(edited), expectedVersion: current?.version ?? null },
    ]);
    expect((await memory.search('layout mirror')).results.map((hit) => hit.path)).toEqual(['README.md']);
  });
});
