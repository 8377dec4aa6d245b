// Why: the native verified-memory backend passes core's record-backend conformance suite
// unmodified, through the real SDK client against the emulator; each test gets a fresh memory.
import { runRecordBackendConformance } from '@repomem/core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AgentCoreVerifiedBackend, createAgentCoreVerifiedBackend } from '../src/index.js';
import type { AgentCoreEmulator } from '../src/testing/index.js';
import { emulatorConnection, startEmulator } from './support.js';

const MEMORIES = Array.from({ length: 80 }, (_, index) => `conformance-${String(index).padStart(10, '0')}`);
let emulator: AgentCoreEmulator;
let next = 0;
beforeAll(async () => {
  emulator = await startEmulator({ memories: MEMORIES });
});
afterAll(async () => {
  await emulator.close();
});

runRecordBackendConformance<AgentCoreVerifiedBackend>({
  name: 'agentcore verified-memory backend conformance',
  runner: { describe, it, expect, beforeEach, afterEach },
  createBackend: async () => {
    const memoryId = MEMORIES[next++ % MEMORIES.length] as string;
    return createAgentCoreVerifiedBackend({ connection: emulatorConnection(emulator, { memoryId }) });
  },
});
