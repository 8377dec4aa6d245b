// Why: a third-party driver author needs one call that says whether their driver keeps the kit's
// promises, before and after `createStore` builds a store on it: exact bytes and versions,
// ordered prefix scans, namespaces kept apart, compare-and-swap that turns every race into
// exactly one winner, all-or-nothing batches when `atomic` is declared, time-to-live when
// declared; then every store-level suite (store, hardening, records, vectors, task memory) on
// `createStore(driver)`.
import { checkDriver } from '../kit/check-driver.js';
import { createStore, type KitStore } from '../kit/create-store.js';
import type { KitChange, KitDriver } from '../kit/driver.js';
import { contentVersion } from '../store/content-version.js';
import { runStoreConformance } from './conformance.js';
import { registerPerTestSubject } from './conformance-lifecycle.js';
import type { ConformanceRunner } from './conformance-types.js';
import { labelVersions } from './driver-version-labels.js';
import { runStoreHardening } from './hardening.js';
import { runRecordBackendConformance } from './record-backend-conformance.js';
import { runTaskMemoryScenarios } from './task-memory-scenarios.js';
import { runTaskRecordBackendConformance } from './task-record-conformance.js';
import { runVectorIndexConformance } from './vector-conformance.js';

/** Options of {@link runDriverConformance}. */
export interface DriverConformanceOptions<D extends KitDriver = KitDriver> {
  /** Label of the top-level group (default: `driver conformance`). */
  readonly name?: string;
  /** Test runner functions, e.g. `{ describe, it, expect, beforeEach, afterEach }` from vitest. */
  readonly runner: ConformanceRunner;
  /** A fresh driver over EMPTY backing data for every test (a new table, key prefix or file). */
  createDriver(): Promise<D>;
  /** Clean up after a test (the suite has already called `close()`). */
  teardown?(driver: D): Promise<void>;
  /** A second driver on the same backing data (enables the store suite's cross-instance groups). */
  openAnother?(driver: D): Promise<D>;
  /**
   * Also run the store, hardening, verified-record, task-record, vector-index and task-memory
   * suites on `createStore(driver)` (default `true`).
   */
  readonly stores?: boolean;
  /** Per-test timeout in ms (default 30000). */
  readonly timeoutMs?: number;
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array | undefined): string | undefined =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);
const put = (key: string, text: string, expected?: string | null, namespace = 'documents'): KitChange => ({
  namespace,
  key,
  value: utf8(text),
  version: `v-${text}`,
  ...(expected === undefined ? {} : { expected }),
});
const remove = (key: string, expected?: string | null): KitChange => ({
  namespace: 'documents',
  key,
  value: null,
  version: null,
  ...(expected === undefined ? {} : { expected }),
});

/**
 * Register the driver conformance suite with a test runner.
 *
 * ```ts
 * import { afterEach, beforeEach, describe, expect, it } from 'vitest';
 * import { runDriverConformance } from '@repomem/core/testing';
 *
 * runDriverConformance({
 *   name: 'my driver',
 *   runner: { describe, it, expect, beforeEach, afterEach },
 *   createDriver: async () => openMyDriver(await freshTable()),
 * });
 * ```
 */
export function runDriverConformance<D extends KitDriver>(options: DriverConformanceOptions<D>): void {
  const { runner } = options;
  const { describe, expect } = runner;
  const timeout = options.timeoutMs ?? 30_000;
  const name = options.name ?? 'driver conformance';
  describe(name, () => {
    const subject = registerPerTestSubject(runner, options.createDriver, options.teardown, 'driver');
    // A driver that assigns its own versions is checked through a view speaking the suite's labels.
    const views = new WeakMap<D, D>();
    const driver = (): D => {
      const raw = subject();
      let view = views.get(raw);
      if (view === undefined) {
        view = labelVersions(raw);
        views.set(raw, view);
      }
      return view;
    };
    const test = (title: string, body: () => Promise<void>): void => runner.it(title, body, timeout);
    const write = (...changes: KitChange[]) => driver().write(changes);
    // The version a read answers for a value written with `declared`: the content's hash on a
    // driver with `contentVersions`, else `declared` itself.
    const stored = (declared: string, bytes: Uint8Array): string =>
      driver().contentVersions === true ? contentVersion(bytes) : declared;
    /** The version of a value written by `put(key, text)`. */
    const v = (text: string): string => stored(`v-${text}`, utf8(text));
    const versionOf = async (key: string, namespace = 'documents') =>
      (await driver().read(namespace, [key]))[0]?.version ?? null;

    test('declares the contract (version, name, batch guarantee, value limit, methods)', async () => {
      expect(checkDriver(driver())).toBe(driver());
    });
    test('bytes and versions round-trip exactly; absent keys read as undefined, in the order asked', async () => {
      const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
      expect(
        (await write({ namespace: 'documents', key: 'bin.dat', value: bytes, version: 'v1', expected: null })).status,
      ).toBe('committed');
      await write(put('a.md', 'alpha'));
      const [missing, binary, alpha] = await driver().read('documents', ['nope.md', 'bin.dat', 'a.md']);
      expect(missing).toBeUndefined();
      expect(binary?.version).toBe(stored('v1', bytes));
      expect(binary?.size).toBe(256);
      expect(Array.from(binary?.value ?? [])).toEqual(Array.from(bytes));
      expect(decode(alpha?.value)).toBe('alpha');
      const empty = { namespace: 'documents', key: 'empty.md', value: new Uint8Array(0), version: 've' };
      await write(empty);
      expect((await driver().read('documents', ['empty.md']))[0]?.size).toBe(0);
    });
    test('keys keep unicode, case, spaces and deep paths exactly', async () => {
      const keys = ['Notes/Café.md', 'notes/cafe\u0301.md', 'deep/a/b/c/d/e.md', 'with space.md', '日本/😀.md'];
      for (const key of keys) await write(put(key, key));
      const found = await driver().read('documents', keys);
      expect(found.map((entry) => decode(entry?.value))).toEqual(keys);
      expect((await driver().scan('documents', { prefix: '' })).map((entry) => entry.key)).toHaveLength(keys.length);
    });
    test('scan is sorted, filtered by prefix, and without values when asked', async () => {
      for (const key of ['b/2.md', 'a.md', 'b/1.md', 'ba.md', 'c.md']) await write(put(key, key));
      const all = await driver().scan('documents', { prefix: '' });
      expect(all.map((entry) => entry.key)).toEqual(['a.md', 'b/1.md', 'b/2.md', 'ba.md', 'c.md']);
      expect(decode(all[0]?.value)).toBe('a.md');
      const under = await driver().scan('documents', { prefix: 'b/', values: false });
      expect(under.map((entry) => [entry.key, entry.version, entry.size])).toEqual([
        ['b/1.md', v('b/1.md'), 6],
        ['b/2.md', v('b/2.md'), 6],
      ]);
      expect((await driver().scan('documents', { prefix: 'zzz' })).length).toBe(0);
    });
    test('namespaces are kept apart', async () => {
      await write(put('k', 'document'), put('k', 'state', undefined, 'state'));
      expect(decode((await driver().read('documents', ['k']))[0]?.value)).toBe('document');
      expect(decode((await driver().read('state', ['k']))[0]?.value)).toBe('state');
      await write(remove('k'));
      expect(await versionOf('k', 'state')).toBe(v('state'));
      expect((await driver().scan('state', { prefix: '' })).map((entry) => entry.key)).toEqual(['k']);
    });
    test('expected versions: absent, exact, stale; a conflict names the actual version and changes nothing', async () => {
      expect((await write(put('a.md', 'one', null))).status).toBe('committed');
      expect(await write(put('a.md', 'two', null))).toEqual({
        status: 'conflict',
        conflicts: [{ namespace: 'documents', key: 'a.md', actual: v('one') }],
      });
      expect(await write(put('a.md', 'two', 'v-stale'))).toEqual({
        status: 'conflict',
        conflicts: [{ namespace: 'documents', key: 'a.md', actual: v('one') }],
      });
      expect(await versionOf('a.md')).toBe(v('one'));
      expect((await write(put('a.md', 'two', v('one')))).status).toBe('committed');
      expect(await write(remove('a.md', v('one')))).toEqual({
        status: 'conflict',
        conflicts: [{ namespace: 'documents', key: 'a.md', actual: v('two') }],
      });
      expect((await write(remove('a.md', v('two')))).status).toBe('committed');
      expect(await versionOf('a.md')).toBe(null);
      expect(await write(put('a.md', 'x', v('two')))).toEqual({
        status: 'conflict',
        conflicts: [{ namespace: 'documents', key: 'a.md', actual: null }],
      });
      expect((await write(remove('absent.md'))).status).toBe('committed');
      expect((await write(remove('absent.md', null))).status).toBe('committed');
    });
    test('of 8 concurrent creators exactly one commits', async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, index) => write(put('race.md', `w${index}`, null))),
      );
      expect(results.filter((result) => result.status === 'committed')).toHaveLength(1);
    });
    test('12 concurrent compare-and-swap increments all land', async () => {
      await write(put('n', '0'));
      const increment = async (): Promise<void> => {
        for (;;) {
          const [entry] = await driver().read('documents', ['n']);
          const next = String(Number(decode(entry?.value)) + 1);
          const result = await write({ ...put('n', next, entry?.version ?? null), version: `v-${Math.random()}` });
          if (result.status === 'committed') return;
        }
      };
      await Promise.all(Array.from({ length: 12 }, increment));
      expect(decode((await driver().read('documents', ['n']))[0]?.value)).toBe('12');
    });
    test('a value of the declared limit (up to 4 MiB) round-trips', async () => {
      const size = Math.min(driver().maxValueBytes, 4 * 1024 * 1024);
      const value = new Uint8Array(size).fill(0x61);
      expect((await write({ namespace: 'documents', key: 'big', value, version: 'vb' })).status).toBe('committed');
      expect((await driver().read('documents', ['big']))[0]?.size).toBe(size);
    });
    test('atomic and isolated batches apply all changes or none (skipped for per-key drivers)', async () => {
      if (driver().batch === 'per-key') return;
      await write(put('a.md', 'a0'), put('b.md', 'b0'));
      const result = await write(put('a.md', 'a1', v('a0')), put('b.md', 'b1', 'v-stale'), put('c.md', 'c1', null));
      expect(result.status).toBe('conflict');
      expect([await versionOf('a.md'), await versionOf('b.md'), await versionOf('c.md')]).toEqual([
        v('a0'),
        v('b0'),
        null,
      ]);
      expect((await write(put('a.md', 'a1', v('a0')), remove('b.md', v('b0')))).status).toBe('committed');
      expect([await versionOf('a.md'), await versionOf('b.md')]).toEqual([v('a1'), null]);
    });
    test('revision: stable without writes, new after every document write (skipped without revision)', async () => {
      const revision = driver().revision;
      if (revision === undefined) return;
      const seen = new Set<string>([await revision.current()]);
      expect(await revision.current()).toBe([...seen][0]);
      for (const change of [put('r.md', 'r0'), put('r.md', 'r1', v('r0')), put('s.md', 's0', null)]) {
        expect((await write(change)).status).toBe('committed');
        const token = await revision.current();
        expect(seen.has(token)).toBe(false);
        seen.add(token);
      }
    });
    test('twins: candidates include every stored key that differs only in case (skipped without twins)', async () => {
      const twins = driver().twins;
      if (twins === undefined) return;
      await write(put('Notes/Plan.md', 'p'), put('notes-other/x.md', 'x'));
      const found = await twins.candidates('documents', ['notes/plan.md', 'NOTES/new.md']);
      expect(found).toContain('Notes/Plan.md');
    });
    test('time-to-live: an expired value is never returned (skipped without timeToLive)', async () => {
      if (driver().timeToLive === undefined) return;
      await write({ ...put('old.md', 'old'), expiresAt: Date.now() - 1000 });
      expect(await driver().read('documents', ['old.md'])).toEqual([undefined]);
      expect((await driver().scan('documents', { prefix: '' })).map((entry) => entry.key)).toEqual([]);
    });
  });

  if (options.stores === false) return;
  const storeOf = async (): Promise<KitStore> => createStore(await options.createDriver());
  const teardown = options.teardown;
  const storeTeardown = teardown === undefined ? undefined : (store: KitStore) => teardown(store.driver as D);
  const openAnother = options.openAnother;
  runStoreConformance<KitStore>({
    name: `${name}: store conformance on createStore(driver)`,
    runner,
    createStore: storeOf,
    ...(storeTeardown === undefined ? {} : { teardown: storeTeardown }),
    ...(openAnother === undefined
      ? {}
      : { openAnother: async (store: KitStore) => createStore(await openAnother(store.driver as D)) }),
    timeoutMs: timeout,
  });
  const onStore = {
    runner,
    createStore: storeOf,
    ...(storeTeardown === undefined ? {} : { teardown: storeTeardown }),
    timeoutMs: timeout,
  };
  runStoreHardening<KitStore>({ ...onStore, name: `${name}: store hardening on createStore(driver)` });
  runVectorIndexConformance<KitStore>({ ...onStore, name: `${name}: vector index on createStore(driver)` });
  runTaskMemoryScenarios<KitStore>({ ...onStore, name: `${name}: task memory scenarios on createStore(driver)` });
  const stores = new WeakMap<object, KitStore>();
  const closeStore = async (backend: object): Promise<void> => {
    const store = stores.get(backend);
    if (store === undefined) return;
    await store.close();
    await storeTeardown?.(store);
  };
  const withStore =
    <B extends object>(open: (store: KitStore) => Promise<B>) =>
    async (): Promise<B> => {
      const store = await storeOf();
      const backend = await open(store);
      stores.set(backend, store);
      return backend;
    };
  const records = { runner, teardown: closeStore, timeoutMs: timeout };
  runRecordBackendConformance({
    ...records,
    name: `${name}: verified records on createStore(driver)`,
    createBackend: withStore((store) => store.verifiedBackend()),
  });
  runTaskRecordBackendConformance({
    ...records,
    name: `${name}: task records on createStore(driver)`,
    createBackend: withStore((store) => store.taskRecordBackend()),
  });
}
