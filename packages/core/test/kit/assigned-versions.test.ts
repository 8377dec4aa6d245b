// Why: the optional `assignsVersions` capability (git keeps its blob and commit ids as versions):
// a driver choosing its own versions passes the whole driver suite (through the suite's label
// view) and every store suite on `createStore`, the store reports the driver's versions for
// documents and state, and a driver that declares the capability but answers no versions is a
// clear error, never a wrong version.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isRepomemError } from '../../src/errors.js';
import { createInMemoryDriver, createStore, type KitDriver } from '../../src/kit/index.js';
import { runDriverConformance } from '../../src/testing/index.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The reference driver, storing versions of its own (`n1`, `n2`, ...) instead of the kit's. */
function assigningDriver(answer = true): KitDriver {
  const base = createInMemoryDriver();
  let counter = 0;
  return {
    ...base,
    assignsVersions: true,
    async write(changes, metadata) {
      const assigned = changes.map((change) => (change.value === null ? null : `n${++counter}`));
      const result = await base.write(
        changes.map((change, index) => ({ ...change, version: assigned[index] ?? null })),
        metadata,
      );
      if (result.status === 'conflict' || !answer) return result;
      return { status: 'committed', versions: assigned };
    },
  };
}

runDriverConformance({
  name: 'in-memory driver assigning its own versions',
  runner: { describe, it, expect, beforeEach, afterEach },
  createDriver: async () => assigningDriver(),
});

describe('a driver that assigns versions', () => {
  it('has its versions reported by write, get, list and state', async () => {
    const store = createStore(assigningDriver());
    const first = await store.write([{ kind: 'put', path: 'a.md', content: utf8('- a\n'), expectedVersion: null }]);
    expect(first).toEqual({ status: 'committed', versions: { 'a.md': 'n1' } });
    expect((await store.get('a.md'))?.version).toBe('n1');
    expect(await store.list()).toEqual([{ path: 'a.md', version: 'n1', size: 4 }]);
    const second = await store.write([{ kind: 'put', path: 'a.md', content: utf8('- b\n'), expectedVersion: 'n1' }]);
    expect(second).toEqual({ status: 'committed', versions: { 'a.md': 'n2' } });
    expect((await store.get('a.md'))?.content).toEqual(utf8('- b\n'));
    const put = await store.state.put('cursor', { at: 1 }, null);
    expect(put).toEqual({ status: 'committed', version: 'n3' });
    expect((await store.state.get('cursor'))?.version).toBe('n3');
    expect((await store.state.put('cursor', { at: 2 }, 'n3')).status).toBe('committed');
    await store.close();
  });

  it('is INVALID_DOCUMENT when the driver answers no versions, and refuses a declaration other than true', async () => {
    const store = createStore(assigningDriver(false));
    const error = await store.write([{ kind: 'put', path: 'a.md', content: utf8('- a\n') }]).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isRepomemError(error, 'INVALID_DOCUMENT')).toBe(true);
    const wrong = { ...createInMemoryDriver(), assignsVersions: 'yes' } as unknown as KitDriver;
    expect(() => createStore(wrong)).toThrow(/assignsVersions/);
  });
});
