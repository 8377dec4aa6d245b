// Why: a scheme may open its store and native record backends from one connection (`openSet`);
// the registry's openStoreSet must prefer it to openDriver and the separate openers, keep the
// facets it leaves out as documents in its store, close the set once, and pass the open's
// connection limit through (checked at the boundary).
import { describe, expect, it } from 'vitest';
import {
  createDocumentRecordBackend,
  createInMemoryDriver,
  createInMemoryStore,
  isRepomemError,
  type OpenStoreContext,
  StoreRegistry,
  type StoreScheme,
} from '../../src/index.js';

function setScheme(withVerified: boolean) {
  const calls: string[] = [];
  const contexts: OpenStoreContext[] = [];
  const scheme: StoreScheme<string> = {
    scheme: 'setmem',
    grammar: 'setmem:<label>',
    parse: (rest) => rest,
    label: (target) => `setmem:${target}`,
    open: async () => {
      calls.push('open');
      return createInMemoryStore();
    },
    openDriver: async () => {
      calls.push('openDriver');
      return createInMemoryDriver();
    },
    openVerifiedBackend: async () => {
      calls.push('openVerifiedBackend');
      return createDocumentRecordBackend(createInMemoryStore());
    },
    openSet: async (_target, context) => {
      calls.push('openSet');
      contexts.push(context);
      const store = createInMemoryStore();
      const verifiedBackend = withVerified ? createDocumentRecordBackend(store) : undefined;
      return {
        store,
        ...(verifiedBackend === undefined ? {} : { verifiedBackend }),
        close: async () => {
          calls.push('close');
          await verifiedBackend?.close();
          await store.close();
        },
      };
    },
  };
  return { scheme, calls, contexts };
}

describe('schemes with openSet', () => {
  it('openStoreSet opens the set once and hands out its facets, documents for the missing ones', async () => {
    const { scheme, calls, contexts } = setScheme(true);
    const registry = new StoreRegistry({ builtins: false });
    registry.registerStoreScheme(scheme);
    const set = await registry.openStoreSet('setmem:x', { cwd: '/', repo: 'acme/app', maxConnections: 1 });
    const verified = await set.verified();
    expect(await set.verified()).toBe(verified);
    const tasks = await set.tasks();
    expect(await tasks.list({ repo: 'acme/app', kind: 'episode' })).toEqual([]);
    expect(await verified.recent({ repo: 'acme/app' })).toEqual([]);
    expect(contexts[0]?.maxConnections).toBe(1);
    await set.close();
    await set.close();
    expect(calls).toEqual(['openSet', 'close']);
  });

  it('keeps the facets a set leaves out as documents in its store', async () => {
    const { scheme } = setScheme(false);
    const registry = new StoreRegistry({ builtins: false });
    registry.registerStoreScheme(scheme);
    const set = await registry.openStoreSet('setmem:y', { cwd: '/', repo: 'acme/app' });
    const verified = await set.verified();
    const tasks = await set.tasks();
    expect(await verified.recent({ repo: 'acme/app' })).toEqual([]);
    expect(await tasks.list({ repo: 'acme/app', kind: 'episode' })).toEqual([]);
    await set.close();
    // Documents in the set's store: closed with it.
    const refused = await tasks.list({ repo: 'acme/app', kind: 'episode' }).catch((error: unknown) => error);
    expect(isRepomemError(refused, 'STORE_CLOSED')).toBe(true);
  });

  it('refuses a connection limit that is not a positive integer', async () => {
    const { scheme } = setScheme(true);
    const registry = new StoreRegistry({ builtins: false });
    registry.registerStoreScheme(scheme);
    for (const maxConnections of [0, -1, 1.5]) {
      const refused = await registry
        .openStoreSet('setmem:z', { cwd: '/', maxConnections })
        .catch((error: unknown) => error);
      expect(isRepomemError(refused, 'INVALID_ARGUMENT')).toBe(true);
    }
  });
});
