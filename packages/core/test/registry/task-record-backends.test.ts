// Why: the registry opens task records the same way for every scheme: the scheme's native
// backend when it declares one, JSON documents in the store otherwise (closing the store with
// the backend).
import { describe, expect, it } from 'vitest';
import {
  createInMemoryStore,
  type MemoryStore,
  StoreRegistry,
  type StoreScheme,
  type TaskRecordBackend,
} from '../../src/index.js';
import { taskConformanceRecord } from '../../src/testing/index.js';

function memoryScheme(name: string, extra: Partial<StoreScheme<string>> = {}) {
  const closed: string[] = [];
  const stores = new Map<string, MemoryStore>();
  const scheme: StoreScheme<string> = {
    scheme: name,
    grammar: `${name}:<label>`,
    parse: (rest) => rest,
    label: (target) => `${name}:${target}`,
    open: async (target) => {
      const inner = stores.get(target) ?? createInMemoryStore();
      stores.set(target, inner);
      return Object.assign(Object.create(inner) as MemoryStore, {
        close: async () => {
          closed.push(target);
        },
      });
    },
    ...extra,
  };
  return { scheme, closed };
}

describe('StoreRegistry.openTaskRecordBackend', () => {
  it('keeps task records as documents in the store without a native backend, and closes the store with it', async () => {
    const registry = new StoreRegistry({ builtins: false });
    const { scheme, closed } = memoryScheme('mem');
    registry.registerStoreScheme(scheme);
    const backend = await registry.openTaskRecordBackend('mem:a', { repo: 'acme/app', cwd: '/' });
    expect(backend.name).toBe('documents');
    const record = taskConformanceRecord();
    expect(await backend.apply([{ record, expectedRevision: null }])).toEqual({ ok: true });
    await backend.close();
    expect(closed).toEqual(['a']);
    const again = await registry.openTaskRecordBackend('mem:a', { cwd: '/' });
    expect(await again.get('acme/app', 'knowledge', record.id)).toEqual(record);
    await again.close();
  });

  it("uses the scheme's native backend when it declares one", async () => {
    const registry = new StoreRegistry({ builtins: false });
    const native = { name: 'native', close: async () => undefined } as unknown as TaskRecordBackend;
    const { scheme } = memoryScheme('nat', { openTaskRecordBackend: async () => native });
    registry.registerStoreScheme(scheme);
    expect(await registry.openTaskRecordBackend('nat:x', { cwd: '/' })).toBe(native);
  });
});
