// Why: vectors are kept with the memory as documents under `.repomem/vectors/` on every store;
// on AgentCore they are event chains and records like any document (binary shards in base64
// payloads), through the real SDK client against the wire-level emulator.
import { runVectorIndexConformance } from '@repomem/core/testing';
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

runVectorIndexConformance<AgentCoreStore>({
  name: 'vector index on the AgentCore store',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => emulatorStore(emulator),
  timeoutMs: 60_000,
});
