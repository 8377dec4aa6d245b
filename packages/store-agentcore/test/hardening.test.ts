// Why: the document store runs core's hardening suite unmodified (paths git refuses, verified
// records kept out of document search, bounded queries, bullet text rules, credentials refused).
import { runStoreHardening } from '@repomem/core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentCoreStore } from '../src/index.js';
import type { AgentCoreEmulator } from '../src/testing/index.js';
import { emulatorStore, startEmulator } from './support.js';

let emulator: AgentCoreEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  // Every request the adapter sent passed the service model's validation (no writer raced here,
  // so not even the ValidationException that reports a client token taken by a competing writer).
  const { validationErrors } = emulator.stats();
  await emulator.close();
  expect(validationErrors).toBe(0);
});

runStoreHardening<AgentCoreStore>({
  name: 'agentcore store hardening',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => emulatorStore(emulator),
});
