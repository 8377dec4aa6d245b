// Why: the in-memory store is the reference reading of the contract; the vector-index group runs
// on it here and on the directory, SQLite and git stores in their packages.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/store/memory-store.js';
import { runVectorIndexConformance } from '../../src/testing/vector-conformance.js';

runVectorIndexConformance({
  name: 'vector index on the in-memory store',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => createInMemoryStore(),
});
