// Why: the seed's contradiction scenarios and error table on the reference in-memory store (the
// store packages run the same suite on SQLite and git).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/index.js';
import { runTaskMemoryScenarios } from '../../src/testing/index.js';

runTaskMemoryScenarios({
  name: 'task memory scenarios on the in-memory store',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => createInMemoryStore(),
});
