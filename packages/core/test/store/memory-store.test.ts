import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInMemoryStore, isRepomemError, STORE_SPECIFICATION_VERSION } from '../../src/index.js';
import { runStoreConformance } from '../../src/testing/index.js';

runStoreConformance({
  name: 'memory store conformance',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => createInMemoryStore(),
});

describe('createInMemoryStore', () => {
  it('declares honest capabilities', () => {
    const store = createInMemoryStore();
    expect(store.specificationVersion).toBe(STORE_SPECIFICATION_VERSION);
    expect(store.name).toBe('memory');
    expect(store.capabilities).toEqual({
      binarySafe: true,
      atomicDocument: true,
      atomicBatch: true,
      readYourWrites: true,
      compareAndSwap: 'native',
      maxDocumentBytes: 16 * 1024 * 1024,
    });
  });

  it('starts with normalised initial documents', async () => {
    const store = createInMemoryStore({
      initialDocuments: { './MEMORY.md': '# Memory\n', 'daily//x.md': new Uint8Array([1]) },
    });
    expect((await store.list()).map((entry) => entry.path)).toEqual(['MEMORY.md', 'daily/x.md']);
    expect(new TextDecoder().decode((await store.get('MEMORY.md'))?.content)).toBe('# Memory\n');
  });

  it('refuses an invalid initial path and an invalid size limit', () => {
    expect(() => createInMemoryStore({ initialDocuments: { '../x.md': 'x' } })).toThrow(/escapes the memory root/);
    for (const maxDocumentBytes of [0, -1, 1.5, Number.NaN]) {
      try {
        createInMemoryStore({ maxDocumentBytes });
        expect.unreachable();
      } catch (error) {
        expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
      }
    }
  });

  it('applies a custom maxDocumentBytes and names the path in the error', async () => {
    const store = createInMemoryStore({ maxDocumentBytes: 4 });
    await expect(store.write([{ kind: 'put', path: 'a.md', content: new Uint8Array(5) }])).rejects.toThrow(
      /a\.md is 5 bytes, the store accepts at most 4/,
    );
    expect(await store.list()).toEqual([]);
  });

  it('gives each store its own revision tokens', async () => {
    expect(await createInMemoryStore().revision()).not.toBe(await createInMemoryStore().revision());
  });
});
