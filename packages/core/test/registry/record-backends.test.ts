// Why: the registry opens verified memory the same way for every scheme: the scheme's native
// backend when it declares one, JSON documents in the store otherwise (closing the store with
// the backend); and `diagnoseStore` reports a store that cannot be opened instead of throwing.
import { describe, expect, it } from 'vitest';
import {
  createInMemoryStore,
  type MemoryStore,
  RepomemError,
  StoreRegistry,
  type StoreScheme,
  type VerifiedMemoryBackend,
} from '../../src/index.js';

function memoryScheme(
  name: string,
  extra: Partial<StoreScheme<string>> = {},
): { scheme: StoreScheme<string>; closed: string[] } {
  const closed: string[] = [];
  const scheme: StoreScheme<string> = {
    scheme: name,
    grammar: `${name}:<label>`,
    parse: (rest) => rest,
    label: (target) => `${name}:${target}`,
    open: async (target) => {
      if (target === 'missing') throw new RepomemError('NOT_FOUND', 'no such store');
      const store: MemoryStore = createInMemoryStore();
      const close = store.close.bind(store);
      return Object.assign(Object.create(store) as MemoryStore, {
        close: async () => {
          closed.push(target);
          await close();
        },
      });
    },
    ...extra,
  };
  return { scheme, closed };
}

describe('StoreRegistry.openVerifiedBackend', () => {
  it('keeps records as documents in the store when the scheme has no native backend, and closes the store with it', async () => {
    const registry = new StoreRegistry({ builtins: false });
    const { scheme, closed } = memoryScheme('mem');
    registry.registerStoreScheme(scheme);
    const backend = await registry.openVerifiedBackend('mem:a', { repo: 'acme/app', cwd: '/' });
    expect(backend.name).toBe('documents');
    expect(await backend.recent({ repo: 'acme/app' })).toEqual([]);
    await backend.close();
    expect(closed).toEqual(['a']);
  });

  it("uses the scheme's native backend when it declares one", async () => {
    const registry = new StoreRegistry({ builtins: false });
    const native = { name: 'native', close: async () => undefined } as unknown as VerifiedMemoryBackend;
    const { scheme } = memoryScheme('nat', { openVerifiedBackend: async () => native });
    registry.registerStoreScheme(scheme);
    expect(await registry.openVerifiedBackend('nat:x', { cwd: '/' })).toBe(native);
  });
});

describe('StoreRegistry.diagnoseStore', () => {
  it('reports each generic check of a store that opens', async () => {
    const registry = new StoreRegistry({ builtins: false });
    registry.registerStoreScheme(memoryScheme('mem').scheme);
    const checks = await registry.diagnoseStore('mem:a', { cwd: '/' });
    expect(checks.map((check) => [check.check, check.status])).toEqual([
      ['opens', 'ok'],
      ['lists documents', 'ok'],
      ['reads state', 'ok'],
    ]);
  });

  it('reports a store that cannot be opened as a failed check with a fix, without throwing', async () => {
    const registry = new StoreRegistry({ builtins: false });
    registry.registerStoreScheme(memoryScheme('mem').scheme);
    const checks = await registry.diagnoseStore('mem:missing', { cwd: '/' });
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ check: 'opens', status: 'failed' });
    expect(checks[0]?.detail).toContain('no such store (NOT_FOUND)');
    expect(checks[0]?.fix).toBeDefined();
  });

  it("uses the scheme's own diagnose when it has one", async () => {
    const registry = new StoreRegistry({ builtins: false });
    const own = [{ check: 'reachable', status: 'ok' as const, detail: 'pong' }];
    registry.registerStoreScheme(memoryScheme('own', { diagnose: async () => own }).scheme);
    expect(await registry.diagnoseStore('own:a', { cwd: '/' })).toBe(own);
  });
});
