// Why: a listing remembers which keys passed the document-path check (the previous whole
// listing's keys, in order) and trusts a driver's sorted scan instead of re-sorting it; these
// pin that the shortcuts never let through what the full checks refuse: foreign keys on every
// listing, keys outside a prefix, a malformed entry, and an unsorted scan.
import { describe, expect, it } from 'vitest';
import { isRepomemError } from '../../src/errors.js';
import { createInMemoryDriver, createStore, type KitDriver, type KitEntry } from '../../src/kit/index.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

async function codeOf(run: () => unknown): Promise<string | undefined> {
  try {
    await run();
  } catch (error) {
    return isRepomemError(error) ? error.code : String(error);
  }
  return undefined;
}

/** A driver holding `keys` (some of them foreign), whose listing scans `rewrite` may alter. */
async function driverWith(
  keys: readonly string[],
  rewrite: (entries: KitEntry[], prefix: string) => KitEntry[] = (entries) => entries,
): Promise<KitDriver> {
  const inner = createInMemoryDriver();
  const result = await inner.write(
    keys.map((key) => ({ namespace: 'documents', key, value: utf8(key), version: `v-${key}`, expected: null })),
  );
  expect(result.status).toBe('committed');
  return {
    ...inner,
    scan: async (namespace, options) => {
      const entries = await inner.scan(namespace, options);
      return options.values === false ? rewrite(entries, options.prefix) : entries;
    },
  };
}

const paths = (entries: readonly { path: string }[]): string[] => entries.map((entry) => entry.path);

describe('createStore listing', () => {
  it('skips foreign keys on every listing, whole or by prefix, and lists keys added since', async () => {
    const driver = await driverWith(['.git/config', 'a/../b.md', 'a/one.md', 'a/two.md', 'b.md', 'node_modules/x.md']);
    const store = createStore(driver);
    const expected = ['a/one.md', 'a/two.md', 'b.md'];
    expect(paths(await store.list())).toEqual(expected);
    expect(paths(await store.list())).toEqual(expected);
    expect(paths(await store.list('a/'))).toEqual(['a/one.md', 'a/two.md']);
    await driver.write([
      { namespace: 'documents', key: '.hg/store', value: utf8('x'), version: 'v1', expected: null },
      { namespace: 'documents', key: 'a/three.md', value: utf8('x'), version: 'v2', expected: null },
    ]);
    expect(paths(await store.list())).toEqual(['a/one.md', 'a/three.md', 'a/two.md', 'b.md']);
    expect(paths(await store.list('a/'))).toEqual(['a/one.md', 'a/three.md', 'a/two.md']);
    await driver.write([
      { namespace: 'documents', key: 'a/one.md', value: null, version: null },
      { namespace: 'documents', key: 'b.md', value: null, version: null },
    ]);
    expect(paths(await store.list())).toEqual(['a/three.md', 'a/two.md']);
    expect(paths(await store.list())).toEqual(['a/three.md', 'a/two.md']);
    await driver.write([{ namespace: 'documents', key: '0.md', value: utf8('x'), version: 'v3', expected: null }]);
    expect(paths(await store.list())).toEqual(['0.md', 'a/three.md', 'a/two.md']);
  });

  it('drops keys a driver returns outside the prefix, even keys a whole listing accepted', async () => {
    const driver = await driverWith(['a/one.md', 'b/two.md', 'c.md'], (entries, prefix) =>
      prefix === '' ? entries : entries.concat([{ key: 'c.md', version: 'v-c.md', size: 4 }]),
    );
    const store = createStore(driver);
    expect(paths(await store.list())).toEqual(['a/one.md', 'b/two.md', 'c.md']);
    expect(paths(await store.list('b/'))).toEqual(['b/two.md']);
  });

  it('sorts a scan the driver returned out of order', async () => {
    const driver = await driverWith(['a.md', 'b.md', 'c.md'], (entries) => [...entries].reverse());
    const store = createStore(driver);
    expect(paths(await store.list())).toEqual(['a.md', 'b.md', 'c.md']);
    expect(paths(await store.list())).toEqual(['a.md', 'b.md', 'c.md']);
  });

  it('refuses a malformed listing entry on a repeated listing too', async () => {
    let broken: ((entry: KitEntry) => KitEntry) | undefined;
    const driver = await driverWith(['a.md', 'b.md'], (entries) =>
      broken === undefined
        ? entries
        : entries.map((entry) => (entry.key === 'b.md' ? broken?.(entry) : entry) as KitEntry),
    );
    const store = createStore(driver);
    expect(paths(await store.list())).toEqual(['a.md', 'b.md']);
    broken = (entry) => ({ ...entry, value: utf8('longer than the size') });
    expect(await codeOf(() => store.list())).toBe('INVALID_DOCUMENT');
    broken = (entry) => ({ ...entry, version: '' });
    expect(await codeOf(() => store.list())).toBe('INVALID_DOCUMENT');
    broken = () => null as unknown as KitEntry;
    expect(await codeOf(() => store.list())).toBe('INVALID_DOCUMENT');
    broken = (entry) => ({ ...entry, value: utf8('b.md') });
    expect(paths(await store.list())).toEqual(['a.md', 'b.md']);
  });
});
