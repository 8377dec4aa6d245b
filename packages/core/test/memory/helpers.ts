// Why: small test utilities around the real in-memory store: read documents as text, snapshot the
// whole store, and wrap a store to observe writes or inject a concurrent writer before a write.
import type { MemoryStore, WriteMetadata, WriteOperation, WriteResult } from '../../src/store/contract.js';

/** Current text of `path` in `store`, or `undefined`. */
export async function readStoreText(store: MemoryStore, path: string): Promise<string | undefined> {
  const document = await store.get(path);
  return document === undefined ? undefined : new TextDecoder().decode(document.content);
}

/** Every document of the store as `path -> version` plus the store revision. */
export async function snapshot(store: MemoryStore): Promise<{ revision: string; versions: Record<string, string> }> {
  const versions: Record<string, string> = {};
  for (const entry of await store.list()) versions[entry.path] = entry.version;
  return { revision: await store.revision(), versions };
}

/** A store that delegates to `inner`, records write metadata and can run a hook before each write. */
export function wrapStore(
  inner: MemoryStore,
  options: {
    beforeWrite?: (operations: readonly WriteOperation[], call: number) => Promise<void>;
    overrides?: Partial<MemoryStore>;
  } = {},
): MemoryStore & { readonly writes: { operations: readonly WriteOperation[]; metadata?: WriteMetadata }[] } {
  const writes: { operations: readonly WriteOperation[]; metadata?: WriteMetadata }[] = [];
  let calls = 0;
  return {
    specificationVersion: inner.specificationVersion,
    name: `wrapped-${inner.name}`,
    capabilities: inner.capabilities,
    state: inner.state,
    get: (path) => inner.get(path),
    list: (prefix) => inner.list(prefix),
    revision: () => inner.revision(),
    close: () => inner.close(),
    async write(operations, metadata): Promise<WriteResult> {
      calls += 1;
      await options.beforeWrite?.(operations, calls);
      writes.push({ operations, ...(metadata === undefined ? {} : { metadata }) });
      return inner.write(operations, metadata);
    },
    ...options.overrides,
    writes,
  };
}
