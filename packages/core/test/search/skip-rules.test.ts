// Why: Sepo's search skips oversized, binary and VCS/dependency files; repomem must too, on
// every path (documents in memory, a store through the index, and the naive scan).
import { describe, expect, it } from 'vitest';
import { decodeSearchableBytes, MAX_SEARCH_DOCUMENT_BYTES } from '../../src/search/document-filter.js';
import { SearchEngine } from '../../src/search/engine.js';
import { createInMemoryStore } from '../../src/store/memory-store.js';

const encoder = new TextEncoder();

function tree(): Record<string, Uint8Array> {
  const big = encoder.encode(`needle\n${'x'.repeat(MAX_SEARCH_DOCUMENT_BYTES)}`);
  const binary = new Uint8Array([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00, 0x01]);
  const invalidUtf8 = new Uint8Array([...encoder.encode('needle '), 0xff, 0xfe]);
  return {
    'big.md': big,
    'exact.md': encoder.encode(`needle\n${'y'.repeat(MAX_SEARCH_DOCUMENT_BYTES - 7)}`),
    'binary.bin': binary,
    'invalid.md': invalidUtf8,
    'notes/ok.md': encoder.encode('\ufeffneedle in a text file'),
  };
}

describe('skip rules', () => {
  it('decodes text and classifies oversized and binary content', () => {
    expect(decodeSearchableBytes(encoder.encode('\ufeffhi'))).toEqual({ kind: 'text', text: 'hi' });
    expect(decodeSearchableBytes(new Uint8Array(MAX_SEARCH_DOCUMENT_BYTES + 1))).toEqual({
      kind: 'skipped',
      reason: 'too-large',
    });
    expect(decodeSearchableBytes(new Uint8Array([0x61, 0x00]))).toEqual({ kind: 'skipped', reason: 'binary' });
    expect(decodeSearchableBytes(new Uint8Array([0x61, 0xc3]))).toEqual({ kind: 'skipped', reason: 'binary' });
  });

  it('does not mistake a multi-byte character cut by the 8 KiB sniff window for binary', () => {
    const text = `${'a'.repeat(8191)}é tail`;
    expect(decodeSearchableBytes(encoder.encode(text)).kind).toBe('text');
  });

  it('skips files over 512 KiB, binary files and VCS/dependency paths when searching documents', () => {
    const documents = [
      ...Object.entries(tree()).map(([path, content]) => ({ path, content })),
      { path: '.git/config', content: 'needle' },
      { path: 'node_modules/x/readme.md', content: 'needle' },
    ];
    const response = new SearchEngine().searchDocuments(documents, 'needle', { limit: 10 });
    expect(response.results.map((hit) => hit.path)).toEqual(['exact.md', 'notes/ok.md']);
    expect(response.documentCount).toBe(2);
  });

  it('applies the same rules to a store, indexed and naive, without re-reading skipped files', async () => {
    const store = createInMemoryStore({ initialDocuments: tree() });
    const engine = new SearchEngine();
    const indexed = await engine.search(store, 'needle', { limit: 10 });
    expect(indexed.results.map((hit) => hit.path)).toEqual(['exact.md', 'notes/ok.md']);
    expect(await engine.searchNaive(store, 'needle', { limit: 10 })).toEqual(indexed);
    // big.md is skipped from its listed size without a read; binary.bin and invalid.md are read once.
    expect(engine.cacheStats(store)).toEqual({ documents: 2, skipped: 3, reads: 4 });
    await store.write([{ kind: 'put', path: 'other.md', content: encoder.encode('nothing') }]);
    await engine.search(store, 'needle');
    expect(engine.cacheStats(store)?.reads).toBe(5);
  });
});
