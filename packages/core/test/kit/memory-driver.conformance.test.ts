// Why: the in-memory driver is the reference reading of the driver contract; it passes the
// driver suite (and, through it, every store and record suite on `createStore(driver)`).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInMemoryDriver, type KitDriver } from '../../src/kit/index.js';
import { contentVersion } from '../../src/store/content-version.js';
import type { StoredDocument } from '../../src/store/contract.js';
import { runDriverConformance } from '../../src/testing/index.js';

runDriverConformance({
  name: 'in-memory driver',
  runner: { describe, it, expect, beforeEach, afterEach },
  createDriver: async () => createInMemoryDriver(),
});

// The optional capabilities on the same reference driver: a write counter as `revision`, and an
// `isolated` batch guarantee with its own `twins` answer (every stored key sharing a lower-cased
// top-level name with a key asked for: more than the twins, never fewer), so both paths of
// `createStore` run the whole suite.
runDriverConformance({
  name: 'in-memory driver with revision counter, isolated batches and native twins',
  runner: { describe, it, expect, beforeEach, afterEach },
  createDriver: async () => {
    const base = createInMemoryDriver({ revisionCounter: true });
    return {
      ...base,
      batch: 'isolated' as const,
      twins: {
        async candidates(namespace: string, keys: readonly string[]) {
          const top = (key: string) => key.split('/')[0]?.normalize('NFC').toLowerCase();
          const folded = new Set(keys.map(top));
          const listed = await base.scan(namespace, { prefix: '', values: false });
          return listed.map((entry) => entry.key).filter((key) => folded.has(top(key)));
        },
      },
    };
  },
});

// The driver-derived versions and the native one-pass read on the same reference driver: every
// version is the content's SHA-256 (the version a change carries is dropped), and `readAll`
// answers from one ordered scan with values, honouring `accept`, `each` and the prefix.
runDriverConformance({
  name: 'in-memory driver with content versions and a native readAll',
  runner: { describe, it, expect, beforeEach, afterEach },
  createDriver: async () => {
    const base = createInMemoryDriver();
    const driver: KitDriver = {
      ...base,
      contentVersions: true,
      write: (changes, metadata) =>
        base.write(
          changes.map((change) => ({
            ...change,
            version: change.value === null ? null : contentVersion(change.value),
          })),
          metadata,
        ),
      readAll: {
        async read(options) {
          const accept = options.accept ?? (() => true);
          const out: StoredDocument[] = [];
          for (const entry of await base.scan('documents', { prefix: options.prefix })) {
            if (entry.value === undefined || !accept(entry.key, entry.size)) continue;
            const document = { path: entry.key, version: entry.version, size: entry.size, content: entry.value };
            if (options.each === undefined) out.push(document);
            else options.each(document);
          }
          return out;
        },
      },
    };
    return driver;
  },
});
