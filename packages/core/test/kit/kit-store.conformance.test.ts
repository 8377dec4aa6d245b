// Why: `createStore` must give a conforming store whatever the driver's batch guarantee: the
// store conformance, hardening and both record suites run unmodified on the in-memory driver
// (atomic batches) and on the same driver declared `per-key` (one change per call, put back on
// conflict), with a second store on the same driver as `openAnother`.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInMemoryDriver, createStore, type KitDriver, type KitStore } from '../../src/kit/index.js';
import {
  runRecordBackendConformance,
  runStoreConformance,
  runStoreHardening,
  runTaskRecordBackendConformance,
} from '../../src/testing/index.js';

const runner = { describe, it, expect, beforeEach, afterEach };

/** The in-memory driver declared per-key, and refusing batches of more than one change as promised. */
function perKey(driver: KitDriver): KitDriver {
  return {
    ...driver,
    batch: 'per-key',
    write: (changes, metadata) => {
      if (changes.length !== 1) throw new Error(`per-key driver got ${changes.length} changes`);
      return driver.write(changes, metadata);
    },
  };
}

/** A second view of `driver` whose close leaves the driver open (the first store owns it). */
function shared(driver: KitDriver): KitDriver {
  return { ...driver, close: async () => {} };
}

for (const [label, make] of [
  ['atomic', () => createInMemoryDriver()],
  ['per-key', () => perKey(createInMemoryDriver())],
] as const) {
  runStoreConformance<KitStore>({
    name: `kit store on the in-memory driver (${label}) conformance`,
    runner,
    createStore: async () => createStore(make()),
    openAnother: async (store) => createStore(shared(store.driver)),
  });
  runStoreHardening<KitStore>({
    name: `kit store on the in-memory driver (${label}) hardening`,
    runner,
    createStore: async () => createStore(make()),
  });
  runRecordBackendConformance({
    name: `verified records on the kit store (${label})`,
    runner,
    createBackend: async () => createStore(make()).verifiedBackend(),
  });
  runTaskRecordBackendConformance({
    name: `task records on the kit store (${label})`,
    runner,
    createBackend: async () => createStore(make()).taskRecordBackend(),
  });
}
