// Why: hydration gives each memory source a time budget and aborts it on timeout; a network
// backend must then stop its requests and reject with the signal's reason, not hang or map the
// abort to a service error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentCoreTaskRecordBackend } from '../src/index.js';
import type { AgentCoreEmulator } from '../src/testing/index.js';
import { emulatorConnection, startEmulator } from './support.js';

let emulator: AgentCoreEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ latencyMs: 300 });
});
afterAll(async () => {
  await emulator.close();
});

describe('abort signals', () => {
  it('a task-record query aborted mid-request rejects with the signal reason', async () => {
    const backend = createAgentCoreTaskRecordBackend({ connection: emulatorConnection(emulator) });
    const controller = new AbortController();
    const query = backend.list({ repo: 'acme/app', kind: 'episode', signal: controller.signal });
    setTimeout(() => controller.abort(new Error('hydration budget spent')), 20);
    await expect(query).rejects.toThrow('hydration budget spent');
    const already = AbortSignal.abort(new Error('aborted before'));
    await expect(backend.search({ repo: 'acme/app', kind: 'rule', text: 'x', signal: already })).rejects.toThrow(
      'aborted before',
    );
    await backend.close();
  });
});
