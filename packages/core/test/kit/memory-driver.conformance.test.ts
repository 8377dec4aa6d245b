// Why: the in-memory driver is the reference reading of the driver contract; it passes the
// driver suite (and, through it, every store and record suite on `createStore(driver)`).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInMemoryDriver } from '../../src/kit/index.js';
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
