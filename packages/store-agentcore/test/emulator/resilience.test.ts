// Why: the fault semantics must be coherent end to end: a reset or 5xx writes nothing, a cut-off
// answer writes once (and the SDK's retry with the same clientToken does not write again), so a
// client that retries sees every acknowledged write exactly once, even under concurrency.
import { CreateEventCommand, paginateListEvents } from '@aws-sdk/client-bedrock-agentcore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorFixture, startFixture } from './support.js';

let fixture: EmulatorFixture;

beforeAll(async () => {
  fixture = await startFixture({ faults: { rate: 0.2, kinds: ['server-error', 'reset', 'truncated'], seed: 2026 } }, 3);
});
afterAll(async () => {
  await fixture.close();
});

describe('writes under 20% faults with the SDK retrying', () => {
  it('keeps every acknowledged event exactly once', async () => {
    const { client, emulator } = fixture;
    const acknowledged: string[] = [];
    const failed: string[] = [];
    const texts = Array.from({ length: 120 }, (_, index) => `write-${index}`);
    const queue = [...texts];
    const worker = async (): Promise<void> => {
      for (let text = queue.shift(); text !== undefined; text = queue.shift()) {
        try {
          await client.send(
            new CreateEventCommand({
              memoryId: emulator.memoryId,
              actorId: 'resilience',
              sessionId: 'writes',
              eventTimestamp: new Date(),
              payload: [{ conversational: { role: 'USER', content: { text } } }],
            }),
          );
          acknowledged.push(text);
        } catch {
          failed.push(text);
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    expect(acknowledged.length + failed.length).toBe(texts.length);
    expect(emulator.stats().faults).toBeGreaterThan(10);

    emulator.setFaults(undefined);
    const stored: string[] = [];
    for await (const page of paginateListEvents(
      { client, pageSize: 50 },
      { memoryId: emulator.memoryId, actorId: 'resilience', sessionId: 'writes' },
    )) {
      for (const event of page.events ?? []) stored.push(event.payload?.[0]?.conversational?.content?.text ?? '');
    }
    expect(new Set(stored).size).toBe(stored.length);
    for (const text of acknowledged) expect(stored).toContain(text);
  });
});
