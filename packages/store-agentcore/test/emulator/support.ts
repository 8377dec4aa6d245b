// Why: every emulator test talks through the real AWS SDK client; this builds one aimed at an
// emulator (retries off unless asked) and checks after each test that no response broke the model.
import { BedrockAgentCoreClient } from '@aws-sdk/client-bedrock-agentcore';
import { expect } from 'vitest';
import {
  type AgentCoreEmulator,
  type AgentCoreEmulatorOptions,
  EMULATOR_CREDENTIALS,
  startAgentCoreEmulator,
} from '../../src/testing/index.js';

/** A running emulator and an SDK client aimed at it. */
export interface EmulatorFixture {
  readonly emulator: AgentCoreEmulator;
  readonly client: BedrockAgentCoreClient;
  /** Asserts the emulator answered only model-valid responses, then closes client and emulator. */
  close(): Promise<void>;
}

/** A client for `emulator` with the SDK's retries off (`maxAttempts: 1`) unless given. */
export function clientFor(emulator: AgentCoreEmulator, maxAttempts = 1): BedrockAgentCoreClient {
  return new BedrockAgentCoreClient({
    endpoint: emulator.endpoint,
    region: emulator.region,
    credentials: EMULATOR_CREDENTIALS,
    maxAttempts,
  });
}

/** Starts an emulator and a client for it. */
export async function startFixture(options?: AgentCoreEmulatorOptions, maxAttempts = 1): Promise<EmulatorFixture> {
  const emulator = await startAgentCoreEmulator(options);
  const client = clientFor(emulator, maxAttempts);
  return {
    emulator,
    client,
    async close() {
      client.destroy();
      await emulator.close();
      expect(emulator.responseIssues()).toEqual([]);
    },
  };
}

/** The rejection of `promise` (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('expected the call to fail');
}
