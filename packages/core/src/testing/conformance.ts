// Why: one conformance suite that every store (in-tree or third-party) runs, in the keyv /
// Auth.js pattern: the store author passes their runner's functions and a store factory, and
// gets the same guarantees checked as the reference stores.
import type { MemoryStore } from '../store/contract.js';
import { registerCapabilityGroups } from './conformance-capabilities.js';
import { registerDocumentGroups } from './conformance-documents.js';
import { registerHistoryGroups } from './conformance-history.js';
import { registerSearchGroups } from './conformance-search.js';
import { registerStateGroups } from './conformance-state.js';
import { createHarness } from './conformance-support.js';
import type { StoreConformanceOptions } from './conformance-types.js';
import { registerWriteGroups } from './conformance-writes.js';

/**
 * Register the store conformance suite with a test runner.
 *
 * ```ts
 * import { afterEach, beforeEach, describe, expect, it } from 'vitest';
 * import { runStoreConformance } from '@repomem/core/testing';
 *
 * runStoreConformance({
 *   name: 'my store',
 *   runner: { describe, it, expect, beforeEach, afterEach },
 *   createStore: async () => openMyStore(await freshDatabase()),
 *   teardown: async (store) => dropDatabase(store),
 *   rawRead: async (store, path) => readRowBytes(store, path),
 * });
 * ```
 *
 * Groups: contract shape, documents, bytes, paths, list, versions, expected versions, batch
 * validation, revision, concurrency within one process, limits, close, state values and
 * validation, history (stores with `history`), capabilities (atomic document, atomic batch,
 * read-your-writes and compare-and-swap across two instances when `openAnother` is given) and
 * search parity (the same ranking as core's reference scan). A test whose capability is not
 * declared is skipped with the reason. Cross-process safety needs real processes: use
 * `runNodeWorkers` for a store-specific multi-process test.
 */
export function runStoreConformance<S extends MemoryStore>(options: StoreConformanceOptions<S>): void {
  options.runner.describe(options.name ?? 'store conformance', () => {
    const harness = createHarness(options);
    registerDocumentGroups(harness);
    registerWriteGroups(harness);
    registerStateGroups(harness);
    registerHistoryGroups(harness);
    registerCapabilityGroups(harness);
    registerSearchGroups(harness);
  });
}
