// Why: what RepomemStore adds beyond InMemoryStore's documented behaviour: items are readable
// JSON documents with their times, hostile names survive a round trip through every store,
// a query ranks with repomem's search (lexical, or fused with a semantic index), the filter
// applies before paging, a batch's writes are one guarded write that survives a concurrent
// writer, and malformed input fails with stable codes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createInMemoryStore,
  createSemanticIndex,
  createTestEmbedder,
  type MemoryStore,
  type WriteMetadata,
  type WriteOperation,
} from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RepomemStore } from '../src/index.js';
import { STORE_KINDS } from './support.js';

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe.each(STORE_KINDS)('RepomemStore on $name', (kind) => {
  let memory: MemoryStore;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    const opened = await kind.open();
    memory = opened.store;
    dispose = opened.dispose;
  });
  afterEach(async () => {
    await dispose();
  });

  it('keeps an item as a JSON document with its namespace, key, value and times', async () => {
    let clock = Date.parse('2026-05-01T10:00:00.000Z');
    const store = new RepomemStore({ store: memory, now: () => new Date(clock) });
    await store.put(['users', 'U1'], 'prefs', { theme: 'dark' });
    clock += 60_000;
    await store.put(['users', 'U1'], 'prefs', { theme: 'light' });
    const stored = await memory.get('langgraph/users/~551/prefs.json');
    expect(JSON.parse(decode(stored?.content ?? new Uint8Array()))).toEqual({
      namespace: ['users', 'U1'],
      key: 'prefs',
      value: { theme: 'light' },
      created_at: '2026-05-01T10:00:00.000Z',
      updated_at: '2026-05-01T10:01:00.000Z',
    });
    const item = await store.get(['users', 'U1'], 'prefs');
    expect(item?.createdAt.toISOString()).toBe('2026-05-01T10:00:00.000Z');
    expect(item?.updatedAt.toISOString()).toBe('2026-05-01T10:01:00.000Z');
  });

  it('round-trips hostile keys and labels, and lists them back', async () => {
    const store = new RepomemStore({ store: memory });
    const keys = [
      '..',
      '../../etc/passwd',
      'a/b\\c',
      '.git',
      'Node_Modules',
      '',
      ' ',
      'Émoji 🎉',
      'cafe\u0301',
      'caf\u00e9',
      'KEY',
      'key',
    ];
    for (const [index, key] of keys.entries()) await store.put(['ns', 'Ünïcode label', '~x'], key, { index });
    const found = await store.search(['ns'], { limit: 100 });
    expect(found.map((item) => item.key).sort()).toEqual([...keys].sort());
    for (const [index, key] of keys.entries()) {
      expect((await store.get(['ns', 'Ünïcode label', '~x'], key))?.value).toEqual({ index });
    }
    expect(await store.listNamespaces()).toEqual([['ns', 'Ünïcode label', '~x']]);
  });

  it('ranks a query with repomem search, applies the filter first, then pages', async () => {
    const store = new RepomemStore({ store: memory });
    await store.put(['docs'], 'release', { text: 'release from main after the tests pass', team: 'core' });
    await store.put(['docs'], 'tests', { text: 'run the tests before pushing', team: 'core' });
    await store.put(['docs'], 'lunch', { text: 'lunch is at noon', team: 'core' });
    await store.put(['docs'], 'other-team', { text: 'the tests of the web team', team: 'web' });
    const ranked = await store.search(['docs'], { query: 'tests', filter: { team: 'core' } });
    expect(ranked.map((item) => item.key).sort()).toEqual(['release', 'tests']);
    expect(ranked.every((item) => typeof item.score === 'number')).toBe(true);
    expect(ranked[0]?.score).toBeGreaterThanOrEqual(ranked[1]?.score ?? 0);
    const second = await store.search(['docs'], { query: 'tests', filter: { team: 'core' }, offset: 1, limit: 1 });
    expect(second.map((item) => item.key)).toEqual([ranked[1]?.key]);
    // Without a query: every item, most recently updated first, no score.
    const all = await store.search(['docs'], { limit: 10 });
    expect(all).toHaveLength(4);
    expect(all.every((item) => item.score === undefined)).toBe(true);
  });

  it('fuses lexical and semantic ranking when given a semantic index', async () => {
    const index = createSemanticIndex({ store: memory, embedder: createTestEmbedder() });
    const store = new RepomemStore({ store: memory, semantic: { index } });
    await store.put(['notes'], 'a', { text: 'deploy with the blue green pipeline' });
    await store.put(['notes'], 'b', { text: 'lunch menu for friday' });
    const found = await store.search(['notes'], { query: 'pipeline deploy' });
    expect(found[0]?.key).toBe('a');
    expect(found[0]?.score).toBeGreaterThan(0);
    // The same with only an embedder: the index is made over the store.
    const withEmbedder = new RepomemStore({ store: memory, embedder: createTestEmbedder() });
    expect((await withEmbedder.search(['notes'], { query: 'lunch friday' }))[0]?.key).toBe('b');
    expect(() => new RepomemStore({ store: memory, embedder: createTestEmbedder(), semantic: { index } })).toThrow(
      /either semantic or embedder/,
    );
  });

  it('writes a batch in one guarded write, retrying when another writer got there first', async () => {
    let raced = false;
    const write = async (operations: readonly WriteOperation[], metadata?: WriteMetadata) => {
      if (!raced) {
        raced = true;
        // Another writer updates the same item between this batch's read and its write.
        await new RepomemStore({ store: memory }).put(['race'], 'k', { from: 'other' });
      }
      return memory.write(operations, metadata);
    };
    // The same store, seen through a proxy whose write lets the other writer in first.
    const racing = new Proxy(memory, {
      get(target, property) {
        if (property === 'write') return write;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const store = new RepomemStore({ store: racing });
    await store.batch([
      { namespace: ['race'], key: 'k', value: { from: 'batch' } },
      { namespace: ['race'], key: 'k2', value: { from: 'batch' } },
    ]);
    expect((await store.get(['race'], 'k'))?.value).toEqual({ from: 'batch' });
    expect((await store.get(['race'], 'k2'))?.value).toEqual({ from: 'batch' });
    expect(raced).toBe(true);
  });
});

describe('RepomemStore input checks', () => {
  it('refuses a value that is not a JSON object, a reserved folder, and a corrupt item document', async () => {
    const memory = createInMemoryStore();
    const store = new RepomemStore({ store: memory });
    await expect(store.put(['a'], 'k', [1, 2] as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(store.put(['a'], 'k', { n: 1n } as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(() => new RepomemStore({ store: memory, folder: '.repomem/items' })).toThrow(/reserves/);
    await memory.write([{ kind: 'put', path: 'langgraph/a/bad.json', content: new TextEncoder().encode('{"x":1}') }]);
    await expect(store.get(['a'], 'bad')).rejects.toMatchObject({ code: 'INVALID_DOCUMENT' });
    await memory.close();
  });

  it('opens a store from a spec and closes it with itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'repomem-langgraph-spec-'));
    try {
      const store = await RepomemStore.open('sqlite:memory.db', { cwd: dir, repo: 'acme/app', folder: 'graph' });
      await store.put(['a'], 'k', { ok: true });
      expect(store.folder).toBe('graph');
      expect((await store.memoryStore.list()).map((entry) => entry.path)).toEqual(['graph/a/k.json']);
      await store.close();
      const again = await RepomemStore.open('sqlite:memory.db', { cwd: dir, repo: 'acme/app', folder: 'graph' });
      expect((await again.get(['a'], 'k'))?.value).toEqual({ ok: true });
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
