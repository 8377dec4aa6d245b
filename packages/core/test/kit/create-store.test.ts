// Why: what the conformance suites cannot see: a driver that is not one is refused naming the
// problem, a malformed entry from a driver is a clear error, a per-key batch that conflicts
// half-way is put back, and a credential never reaches the driver.
import { describe, expect, it } from 'vitest';
import { isRepomemError } from '../../src/errors.js';
import { createInMemoryDriver, createStore, type KitChange, type KitDriver } from '../../src/kit/index.js';
import { FAKE_CREDENTIALS } from '../../src/testing/index.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (bytes: Uint8Array | undefined): string | undefined =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);

async function codeOf(run: () => unknown): Promise<string | undefined> {
  try {
    await run();
  } catch (error) {
    return isRepomemError(error) ? error.code : String(error);
  }
  return undefined;
}

describe('createStore', () => {
  it('refuses a driver of another contract version or with a missing method, naming the field', async () => {
    const driver = createInMemoryDriver();
    const wrong = { ...driver, kit: 2, scan: undefined } as unknown as KitDriver;
    expect(() => createStore(wrong)).toThrow(/kit: must be 1.*scan/);
    expect(await codeOf(() => createStore(wrong))).toBe('INVALID_ARGUMENT');
  });

  it('names every problem of a declaration, nested and optional members included', () => {
    const driver = createInMemoryDriver();
    const wrong = {
      ...driver,
      maxValueBytes: 1.5,
      batch: 'sometimes',
      history: { log: () => {} },
      twins: {},
    } as unknown as KitDriver;
    expect(() => createStore(wrong)).toThrow(
      /batch: must be .*maxValueBytes: must be a positive integer.*history\.readAt: must be a function.*twins\.candidates/,
    );
    expect(() => createStore(undefined as unknown as KitDriver)).toThrow(/driver: must be an object/);
  });

  it('turns a malformed entry from a driver into INVALID_DOCUMENT', async () => {
    const driver = createInMemoryDriver();
    const broken: KitDriver = {
      ...driver,
      read: async (_namespace, keys) => keys.map((key) => ({ key, version: '', size: 0 })),
    };
    expect(await codeOf(() => createStore(broken).get('a.md'))).toBe('INVALID_DOCUMENT');
  });

  it('puts back what a per-key batch applied when a later change conflicts', async () => {
    const inner = createInMemoryDriver();
    let calls = 0;
    const driver: KitDriver = {
      ...inner,
      batch: 'per-key',
      write: async (changes: readonly KitChange[]) => {
        calls += 1;
        // Another writer slips in before the second change of the first batch lands.
        if (calls === 2) {
          await inner.write([{ namespace: 'documents', key: 'b.md', value: utf8('theirs\n'), version: 'v-theirs' }]);
        }
        return inner.write(changes);
      },
    };
    const store = createStore(driver);
    const result = await store.write([
      { kind: 'put', path: 'a.md', content: utf8('ours\n'), expectedVersion: null },
      { kind: 'put', path: 'b.md', content: utf8('ours\n'), expectedVersion: null },
    ]);
    expect(result).toEqual({ status: 'conflict', conflicts: [{ path: 'b.md', expected: null, actual: 'v-theirs' }] });
    expect(await store.get('a.md')).toBeUndefined();
    expect(text((await store.get('b.md'))?.content)).toBe('theirs\n');
  });

  it('never hands a credential to the driver', async () => {
    const seen: KitChange[] = [];
    const inner = createInMemoryDriver();
    const store = createStore({
      ...inner,
      write: async (changes) => {
        seen.push(...changes);
        return inner.write(changes);
      },
    });
    const secret = FAKE_CREDENTIALS[0];
    if (secret === undefined) throw new Error('no fake credential');
    expect(
      await codeOf(() =>
        store.write([{ kind: 'put', path: 'a.md', content: utf8(`${secret.line}${secret.secret}\n`) }]),
      ),
    ).toBe('SECRET_DETECTED');
    expect(seen).toEqual([]);
  });

  it('checks a new path for twins under its deepest existing directory only, and still finds every twin', async () => {
    const inner = createInMemoryDriver();
    const scans: string[] = [];
    const store = createStore({
      ...inner,
      scan: (namespace, options) => {
        scans.push(`${namespace}:${options.prefix}`);
        return inner.scan(namespace, options);
      },
    });
    await store.write([
      { kind: 'put', path: 'daily/2026-05-01.md', content: utf8('- a\n') },
      { kind: 'put', path: 'notes/Foo/bar.md', content: utf8('- b\n') },
    ]);
    scans.length = 0;
    await store.write([{ kind: 'put', path: 'daily/2026-05-02.md', content: utf8('- c\n') }]);
    expect(scans).toEqual(['documents:daily/']);
    for (const twin of ['notes/foo', 'Notes/x.md', 'DAILY/2026-05-01.md', 'daily/2026-05-01.MD']) {
      expect(await codeOf(() => store.write([{ kind: 'put', path: twin, content: utf8('x') }]))).toBe('INVALID_PATH');
    }
    expect((await store.write([{ kind: 'put', path: 'notes/foo2/x.md', content: utf8('x') }])).status).toBe(
      'committed',
    );
  });

  it('keeps state values in their own namespace, expiring nothing without a time-to-live', async () => {
    const driver = createInMemoryDriver();
    const store = createStore(driver);
    await store.state.put('sync/cursor', { page: 2 });
    expect((await driver.scan('state', { prefix: '' })).map((entry) => entry.key)).toEqual(['sync/cursor']);
    expect(await store.list()).toEqual([]);
    await store.close();
    expect(await codeOf(() => store.state.get('sync/cursor'))).toBe('STORE_CLOSED');
  });
});

describe('optional driver capabilities', () => {
  it('hands readAll to a driver that declares it, with the prefix normalised and the store open', async () => {
    const asked: unknown[] = [];
    const driver: KitDriver = {
      ...createInMemoryDriver(),
      readAll: {
        async read(options) {
          asked.push(options.prefix);
          return [{ path: 'daily/a.md', version: 'v', size: 1, content: utf8('a') }];
        },
      },
    };
    const store = createStore(driver);
    expect(await store.readAll?.({ prefix: './daily/' })).toEqual([
      { path: 'daily/a.md', version: 'v', size: 1, content: utf8('a') },
    ]);
    expect(await store.readAll?.()).toHaveLength(1);
    expect(asked).toEqual(['daily/', '']);
    await store.close();
    expect(await codeOf(() => store.readAll?.())).toBe('STORE_CLOSED');
  });

  it('refuses a contentVersions declaration other than true', () => {
    const wrong = { ...createInMemoryDriver(), contentVersions: 'sha1' } as unknown as KitDriver;
    expect(() => createStore(wrong)).toThrow(/contentVersions/);
  });
});

describe('the in-memory driver', () => {
  it('honours expiresAt on read and scan', async () => {
    let now = 1_000;
    const driver = createInMemoryDriver({ now: () => now });
    await driver.write([{ namespace: 'n', key: 'k', value: utf8('x'), version: 'v1', expiresAt: 2_000 }]);
    expect((await driver.read('n', ['k']))[0]?.version).toBe('v1');
    now = 2_000;
    expect(await driver.read('n', ['k'])).toEqual([undefined]);
    expect(await driver.scan('n', { prefix: '' })).toEqual([]);
  });
});
