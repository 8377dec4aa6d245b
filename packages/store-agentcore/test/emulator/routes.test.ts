// Why: the emulator's routes must be the service's routes; the table is derived from the shipped
// model, so this proves every `/memories/...` route is served with that method and path (and
// only with that method), and that the real SDK's commands land on the operation of their name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentCoreMemoryModel } from '../../src/testing/index.js';
import { type EmulatorFixture, startFixture } from './support.js';

let fixture: EmulatorFixture;

beforeAll(async () => {
  fixture = await startFixture();
});
afterAll(async () => {
  await fixture.close();
});

/** Sample label values valid under the model's patterns, keyed by label name. */
function sampleLabel(name: string): string {
  const samples: Record<string, string> = {
    memoryId: fixture.emulator.memoryId,
    actorId: 'routes/actor',
    sessionId: 'routes-session',
    eventId: '1#ab',
    memoryRecordId: `mem-${'r'.repeat(40)}`,
  };
  const sample = samples[name];
  if (sample === undefined) throw new Error(`no sample for label ${name}: the model gained a label`);
  return sample;
}

async function call(
  method: string,
  path: string,
): Promise<{ status: number; errorType: string | null; body: unknown }> {
  const response = await fetch(`${fixture.emulator.endpoint}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      authorization: `AWS4-HMAC-SHA256 Credential=repomem-emulator/20260101/${fixture.emulator.region}/bedrock-agentcore/aws4_request, SignedHeaders=host, Signature=00`,
    },
    ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }),
  });
  return { status: response.status, errorType: response.headers.get('x-amzn-errortype'), body: await response.json() };
}

describe('route table from the model', () => {
  const model = agentCoreMemoryModel();

  it('carries the model licence notice (Apache-2.0)', () => {
    expect(model.notice).toContain('Apache License, Version 2.0');
    expect(model.model.metadata.signingName).toBe('bedrock-agentcore');
  });

  it('has every /memories/ operation of the model, each with a success status', () => {
    expect(model.routes.map((route) => route.operation).sort()).toEqual(Object.keys(model.model.operations).sort());
    expect(model.routes.length).toBe(16);
    for (const route of model.routes) {
      expect(route.requestUri.startsWith('/memories/{memoryId}')).toBe(true);
      expect([200, 201, 202]).toContain(route.responseCode);
    }
  });

  it('serves each route with its method and path, and rejects other methods there', async () => {
    for (const route of model.routes) {
      const path = route.requestUri.replace(/\{([A-Za-z0-9_]+)\+?\}/g, (_, name: string) =>
        encodeURIComponent(sampleLabel(name)),
      );
      fixture.emulator.resetStats();
      const answer = await call(route.method, path);
      expect(answer.errorType, `${route.method} ${path}`).not.toBe('UnknownOperationException');
      expect(fixture.emulator.stats().byOperation).toEqual({ [route.operation]: 1 });
      if (answer.errorType === null) expect(answer.status).toBe(route.responseCode);
      const otherMethod = route.method === 'GET' ? 'PUT' : 'GET';
      const samePathElsewhere = model.routes.some((other) => other.method === otherMethod && other.pattern.test(path));
      if (!samePathElsewhere) {
        const wrong = await call(otherMethod, path);
        expect(wrong).toMatchObject({ status: 404, errorType: 'UnknownOperationException' });
      }
    }
  });

  it('answers an unknown path with UnknownOperationException', async () => {
    const answer = await call('POST', '/memories/x/unknown');
    expect(answer).toMatchObject({ status: 404, errorType: 'UnknownOperationException' });
  });
});
