// Why: every adapter test talks to a real emulator through the real SDK client; this opens one
// emulator per test file and hands out stores scoped to fresh repositories on it.

import { type AgentCoreStore, createAgentCoreStore, openAgentCoreConnection } from '../src/index.js';
import { type AgentCoreEmulator, EMULATOR_CREDENTIALS, startAgentCoreEmulator } from '../src/testing/index.js';

let counter = 0;

/** A repository slug not used before in this process. */
export function freshRepo(): string {
  counter += 1;
  return `acme/app.${process.pid}.${counter}`;
}

/** Options for a connection to `emulator`. */
export function emulatorConnection(
  emulator: AgentCoreEmulator,
  overrides: { retries?: number; memoryId?: string } = {},
) {
  return openAgentCoreConnection({
    memoryId: emulator.memoryId,
    endpoint: emulator.endpoint,
    region: emulator.region,
    credentials: { ...EMULATOR_CREDENTIALS },
    minRetryDelayMs: 5,
    maxRetryDelayMs: 100,
    ...overrides,
  });
}

/** A store on `emulator` for `repo` (fresh when omitted). */
export function emulatorStore(emulator: AgentCoreEmulator, repo = freshRepo()): AgentCoreStore {
  return createAgentCoreStore({ connection: emulatorConnection(emulator), repo });
}

/** Start an emulator (defaults: no latency, no faults). */
export function startEmulator(options: Parameters<typeof startAgentCoreEmulator>[0] = {}): Promise<AgentCoreEmulator> {
  return startAgentCoreEmulator(options);
}
