// Why: one conformance suite that every store (in-tree or third-party) runs, in the keyv /
// Auth.js pattern: the store author passes their runner's functions and a store factory, and
// gets the same guarantees checked as the reference stores.
import type { MemoryStore } from '../store/contract.js';
import { registerDocumentGroups } from './conformance-documents.js';
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
 * validation, revision, concurrency within one process, limits, close. Tests that need a
 * capability (`binarySafe` for non-UTF-8 bytes) are skipped when the store declares it absent.
 * Cross-process safety (`multiProcess`) cannot be checked generically: stores declaring it
 * should add their own multi-process test.
 */
export function runStoreConformance<S extends MemoryStore>(options: StoreConformanceOptions<S>): void {
  options.runner.describe(options.name ?? 'store conformance', () => {
    const harness = createHarness(options);
    registerDocumentGroups(harness);
    registerWriteGroups(harness);
  });
}
