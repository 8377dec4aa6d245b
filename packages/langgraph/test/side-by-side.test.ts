// Why: LangGraph publishes no test suite for `BaseStore` implementations (its store tests exercise
// its own classes), so the contract is the documented behaviour of its `InMemoryStore`: every
// operation here runs on both stores, and the answers must be the same (items compared without
// their times; an unranked search as a set, since the in-memory store returns insertion order and
// repomem most recently updated first). Runs on the in-memory, SQLite and directory stores.
import { InMemoryStore, type Item, type Operation, type SearchItem } from '@langchain/langgraph-checkpoint';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RepomemStore } from '../src/index.js';
import { STORE_KINDS } from './support.js';

type Plain = { namespace: string[]; key: string; value: Record<string, unknown> };
const plain = (item: Item | null): Plain | null =>
  item === null ? null : { namespace: item.namespace, key: item.key, value: item.value };
const sortedPlain = (items: SearchItem[]): Plain[] =>
  items.map((item) => plain(item) as Plain).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

const FIXTURE: ReadonlyArray<[string[], string, Record<string, unknown>]> = [
  [['users', 'u1'], 'prefs', { theme: 'dark', score: 5, tags: ['a'] }],
  [['users', 'u1'], 'profile', { name: 'Ada', score: 3, active: true }],
  [['users', 'u2'], 'prefs', { theme: 'light', score: 7 }],
  [['users', 'u2', 'v1'], 'draft', { theme: 'dark', score: 1 }],
  [['docs', 'v1'], 'readme', { text: 'setup steps', score: 4 }],
  [['docs', 'v2'], 'readme', { text: 'setup steps again', score: 9 }],
  [['cache'], 'x', { nested: { a: 1 }, score: 2 }],
];

describe.each(STORE_KINDS)('RepomemStore on $name beside InMemoryStore', (kind) => {
  let reference: InMemoryStore;
  let store: RepomemStore;
  let dispose: () => Promise<void>;

  beforeEach(async () => {
    const opened = await kind.open();
    dispose = opened.dispose;
    store = new RepomemStore({ store: opened.store });
    reference = new InMemoryStore();
    for (const [namespace, key, value] of FIXTURE) {
      await reference.put(namespace, key, value);
      await store.put(namespace, key, value);
    }
  });
  afterEach(async () => {
    await dispose();
  });

  /** Run `operation` on both stores and expect the same answer after `map`. */
  async function same<T>(operation: (s: InMemoryStore | RepomemStore) => Promise<T>, map: (value: T) => unknown) {
    const expected = map(await operation(reference));
    expect(map(await operation(store))).toEqual(expected);
    return expected;
  }

  it('gets an item, and null for a missing key or namespace', async () => {
    await same((s) => s.get(['users', 'u1'], 'prefs'), plain);
    await same((s) => s.get(['users', 'u1'], 'nope'), plain);
    await same((s) => s.get(['users', 'u9'], 'prefs'), plain);
    await same((s) => s.get(['users'], 'prefs'), plain);
  });

  it('updates in place: the value changes, createdAt stays, updatedAt does not go back', async () => {
    const before = (await store.get(['users', 'u1'], 'prefs')) as Item;
    await reference.put(['users', 'u1'], 'prefs', { theme: 'light' });
    await store.put(['users', 'u1'], 'prefs', { theme: 'light' });
    await same((s) => s.get(['users', 'u1'], 'prefs'), plain);
    const after = (await store.get(['users', 'u1'], 'prefs')) as Item;
    expect(after.createdAt).toEqual(before.createdAt);
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
  });

  it('deletes, and deleting a missing item is not an error', async () => {
    for (const s of [reference, store]) {
      await s.delete(['users', 'u1'], 'prefs');
      await s.delete(['users', 'u1'], 'never-there');
    }
    await same((s) => s.get(['users', 'u1'], 'prefs'), plain);
    await same((s) => s.search(['users', 'u1']), sortedPlain);
  });

  it('searches a namespace prefix, the whole store, and nothing under a missing prefix', async () => {
    await same((s) => s.search(['users']), sortedPlain);
    await same((s) => s.search(['users', 'u2']), sortedPlain);
    await same((s) => s.search([], { limit: 100 }), sortedPlain);
    await same((s) => s.search(['nope']), sortedPlain);
    // A label prefix is not a namespace prefix.
    await same((s) => s.search(['use']), sortedPlain);
  });

  it('filters by exact values and by every comparison operator', async () => {
    const filters: Record<string, unknown>[] = [
      { theme: 'dark' },
      { theme: 'dark', score: 5 },
      { score: { $gt: 4 } },
      { score: { $gte: 5, $lt: 9 } },
      { score: { $lte: 3 } },
      { score: { $ne: 5 } },
      { theme: { $eq: 'light' } },
      { theme: { $in: ['light', 'none'] } },
      { theme: { $nin: ['light'] } },
      { active: true },
      { nested: { a: 1 } },
      { missing: { $ne: 1 } },
      { score: { $unknown: 1 } },
    ];
    for (const filter of filters) await same((s) => s.search([], { filter, limit: 100 }), sortedPlain);
  });

  it('pages with limit and offset: the same number per page, the pages together the same items', async () => {
    const pages = async (s: InMemoryStore | RepomemStore) => {
      const all: SearchItem[] = [];
      const sizes: number[] = [];
      for (let offset = 0; offset < 9; offset += 2) {
        const page = await s.search(['users'], { limit: 2, offset });
        sizes.push(page.length);
        all.push(...page);
      }
      return { sizes, all: sortedPlain(all) };
    };
    await same(pages, (value) => value);
    await same(
      (s) => s.search([], { limit: 3 }),
      (items) => items.length,
    );
    await same(
      (s) => s.search([], { filter: { theme: 'dark' }, limit: 1, offset: 1 }),
      (items) => items.length,
    );
  });

  it('lists namespaces with prefix and suffix conditions, wildcards, depth, limit and offset', async () => {
    const cases: Parameters<InMemoryStore['listNamespaces']>[0][] = [
      {},
      { prefix: ['users'] },
      { prefix: ['users', '*'] },
      { suffix: ['v1'] },
      { prefix: ['*'], suffix: ['*', 'v1'] },
      { maxDepth: 1 },
      { prefix: ['users'], maxDepth: 2 },
      { limit: 2 },
      { limit: 2, offset: 2 },
      { prefix: ['nothing'] },
    ];
    for (const options of cases)
      await same(
        (s) => s.listNamespaces(options),
        (value) => value,
      );
  });

  it('answers a batch in order, reading as before the batch, the last put of a key winning', async () => {
    const operations: Operation[] = [
      { namespace: ['batch'], key: 'k', value: { n: 1 } },
      { namespace: ['batch'], key: 'k' },
      { namespace: ['batch'], key: 'k', value: { n: 2 } },
      { namespacePrefix: ['users', 'u1'], limit: 10, offset: 0 },
      { matchConditions: [{ matchType: 'prefix', path: ['docs'] }], limit: 10, offset: 0 },
    ];
    const batch = (s: InMemoryStore | RepomemStore) =>
      (s as unknown as { batch(ops: Operation[]): Promise<unknown[]> }).batch(operations);
    await same(batch, ([put1, get, put2, search, namespaces]) => [
      put1,
      plain(get as Item | null),
      put2,
      sortedPlain(search as SearchItem[]),
      namespaces,
    ]);
    await same((s) => s.get(['batch'], 'k'), plain);
  });

  it('pages twenty namespaces, cuts mixed depths, and lists nothing for a prefix that holds nothing', async () => {
    for (const s of [reference, store]) {
      for (let index = 0; index < 20; index += 1) {
        const label = `page_${String(index).padStart(2, '0')}`;
        await s.put(['paged', label], `k${index}`, { index });
      }
      await s.put(['deep', 'x', 'y', 'z'], 'k', { deep: true });
    }
    for (const offset of [0, 5, 15, 18, 25]) {
      await same(
        (s) => s.listNamespaces({ prefix: ['paged'], limit: 5, offset }),
        (value) => value,
      );
    }
    await same(
      (s) => s.listNamespaces({ maxDepth: 2 }),
      (value) => value,
    );
    await same(
      (s) => s.listNamespaces({ prefix: ['*', 'x'], suffix: ['y', '*'] }),
      (value) => value,
    );
    await same(
      (s) => s.listNamespaces({ prefix: ['absent', '*'] }),
      (value) => value,
    );
    await same(
      (s) => s.search(['paged'], { limit: 100 }),
      (items) => items.length,
    );
  });

  it('accepts "langgraph" below the root, and at the root through batch', async () => {
    for (const s of [reference, store]) {
      await s.put(['team', 'langgraph', 'notes'], 'k', { ok: 1 });
      const operations: Operation[] = [{ namespace: ['langgraph', 'internal'], key: 'k', value: { ok: 2 } }];
      await (s as unknown as { batch(ops: Operation[]): Promise<unknown[]> }).batch(operations);
    }
    await same((s) => s.get(['team', 'langgraph', 'notes'], 'k'), plain);
    await same((s) => s.get(['langgraph', 'internal'], 'k'), plain);
    await same((s) => s.search(['team', 'langgraph']), sortedPlain);
    for (const s of [reference, store]) await s.delete(['team', 'langgraph', 'notes'], 'k');
    await same((s) => s.get(['team', 'langgraph', 'notes'], 'k'), plain);
  });

  it('refuses the namespaces LangGraph refuses', async () => {
    for (const namespace of [[], ['a.b'], ['a:b'], [''], ['langgraph']]) {
      await expect(reference.put(namespace, 'k', {})).rejects.toThrow();
      await expect(store.put(namespace, 'k', {})).rejects.toThrow();
    }
  });
});
