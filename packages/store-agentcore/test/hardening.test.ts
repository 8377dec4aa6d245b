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
  await emulator.close();
});

runStoreHardening<AgentCoreStore>({
  name: 'agentcore store hardening',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => emulatorStore(emulator),
});
