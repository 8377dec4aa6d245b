// Why: the in-memory reference store runs the hardening suite every store package runs.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/store/memory-store.js';
import { runStoreHardening } from '../../src/testing/hardening.js';

runStoreHardening({
  name: 'in-memory store hardening',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => createInMemoryStore(),
});
