// Why: the state API (sync cursors, thread state) must give the same guarantees on every store:
// exact compare-and-swap, JSON values that round-trip, the same key and value rules, and values
// kept off the document tree. These groups check them through the store's own `state` object.
import type { JsonValue } from '../store/state-contract.js';
import { MAX_STATE_VALUE_CHARACTERS } from '../store/state-values.js';
import type { ConformanceHarness } from './conformance-support.js';

/** State keys every store must refuse (with `INVALID_ARGUMENT`). */
export const INVALID_STATE_KEYS: readonly string[] = [
  '',
  '/sync',
  'sync/',
  'a//b',
  '../escape',
  'sync/../x',
  '.hidden',
  'sync/.hidden',
  'a..b',
  'sync/main.lock',
  'with space',
  'new\nline',
  'back\\slash',
  'colon:key',
  'x'.repeat(201),
];

/** Register the state groups. */
export function registerStateGroups(h: ConformanceHarness): void {
  const { describe, expect } = h.options.runner;
  const state = () => h.store().state;

  describe('state values', () => {
    h.test('a missing key reads as undefined and lists nothing', async () => {
      expect(await state().get('sync/acme/app')).toBeUndefined();
      expect(await state().list()).toEqual([]);
    });
    h.test('a created value round-trips as JSON with a version', async () => {
      const value = {
        cursor: '2026-05-01T00:00:00Z',
        pages: [1, 2, 3],
        nested: { ok: true, none: null },
        text: 'é ✓ 😀',
      };
      const created = await state().put('sync/acme/app', value, null);
      expect(created.status).toBe('committed');
      const read = await state().get('sync/acme/app');
      expect(read?.key).toBe('sync/acme/app');
      expect(read?.value).toEqual(value);
      expect(typeof read?.version).toBe('string');
      if (created.status === 'committed') expect(read?.version).toBe(created.version);
    });
    h.test('keys allow the characters of thread keys and repository slugs', async () => {
      for (const key of ['thread/o%2Fr--issue--1--answer--default', 'scan/acme/app_1.x', 'sync/user@host', 'a-b']) {
        expect((await state().put(key, 1)).status, key).toBe('committed');
        expect((await state().get(key))?.value, key).toBe(1);
      }
    });
    h.test('the version changes when the value changes', async () => {
      await state().put('k', { n: 1 });
      const first = await state().get('k');
      await state().put('k', { n: 2 });
      const second = await state().get('k');
      expect(second?.value).toEqual({ n: 2 });
      expect(second?.version).not.toBe(first?.version);
    });
    h.test('a stale expected version is a conflict naming the current version and changes nothing', async () => {
      await state().put('k', 'one', null);
      const stale = (await state().get('k'))?.version as string;
      await state().put('k', 'two', stale);
      const current = await state().get('k');
      const result = await state().put('k', 'three', stale);
      expect(result).toEqual({ status: 'conflict', expected: stale, actual: current?.version });
      expect((await state().get('k'))?.value).toBe('two');
    });
    h.test(
      'null on an existing key is a conflict; a version on a missing key is a conflict with actual null',
      async () => {
        await state().put('k', 1);
        const existing = await state().put('k', 2, null);
        expect(existing.status).toBe('conflict');
        const missing = await state().put('absent', 2, 'some-version');
        expect(missing).toEqual({ status: 'conflict', expected: 'some-version', actual: null });
        expect(await state().get('absent')).toBeUndefined();
      },
    );
    h.test('delete honours the expected version and leaves no trace', async () => {
      await state().put('k', 1);
      const version = (await state().get('k'))?.version as string;
      expect((await state().delete('k', 'wrong')).status).toBe('conflict');
      expect((await state().get('k'))?.value).toBe(1);
      expect(await state().delete('k', version)).toEqual({ status: 'committed', version: null });
      expect(await state().get('k')).toBeUndefined();
      expect(await state().list()).toEqual([]);
      expect((await state().delete('k')).status, 'unchecked delete of a missing key').toBe('committed');
    });
    h.test('list is sorted by key and filtered by prefix', async () => {
      for (const key of ['sync/b', 'thread/x', 'sync/a/deep', 'sync/a', 'syncx']) await state().put(key, key);
      expect((await state().list()).map((entry) => entry.key)).toEqual([
        'sync/a',
        'sync/a/deep',
        'sync/b',
        'syncx',
        'thread/x',
      ]);
      expect((await state().list({ prefix: 'sync/' })).map((entry) => entry.key)).toEqual([
        'sync/a',
        'sync/a/deep',
        'sync/b',
      ]);
      const [first] = await state().list({ prefix: 'thread/' });
      expect(first?.value).toBe('thread/x');
    });
    h.test('state is kept off the document tree', async () => {
      await state().put('sync/acme/app', { cursor: 'x' });
      expect(await h.store().list()).toEqual([]);
      await h.expectPaths([]);
    });
    h.test('20 concurrent compare-and-swap increments of one key all land', async () => {
      await state().put('counter', 0, null);
      const increment = async (): Promise<void> => {
        for (;;) {
          const current = await state().get('counter');
          const result = await state().put('counter', (current?.value as number) + 1, current?.version ?? null);
          if (result.status === 'committed') return;
        }
      };
      await Promise.all(Array.from({ length: 20 }, increment));
      expect((await state().get('counter'))?.value).toBe(20);
    });
    h.test('of two concurrent creators exactly one commits', async () => {
      const results = await Promise.all([state().put('once', 'a', null), state().put('once', 'b', null)]);
      expect(results.filter((result) => result.status === 'committed')).toHaveLength(1);
    });
  });

  describe('state validation', () => {
    h.test('invalid keys are INVALID_ARGUMENT for every call', async () => {
      for (const key of INVALID_STATE_KEYS) {
        await h.expectError(() => state().put(key, 1), 'INVALID_ARGUMENT');
        await h.expectError(() => state().get(key), 'INVALID_ARGUMENT');
        await h.expectError(() => state().delete(key), 'INVALID_ARGUMENT');
      }
      expect(await state().list()).toEqual([]);
    });
    h.test('values that are not plain JSON are INVALID_ARGUMENT and write nothing', async () => {
      const bad: unknown[] = [
        undefined,
        () => 1,
        Number.NaN,
        Number.POSITIVE_INFINITY,
        new Date(0),
        { a: undefined },
        [1n],
      ];
      for (const value of bad) {
        await h.expectError(() => state().put('k', value as JsonValue), 'INVALID_ARGUMENT');
      }
      expect(await state().get('k')).toBeUndefined();
    });
    h.test(`a value over ${MAX_STATE_VALUE_CHARACTERS} serialised characters is INVALID_ARGUMENT`, async () => {
      await h.expectError(() => state().put('k', 'x'.repeat(MAX_STATE_VALUE_CHARACTERS)), 'INVALID_ARGUMENT');
      expect(await state().get('k')).toBeUndefined();
      const fits = 'x'.repeat(MAX_STATE_VALUE_CHARACTERS - 2);
      expect((await state().put('k', fits)).status).toBe('committed');
      expect((await state().get('k'))?.value).toBe(fits);
    });
  });
}
