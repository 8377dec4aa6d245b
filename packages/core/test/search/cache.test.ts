// Why: the index is cached by document version and must never be stale: a changed document is
// seen by the next query, a deleted one disappears, and unchanged documents are not re-read.
// A counting wrapper around the real in-memory store observes the reads.
import { describe, expect, it } from 'vitest';
import { SearchEngine } from '../../src/search/engine.js';
import type { DocumentEntry, MemoryStore, StoredDocument } from '../../src/store/contract.js';
import { createInMemoryStore } from '../../src/store/memory-store.js';
import { generateMemoryCorpus } from '../../src/testing/corpus.js';

const encoder = new TextEncoder();

/** A real store wrapper that counts reads, listings and revision calls. */
class CountingStore implements MemoryStore {
  readonly specificationVersion;
  readonly name = 'counting';
  readonly capabilities;
  readonly state;
  readonly reads: string[] = [];
  lists = 0;
  revisions = 0;
  readonly #inner: MemoryStore;

  constructor(inner: MemoryStore) {
    this.#inner = inner;
    this.specificationVersion = inner.specificationVersion;
    this.capabilities = inner.capabilities;
    this.state = inner.state;
  }

  get(path: string): Promise<StoredDocument | undefined> {
    this.reads.push(path);
    return this.#inner.get(path);
  }

  list(prefix?: string): Promise<DocumentEntry[]> {
    this.lists++;
    return this.#inner.list(prefix);
  }

  write(...args: Parameters<MemoryStore['write']>): ReturnType<MemoryStore['write']> {
    return this.#inner.write(...args);
  }

  revision(): Promise<string> {
    this.revisions++;
    return this.#inner.revision();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

function storeWith(documents: Record<string, string>): CountingStore {
  return new CountingStore(createInMemoryStore({ initialDocuments: documents }));
}

const put = (store: MemoryStore, path: string, text: string) =>
  store.write([{ kind: 'put', path, content: encoder.encode(text) }]);

describe('version-keyed index cache', () => {
  it('reads every document once, then nothing while the store is unchanged', async () => {
    const store = storeWith({ 'a.md': 'alpha', 'b.md': 'beta', 'c.md': 'gamma alpha' });
    const engine = new SearchEngine();
    const first = await engine.search(store, 'alpha');
    expect(first.results.map((hit) => hit.path)).toEqual(['a.md', 'c.md']);
    expect([...store.reads].sort()).toEqual(['a.md', 'b.md', 'c.md']);
    await engine.search(store, 'beta');
    await engine.search(store, 'gamma');
    expect(store.reads).toHaveLength(3);
    // Unchanged revision: the listing itself is skipped.
    expect(store.lists).toBe(1);
    expect(store.revisions).toBe(3);
  });

  it('re-reads only the changed document and sees its new content at once', async () => {
    const store = storeWith({ 'a.md': 'alpha', 'b.md': 'beta', 'c.md': 'gamma' });
    const engine = new SearchEngine();
    await engine.search(store, 'alpha');
    store.reads.length = 0;
    await put(store, 'b.md', 'beta now mentions alpha');
    const response = await engine.search(store, 'alpha');
    expect(response.results.map((hit) => hit.path)).toEqual(['a.md', 'b.md']);
    expect(store.reads).toEqual(['b.md']);
    expect((await engine.search(store, 'beta')).results.map((hit) => hit.path)).toEqual(['b.md']);
    await put(store, 'b.md', 'no longer');
    expect((await engine.search(store, 'alpha')).results.map((hit) => hit.path)).toEqual(['a.md']);
  });

  it('drops deleted documents and picks up new ones', async () => {
    const store = storeWith({ 'a.md': 'alpha', 'b.md': 'alpha beta' });
    const engine = new SearchEngine();
    expect((await engine.search(store, 'alpha')).documentCount).toBe(2);
    await store.write([{ kind: 'delete', path: 'a.md' }]);
    const afterDelete = await engine.search(store, 'alpha');
    expect(afterDelete.results.map((hit) => hit.path)).toEqual(['b.md']);
    expect(afterDelete.documentCount).toBe(1);
    store.reads.length = 0;
    await put(store, 'daily/2026-05-01.md', '- alpha shipped');
    const afterAdd = await engine.search(store, 'alpha', { limit: 10 });
    expect(afterAdd.results.map((hit) => hit.path).sort()).toEqual(['b.md', 'daily/2026-05-01.md']);
    expect(store.reads).toEqual(['daily/2026-05-01.md']);
    expect(engine.cacheStats(store)).toMatchObject({ documents: 2 });
  });

  it('stays equal to the naive path through many edits (compaction included)', async () => {
    const files = generateMemoryCorpus({ seed: 'cache', jsonFiles: 120, dailyDays: 5 });
    const store = storeWith(Object.fromEntries(files.map((file) => [file.path, file.content])));
    const engine = new SearchEngine();
    const queries = ['orchestrator review', 'memory', 'fix cursor for scheduled runs', 'zeppelin', 'issue 7'];
    for (const query of queries) await engine.search(store, query);
    // Rewrite most documents (enough dead slots to trigger compaction) and delete some.
    const jsonPaths = files.filter((file) => file.path.endsWith('.json')).map((file) => file.path);
    for (const [index, path] of jsonPaths.entries()) {
      if (index % 5 === 0) await store.write([{ kind: 'delete', path }]);
      else
        await put(store, path, JSON.stringify({ title: `edited ${index} orchestrator`, body: 'review memory cursor' }));
    }
    for (const query of queries) {
      const indexed = await engine.search(store, query, { limit: 8 });
      expect(indexed).toEqual(await engine.searchNaive(store, query, { limit: 8 }));
    }
    expect(engine.cacheStats(store)?.documents).toBe(
      files.length - jsonPaths.filter((_, index) => index % 5 === 0).length,
    );
  });

  it('serialises concurrent queries on one store and answers each correctly', async () => {
    const store = storeWith({ 'a.md': 'alpha', 'b.md': 'beta' });
    const engine = new SearchEngine();
    const [alpha, beta] = await Promise.all([engine.search(store, 'alpha'), engine.search(store, 'beta')]);
    expect(alpha.results.map((hit) => hit.path)).toEqual(['a.md']);
    expect(beta.results.map((hit) => hit.path)).toEqual(['b.md']);
    expect(store.reads).toHaveLength(2);
  });

  it('keeps separate caches per store and can forget one', async () => {
    const first = storeWith({ 'a.md': 'alpha' });
    const second = storeWith({ 'b.md': 'alpha' });
    const engine = new SearchEngine();
    expect((await engine.search(first, 'alpha')).results.map((hit) => hit.path)).toEqual(['a.md']);
    expect((await engine.search(second, 'alpha')).results.map((hit) => hit.path)).toEqual(['b.md']);
    engine.forget(first);
    expect(engine.cacheStats(first)).toBeUndefined();
    await engine.search(first, 'alpha');
    expect(first.reads).toEqual(['a.md', 'a.md']);
  });

  it('propagates store errors and recovers on the next query', async () => {
    const store = storeWith({ 'a.md': 'alpha' });
    const engine = new SearchEngine();
    await engine.search(store, 'alpha');
    await store.close();
    await expect(engine.search(store, 'alpha')).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });
});
