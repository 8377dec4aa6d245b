// Why: the AgentCore driver runs the kit's driver suite and, through it, the store, hardening,
// verified-record, task-record, vector and task-memory suites on createStore(driver), through the
// real SDK client against the emulator, with a second driver on the same repository as `openAnother`.
import { runDriverConformance } from '@repomem/core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AgentCoreDriver, createAgentCoreDriver } from '../src/index.js';
import type { AgentCoreEmulator } from '../src/testing/index.js';
import { emulatorConnection, freshRepo, startEmulator } from './support.js';

let emulator: AgentCoreEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const open = (repo: string): AgentCoreDriver =>
  createAgentCoreDriver({ connection: emulatorConnection(emulator), repo });

runDriverConformance<AgentCoreDriver>({
  name: 'AgentCore driver (emulator)',
  runner: { describe, it, expect, beforeEach, afterEach },
  createDriver: async () => open(freshRepo()),
  openAnother: async (driver) => open(driver.repo),
  timeoutMs: 60_000,
});
