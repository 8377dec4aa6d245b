// Why: the service rejects what its model forbids, naming each field; the adapter's identifier
// mapping and size handling are only proven if the emulator rejects the same requests the same way.
import {
  BatchCreateMemoryRecordsCommand,
  CreateEventCommand,
  GetMemoryRecordCommand,
  ListEventsCommand,
  ListMemoryRecordsCommand,
  ListSessionsCommand,
  RetrieveMemoryRecordsCommand,
} from '@aws-sdk/client-bedrock-agentcore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorFixture, rejectionOf, startFixture } from './support.js';

let fixture: EmulatorFixture;
let memoryId: string;

beforeAll(async () => {
  fixture = await startFixture({ memories: ['repomem_emulator-EMULATOR01', 'second-memory-ABCDEFGHIJ'] });
  memoryId = fixture.emulator.memoryId;
});
afterAll(async () => {
  await fixture.close();
});

function event(overrides: Partial<ConstructorParameters<typeof CreateEventCommand>[0]>) {
  return new CreateEventCommand({
    memoryId,
    actorId: 'actor',
    sessionId: 'session',
    eventTimestamp: new Date(),
    payload: [{ conversational: { role: 'USER', content: { text: 'hi' } } }],
    ...overrides,
  });
}

interface ServiceRejection {
  readonly name: string;
  readonly reason: unknown;
  readonly fieldList: unknown;
  readonly message: string;
  readonly status: number | undefined;
}

async function rejected(promise: Promise<unknown>): Promise<ServiceRejection> {
  const error = await rejectionOf(promise);
  const metadata = error.$metadata as { httpStatusCode?: number } | undefined;
  return {
    name: error.name,
    reason: error.reason,
    fieldList: error.fieldList,
    message: error.message,
    status: metadata?.httpStatusCode,
  };
}

describe('identifier rules', () => {
  it('rejects an actorId with a dot (a repository name such as vercel/next.js)', async () => {
    const error = await rejected(fixture.client.send(event({ actorId: 'vercel/next.js' })));
    expect(error).toMatchObject({ name: 'ValidationException', reason: 'FieldValidationFailed', status: 400 });
    expect(error.fieldList).toEqual([
      {
        name: 'actorId',
        message:
          "Value at 'actorId' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9][a-zA-Z0-9-_/]*(?::[a-zA-Z0-9-_/]+)*[a-zA-Z0-9-_/]*",
      },
    ]);
    expect(error.message).toMatch(/^1 validation error detected: Value at 'actorId' failed to satisfy constraint/);
  });

  it('rejects a login with @, a sessionId with a slash and an over-long sessionId, all at once', async () => {
    const error = await rejected(fixture.client.send(event({ actorId: 'me@example', sessionId: 'a/b' })));
    expect((error.fieldList as { name: string }[]).map((field) => field.name)).toEqual(['actorId', 'sessionId']);
    expect(error.message).toMatch(/^2 validation errors detected: /);
    const long = await rejected(fixture.client.send(event({ sessionId: 's'.repeat(101) })));
    expect(long.fieldList).toEqual([
      {
        name: 'sessionId',
        message: "Value at 'sessionId' failed to satisfy constraint: Member must have length less than or equal to 100",
      },
    ]);
  });

  it('accepts actorIds the pattern allows (slashes, colon-separated parts, 255 characters)', async () => {
    for (const actorId of ['vercel/next-js', 'octo:cat', 'a'.repeat(255)]) {
      const created = await fixture.client.send(event({ actorId }));
      expect(created.event?.actorId).toBe(actorId);
    }
    const tooLong = await rejected(fixture.client.send(event({ actorId: 'a'.repeat(256) })));
    expect(tooLong.name).toBe('ValidationException');
  });

  it('rejects an empty actorId in the path for each constraint it breaks, not as an unknown route', async () => {
    const error = await rejected(fixture.client.send(new ListSessionsCommand({ memoryId, actorId: '' })));
    expect(error.fieldList).toEqual([
      {
        name: 'actorId',
        message: "Value at 'actorId' failed to satisfy constraint: Member must have length greater than or equal to 1",
      },
      {
        name: 'actorId',
        message: expect.stringContaining('Member must satisfy regular expression pattern'),
      },
    ]);
  });

  it('rejects a malformed memory id and answers ResourceNotFoundException for an unknown one', async () => {
    const malformed = await rejected(fixture.client.send(event({ memoryId: 'bad.id' })));
    expect(malformed.name).toBe('ValidationException');
    // Too short (min 12) and off the pattern: one entry per broken constraint, as the service lists them.
    expect((malformed.fieldList as { name: string }[]).map((field) => field.name)).toEqual(['memoryId', 'memoryId']);
    const unknown = await rejected(fixture.client.send(event({ memoryId: 'unknown-memory-0123456789' })));
    expect(unknown).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
  });

  it('serves a memory addressed by its ARN and every configured memory', async () => {
    const arn = `arn:aws:bedrock-agentcore:us-east-1:123456789012:memory/${memoryId}`;
    const created = await fixture.client.send(event({ memoryId: arn }));
    expect(created.event?.memoryId).toBe(memoryId);
    const second = await fixture.client.send(event({ memoryId: 'second-memory-ABCDEFGHIJ' }));
    expect(second.event?.memoryId).toBe('second-memory-ABCDEFGHIJ');
  });
});

describe('sizes, enums and ranges', () => {
  it('rejects record text over 16,000 characters and names the nested field', async () => {
    const error = await rejected(
      fixture.client.send(
        new BatchCreateMemoryRecordsCommand({
          memoryId,
          records: [
            {
              requestIdentifier: 'ok',
              namespaces: ['/a/'],
              content: { text: 'x'.repeat(16_000) },
              timestamp: new Date(),
            },
            {
              requestIdentifier: 'big',
              namespaces: ['/a/'],
              content: { text: 'x'.repeat(16_001) },
              timestamp: new Date(),
            },
          ],
        }),
      ),
    );
    expect(error.fieldList).toEqual([
      {
        name: 'records.2.member.content.text',
        message:
          "Value at 'records.2.member.content.text' failed to satisfy constraint: Member must have length less than or equal to 16000",
      },
    ]);
  });

  it('rejects more than 100 records in one call and more than one namespace per record', async () => {
    const records = Array.from({ length: 101 }, (_, index) => ({
      requestIdentifier: `r${index}`,
      namespaces: ['/a/'],
      content: { text: 'x' },
      timestamp: new Date(),
    }));
    const tooMany = await rejected(fixture.client.send(new BatchCreateMemoryRecordsCommand({ memoryId, records })));
    expect(tooMany.fieldList).toEqual([
      {
        name: 'records',
        message: "Value at 'records' failed to satisfy constraint: Member must have length less than or equal to 100",
      },
    ]);
    const twoNamespaces = await rejected(
      fixture.client.send(
        new BatchCreateMemoryRecordsCommand({
          memoryId,
          records: [
            { requestIdentifier: 'r', namespaces: ['/a/', '/b/'], content: { text: 'x' }, timestamp: new Date() },
          ],
        }),
      ),
    );
    expect((twoNamespaces.fieldList as { name: string }[]).map((field) => field.name)).toEqual([
      'records.1.member.namespaces',
    ]);
  });

  it('rejects a record without a namespace per record, not for the whole batch', async () => {
    const result = await fixture.client.send(
      new BatchCreateMemoryRecordsCommand({
        memoryId,
        records: [
          { requestIdentifier: 'none', namespaces: [], content: { text: 'x' }, timestamp: new Date() },
          { requestIdentifier: 'one', namespaces: ['/a/'], content: { text: 'x' }, timestamp: new Date() },
        ],
      }),
    );
    expect(result.failedRecords?.map((record) => [record.requestIdentifier, record.status, record.errorCode])).toEqual([
      ['none', 'FAILED', 400],
    ]);
    expect(result.successfulRecords?.map((record) => record.requestIdentifier)).toEqual(['one']);
  });

  it('rejects an unknown role, a missing required member and out-of-range numbers', async () => {
    const role = await rejected(
      fixture.client.send(
        event({ payload: [{ conversational: { role: 'ROBOT' as 'USER', content: { text: 'hi' } } }] }),
      ),
    );
    expect(role.fieldList).toEqual([
      {
        name: 'payload.1.member.conversational.role',
        message:
          "Value at 'payload.1.member.conversational.role' failed to satisfy constraint: Member must satisfy enum value set: [ASSISTANT, USER, TOOL, OTHER]",
      },
    ]);
    const missing = await rejected(fixture.client.send(event({ eventTimestamp: undefined as unknown as Date })));
    expect(missing.fieldList).toEqual([
      {
        name: 'eventTimestamp',
        message: "Value null at 'eventTimestamp' failed to satisfy constraint: Member must not be null",
      },
    ]);
    const range = await rejected(
      fixture.client.send(new ListEventsCommand({ memoryId, actorId: 'actor', sessionId: 'session', maxResults: 0 })),
    );
    expect(range.fieldList).toEqual([
      {
        name: 'maxResults',
        message:
          "Value at 'maxResults' failed to satisfy constraint: Member must have value greater than or equal to 1",
      },
    ]);
    const topK = await rejected(
      fixture.client.send(
        new RetrieveMemoryRecordsCommand({
          memoryId,
          namespace: '/a/',
          searchCriteria: { searchQuery: 'x', topK: 101 },
        }),
      ),
    );
    expect((topK.fieldList as { name: string }[]).map((field) => field.name)).toEqual(['searchCriteria.topK']);
  });

  it('rejects a malformed memory record id and a namespace outside the pattern', async () => {
    const id = await rejected(
      fixture.client.send(new GetMemoryRecordCommand({ memoryId, memoryRecordId: 'mem-short' })),
    );
    expect((id.fieldList as { name: string }[]).map((field) => field.name)).toEqual(['memoryRecordId']);
    const namespace = await rejected(
      fixture.client.send(new ListMemoryRecordsCommand({ memoryId, namespace: '/next.js/' })),
    );
    expect((namespace.fieldList as { name: string }[]).map((field) => field.name)).toEqual(['namespace']);
  });

  it('counts validation errors', () => {
    expect(fixture.emulator.stats().validationErrors).toBeGreaterThanOrEqual(10);
  });
});
