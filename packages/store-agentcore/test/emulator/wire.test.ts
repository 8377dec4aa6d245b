// Why: the details of the wire the SDK depends on (epoch-second timestamps, error headers and
// bodies, status codes, SigV4 scope, idempotency tokens) checked at the byte level, plus the
// emulator's own response check, which is what keeps it from drifting from the model.
import { BedrockAgentCoreClient, CreateEventCommand, ListActorsCommand } from '@aws-sdk/client-bedrock-agentcore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentCoreMemoryModel,
  EMULATOR_CREDENTIALS,
  EMULATOR_EXPIRED_SESSION_TOKEN,
  startAgentCoreEmulator,
  validateShape,
} from '../../src/testing/index.js';
import { clientFor, type EmulatorFixture, rejectionOf, startFixture } from './support.js';

let fixture: EmulatorFixture;

beforeAll(async () => {
  fixture = await startFixture();
});
afterAll(async () => {
  await fixture.close();
});

function authorization(accessKeyId = 'repomem-emulator', region = 'us-east-1'): string {
  return `AWS4-HMAC-SHA256 Credential=${accessKeyId}/20260101/${region}/bedrock-agentcore/aws4_request, SignedHeaders=host, Signature=00`;
}

async function raw(
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = { authorization: authorization() },
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
  const response = await fetch(`${fixture.emulator.endpoint}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body }),
  });
  return {
    status: response.status,
    headers: response.headers,
    json: (await response.json()) as Record<string, unknown>,
  };
}

describe('wire format', () => {
  it('answers CreateEvent 201 with epoch-second timestamps and a request id', async () => {
    const answer = await raw(
      'POST',
      `/memories/${fixture.emulator.memoryId}/events`,
      JSON.stringify({
        actorId: 'wire',
        sessionId: 'raw',
        eventTimestamp: 1767225600.125,
        payload: [{ conversational: { role: 'USER', content: { text: 'raw' } } }],
      }),
    );
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    const event = answer.json.event as Record<string, unknown>;
    expect(event.eventTimestamp).toBe(1767225600.125);
    expect(validateShape(agentCoreMemoryModel(), 'CreateEventOutput', answer.json)).toEqual([]);
  });

  it('sends errors with x-amzn-errortype and a JSON message (and reason/fieldList for validation)', async () => {
    const answer = await raw('POST', `/memories/${fixture.emulator.memoryId}/events`, JSON.stringify({ actorId: 'a' }));
    expect(answer.status).toBe(400);
    expect(answer.headers.get('x-amzn-errortype')).toBe('ValidationException');
    expect(answer.json).toMatchObject({
      reason: 'FieldValidationFailed',
      message: expect.stringMatching(/^2 validation errors detected/),
    });
    expect((answer.json.fieldList as { name: string }[]).map((field) => field.name)).toEqual([
      'eventTimestamp',
      'payload',
    ]);
  });

  it('rejects a body that is not JSON with reason CannotParse', async () => {
    const answer = await raw('POST', `/memories/${fixture.emulator.memoryId}/actors`, '{not json');
    expect(answer).toMatchObject({ status: 400, json: { reason: 'CannotParse' } });
  });

  it('rejects a timestamp sent as an ISO string, as the service would not parse it', async () => {
    const answer = await raw(
      'POST',
      `/memories/${fixture.emulator.memoryId}/events`,
      JSON.stringify({ actorId: 'a', eventTimestamp: '2026-01-01T00:00:00Z', payload: [] }),
    );
    expect((answer.json.fieldList as { name: string }[]).map((field) => field.name)).toEqual(['eventTimestamp']);
  });
});

describe('authentication', () => {
  it('rejects an unsigned request and an unknown access key', async () => {
    const unsigned = await raw('POST', `/memories/${fixture.emulator.memoryId}/actors`, '{}', {});
    expect(unsigned).toMatchObject({ status: 403 });
    expect(unsigned.headers.get('x-amzn-errortype')).toBe('MissingAuthenticationTokenException');
    const stranger = await raw('POST', `/memories/${fixture.emulator.memoryId}/actors`, '{}', {
      authorization: authorization('someone-else'),
    });
    expect(stranger.headers.get('x-amzn-errortype')).toBe('UnrecognizedClientException');
  });

  it('tells a client signing for another region that the region is wrong', async () => {
    const other = await startAgentCoreEmulator({ region: 'eu-west-1' });
    const client = clientFor({ ...other, region: 'us-east-1' } as typeof other);
    try {
      const error = await rejectionOf(client.send(new ListActorsCommand({ memoryId: other.memoryId })));
      expect(error.name).toBe('InvalidSignatureException');
      expect(error.message).toContain("expecting 'eu-west-1'");
    } finally {
      client.destroy();
      await other.close();
    }
  });

  it('answers ExpiredTokenException for the expired session token', async () => {
    const client = new BedrockAgentCoreClient({
      endpoint: fixture.emulator.endpoint,
      region: fixture.emulator.region,
      credentials: { ...EMULATOR_CREDENTIALS, sessionToken: EMULATOR_EXPIRED_SESSION_TOKEN },
      maxAttempts: 1,
    });
    try {
      const error = await rejectionOf(client.send(new ListActorsCommand({ memoryId: fixture.emulator.memoryId })));
      expect(error.name).toBe('ExpiredTokenException');
      expect((error.$metadata as { httpStatusCode?: number }).httpStatusCode).toBe(403);
    } finally {
      client.destroy();
    }
  });

  it('accepts any signed request with accessKeyIds "any"', async () => {
    const open = await startAgentCoreEmulator({ accessKeyIds: 'any' });
    try {
      const answer = await fetch(`${open.endpoint}/memories/${open.memoryId}/actors`, {
        method: 'POST',
        headers: { authorization: authorization('anyone') },
        body: '{}',
      });
      expect(answer.status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

describe('idempotency tokens', () => {
  it('replays the first answer for a repeated clientToken and rejects the token with other members', async () => {
    const request = {
      memoryId: fixture.emulator.memoryId,
      actorId: 'idem',
      sessionId: 'token',
      eventTimestamp: new Date('2026-01-01T00:00:00Z'),
      payload: [{ conversational: { role: 'USER' as const, content: { text: 'once' } } }],
      clientToken: 'token-1',
    };
    const first = await fixture.client.send(new CreateEventCommand(request));
    const again = await fixture.client.send(new CreateEventCommand(request));
    expect(again.event?.eventId).toBe(first.event?.eventId);
    const mismatch = await rejectionOf(
      fixture.client.send(
        new CreateEventCommand({
          ...request,
          payload: [{ conversational: { role: 'USER', content: { text: 'other' } } }],
        }),
      ),
    );
    expect(mismatch).toMatchObject({ name: 'ValidationException', reason: 'IdempotentParameterMismatchException' });
  });
});

describe('response checking', () => {
  it('catches an output that breaks the model (an ISO timestamp, a missing member, a bad id)', () => {
    const model = agentCoreMemoryModel();
    const issues = validateShape(model, 'GetEventOutput', {
      event: {
        memoryId: 'repomem_emulator-EMULATOR01',
        actorId: 'a',
        sessionId: 's',
        eventId: 'not-an-event-id',
        eventTimestamp: '2026-01-01T00:00:00Z',
      },
    });
    expect(issues.map((issue) => issue.name)).toEqual(['event.payload', 'event.eventId', 'event.eventTimestamp']);
  });

  it('found no response of this file outside the model', () => {
    expect(fixture.emulator.responseIssues()).toEqual([]);
    expect(fixture.emulator.stats().responseValidationErrors).toBe(0);
  });
});
