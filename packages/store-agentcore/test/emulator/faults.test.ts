// Why: throttling, 5xx, resets, slow and cut-off answers are what the adapter's retry and error
// mapping must handle; each must reach the real SDK as the error it would see from the service,
// and the SDK's own retries (on by default) must get through a transient fault.
import {
  BedrockAgentCoreClient,
  CreateEventCommand,
  ListActorsCommand,
  ListEventsCommand,
  ServiceException,
  ThrottledException,
} from '@aws-sdk/client-bedrock-agentcore';
import { afterEach, describe, expect, it } from 'vitest';
import { EMULATOR_CREDENTIALS } from '../../src/testing/index.js';
import { type EmulatorFixture, rejectionOf, startFixture } from './support.js';

let fixture: EmulatorFixture | undefined;

afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

function active(): EmulatorFixture {
  if (!fixture) throw new Error('no emulator started');
  return fixture;
}

async function listActors(options?: { abortSignal?: AbortSignal }): Promise<{ actorSummaries?: unknown[] }> {
  return active().client.send(new ListActorsCommand({ memoryId: active().emulator.memoryId }), options);
}

function statusOf(error: Record<string, unknown>): number | undefined {
  return (error.$metadata as { httpStatusCode?: number } | undefined)?.httpStatusCode;
}

describe('each fault kind, seen raw (maxAttempts 1)', () => {
  it('throttle: 429 ThrottledException', async () => {
    fixture = await startFixture({ faults: { rate: 1, kinds: ['throttle'] } });
    const error = await rejectionOf(listActors());
    expect(error).toBeInstanceOf(ThrottledException);
    expect(statusOf(error)).toBe(429);
    expect(active().emulator.stats()).toMatchObject({ requests: 1, faults: 1 });
  });

  it('server-error: 500 ServiceException or 503 ServiceUnavailableException', async () => {
    fixture = await startFixture({ faults: { rate: 1, kinds: ['server-error'], seed: 7 } });
    const statuses = new Set<number | undefined>();
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const error = await rejectionOf(listActors());
      statuses.add(statusOf(error));
      if (statusOf(error) === 500) expect(error).toBeInstanceOf(ServiceException);
      else expect(error.name).toBe('ServiceUnavailableException');
    }
    expect([...statuses].sort()).toEqual([500, 503]);
  });

  it('reset: the connection dies before any answer (ECONNRESET, no HTTP status)', async () => {
    fixture = await startFixture({ faults: { rate: 1, kinds: ['reset'] } });
    const error = await rejectionOf(listActors());
    expect(error.code).toBe('ECONNRESET');
    expect(statusOf(error)).toBeUndefined();
  });

  it('truncated: status 200 and headers, half the body, then the connection dies', async () => {
    fixture = await startFixture({ faults: { rate: 1, kinds: ['truncated'] } });
    const error = await rejectionOf(listActors());
    expect(error.code).toBe('ECONNRESET');
    expect(statusOf(error)).toBe(200);
  });

  it('slow: answered after slowMs; an abort signal or a throwing request timeout gives up first', async () => {
    fixture = await startFixture({ faults: { rate: 1, kinds: ['slow'], slowMs: 300 } });
    const aborted = await rejectionOf(listActors({ abortSignal: AbortSignal.timeout(50) }));
    expect(aborted.name).toBe('AbortError');
    const timingOut = new BedrockAgentCoreClient({
      endpoint: active().emulator.endpoint,
      region: active().emulator.region,
      credentials: EMULATOR_CREDENTIALS,
      maxAttempts: 1,
      // Without throwOnRequestTimeout this SDK only logs a warning when requestTimeout passes.
      requestHandler: { requestTimeout: 50, throwOnRequestTimeout: true },
    });
    try {
      const timedOut = await rejectionOf(
        timingOut.send(new ListActorsCommand({ memoryId: active().emulator.memoryId })),
      );
      expect(timedOut.name).toBe('TimeoutError');
    } finally {
      timingOut.destroy();
    }
    expect((await listActors()).actorSummaries).toEqual([]);
  });
});

describe('the SDK retries transient faults itself (default maxAttempts 3)', () => {
  for (const kind of ['throttle', 'server-error', 'reset'] as const) {
    it(`${kind}: one fault, then the retry succeeds`, async () => {
      fixture = await startFixture({ faults: { rate: 1, kinds: [kind], maxFaults: 1 } }, 3);
      expect((await listActors()).actorSummaries).toEqual([]);
      expect(active().emulator.stats()).toMatchObject({ requests: 2, faults: 1 });
    });
  }

  it('truncated CreateEvent: the retry carries the same clientToken, so the event is written once', async () => {
    fixture = await startFixture({ faults: { rate: 1, kinds: ['truncated'], maxFaults: 1 } }, 3);
    const { client, emulator } = active();
    const created = await client.send(
      new CreateEventCommand({
        memoryId: emulator.memoryId,
        actorId: 'retry',
        sessionId: 'once',
        eventTimestamp: new Date(),
        payload: [{ conversational: { role: 'USER', content: { text: 'exactly once' } } }],
      }),
    );
    expect(emulator.stats().byOperation.CreateEvent).toBe(2);
    const listed = await client.send(
      new ListEventsCommand({ memoryId: emulator.memoryId, actorId: 'retry', sessionId: 'once' }),
    );
    expect(listed.events?.map((event) => event.eventId)).toEqual([created.event?.eventId]);
  });
});

describe('quota, latency and switching faults at run time', () => {
  it('answers 429 beyond requestsPerSecond', async () => {
    fixture = await startFixture({ requestsPerSecond: 2 });
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => listActors()));
    const throttled = results.filter((result) => result.status === 'rejected');
    expect(throttled.length).toBeGreaterThanOrEqual(1);
    for (const result of throttled) {
      expect(result.status === 'rejected' && result.reason).toBeInstanceOf(ThrottledException);
    }
    expect(active().emulator.stats().throttled).toBe(throttled.length);
    active().emulator.setRequestsPerSecond(undefined);
    expect((await listActors()).actorSummaries).toEqual([]);
  });

  it('draws the same faults for the same seed, and setFaults/setLatency apply at once', async () => {
    fixture = await startFixture({ latencyMs: 5 });
    const pattern = async (): Promise<string> => {
      active().emulator.setFaults({ rate: 0.5, kinds: ['throttle'], seed: 42 });
      let outcomes = '';
      for (let index = 0; index < 12; index += 1) {
        outcomes += await listActors().then(
          () => '.',
          () => 'x',
        );
      }
      return outcomes;
    };
    const first = await pattern();
    expect(first).toContain('x');
    expect(first).toContain('.');
    expect(await pattern()).toBe(first);
    active().emulator.setFaults(undefined);
    active().emulator.setLatency(0);
    active().emulator.resetStats();
    expect((await listActors()).actorSummaries).toEqual([]);
    expect(active().emulator.stats()).toMatchObject({ requests: 1, faults: 0 });
  });

  it('enforces the documented per-session CreateEvent quota only with serviceQuotas', async () => {
    fixture = await startFixture({ serviceQuotas: true });
    const { client, emulator } = active();
    const write = (sessionId: string) =>
      client.send(
        new CreateEventCommand({
          memoryId: emulator.memoryId,
          actorId: 'quota',
          sessionId,
          eventTimestamp: new Date(),
          payload: [{ conversational: { role: 'USER', content: { text: sessionId } } }],
        }),
      );
    const sameSession = await Promise.allSettled(Array.from({ length: 8 }, () => write('hot')));
    const throttled = sameSession.filter((result) => result.status === 'rejected');
    expect(throttled.length).toBeGreaterThanOrEqual(1);
    for (const result of throttled)
      expect(result.status === 'rejected' && result.reason).toBeInstanceOf(ThrottledException);
    const spread = await Promise.allSettled(Array.from({ length: 4 }, (_, index) => write(`cold-${index}`)));
    expect(spread.every((result) => result.status === 'fulfilled')).toBe(true);
  });
});
