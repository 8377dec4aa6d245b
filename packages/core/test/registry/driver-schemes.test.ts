// Why: a scheme that supplies a kit driver is opened once per spec: the registry builds the store
// with createStore and hands out both record backends from that same store (one driver, one
// connection); and a bundled application names package loaders, never its own copy of the
// scheme map.
import { describe, expect, it } from 'vitest';
import {
  createInMemoryDriver,
  type KitDriver,
  type SchemeModule,
  StoreRegistry,
  type StoreScheme,
} from '../../src/index.js';

function driverScheme(): { scheme: StoreScheme<string>; opened: KitDriver[]; closed: string[] } {
  const opened: KitDriver[] = [];
  const closed: string[] = [];
  const scheme: StoreScheme<string> = {
    scheme: 'kitmem',
    grammar: 'kitmem:<label>',
    parse: (rest) => rest,
    label: (target) => `kitmem:${target}`,
    openDriver: async (target) => {
      const driver = createInMemoryDriver();
      const counted: KitDriver = {
        ...driver,
        close: async () => {
          closed.push(target);
          await driver.close();
        },
      };
      opened.push(counted);
      return counted;
    },
  };
  return { scheme, opened, closed };
}

describe('schemes with a kit driver', () => {
  it('openStoreSet opens one driver for the store and both record backends, and closes it once', async () => {
    const { scheme, opened, closed } = driverScheme();
    const registry = new StoreRegistry({ builtins: false });
    registry.registerStoreScheme(scheme);
    const set = await registry.openStoreSet('kitmem:one', { cwd: '/', repo: 'acme/app' });
    const verified = await set.verified();
    const tasks = await set.tasks();
    expect(await verified.recent({ repo: 'acme/app' })).toEqual([]);
    expect(await tasks.list({ repo: 'acme/app', kind: 'episode' })).toEqual([]);
    expect(set.store.name).toBe('memory');
    expect(opened).toHaveLength(1);
    await set.close();
    expect(closed).toEqual(['one']);
  });

  it('openStore and openVerifiedBackend build on the driver when the scheme has no open', async () => {
    const { scheme, opened, closed } = driverScheme();
    const registry = new StoreRegistry({ builtins: false });
    registry.registerStoreScheme(scheme);
    const store = await registry.openStore('kitmem:a', { cwd: '/' });
    expect(store.capabilities.atomicBatch).toBe(true);
    await store.close();
    const backend = await registry.openVerifiedBackend('kitmem:b', { cwd: '/' });
    await backend.close();
    expect(opened).toHaveLength(2);
    expect(closed).toEqual(['a', 'b']);
  });

  it('a bundled application passes package loaders; the scheme names stay core’s', async () => {
    const { scheme } = driverScheme();
    const loads: string[] = [];
    const registry = new StoreRegistry({
      packages: {
        '@repomem/store-postgres': async (): Promise<SchemeModule> => {
          loads.push('postgres');
          return { storeScheme: { ...scheme, scheme: 'postgres' } };
        },
      },
    });
    expect(registry.storeSchemes()).toContain('dynamodb');
    const store = await registry.openStore('postgresql:x', { cwd: '/' });
    await store.close();
    expect(loads).toEqual(['postgres']);
  });
});
