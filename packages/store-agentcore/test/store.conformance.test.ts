// Why: the document store passes core's store conformance suite unmodified, through the real SDK
// client against the wire-level emulator, including compare-and-swap across two instances.
import { runStoreConformance } from '@repomem/core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentCoreStore } from '../src/index.js';
import type { AgentCoreEmulator } from '../src/testing/index.js';
import { emulatorStore, startEmulator } from './support.js';

let emulator: AgentCoreEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator.close();
});

runStoreConformance<AgentCoreStore>({
  name: 'agentcore store conformance',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => emulatorStore(emulator),
  openAnother: async (store) => emulatorStore(emulator, store.repo),
});
