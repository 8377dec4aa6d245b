// Why: the less common behaviours the adapter may lean on: branches, the HAS_EVENTS session
// filter, namespace-checked record reads and deletes, full-size batches, record updates that
// move a record, and the default memory id being a valid id under the model.
import {
  BatchCreateMemoryRecordsCommand,
  BatchDeleteMemoryRecordsCommand,
  BatchUpdateMemoryRecordsCommand,
  CreateEventCommand,
  DeleteEventCommand,
  DeleteMemoryRecordCommand,
  GetMemoryRecordCommand,
  ListEventsCommand,
  ListMemoryRecordsCommand,
  ListSessionsCommand,
} from '@aws-sdk/client-bedrock-agentcore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentCoreMemoryModel, DEFAULT_EMULATOR_MEMORY_ID, validateShape } from '../../src/testing/index.js';
import { type EmulatorFixture, rejectionOf, startFixture } from './support.js';

let fixture: EmulatorFixture;
let memoryId: string;

beforeAll(async () => {
  fixture = await startFixture();
  memoryId = fixture.emulator.memoryId;
});
afterAll(async () => {
  await fixture.close();
});

function say(sessionId: string, text: string, at: number, branch?: { name: string; rootEventId?: string }) {
  return fixture.client.send(
    new CreateEventCommand({
      memoryId,
      actorId: 'semantics',
      sessionId,
      eventTimestamp: new Date(at),
      payload: [{ conversational: { role: 'USER', content: { text } } }],
      ...(branch ? { branch } : {}),
    }),
  );
}

async function texts(sessionId: string, filter?: { branch?: { name: string; includeParentBranches?: boolean } }) {
  const listed = await fixture.client.send(
    new ListEventsCommand({ memoryId, actorId: 'semantics', sessionId, ...(filter ? { filter } : {}) }),
  );
  return (listed.events ?? []).map((event) => event.payload?.[0]?.conversational?.content?.text);
}

describe('events', () => {
  it('keeps branches apart and reads a branch with its parent history up to the fork', async () => {
    await say('branching', 'm1', 1000);
    const fork = await say('branching', 'm2', 2000);
    await say('branching', 'm3', 3000);
    await say('branching', 'b1', 2500, { name: 'alt', rootEventId: fork.event!.eventId! });
    expect(await texts('branching')).toEqual(['m1', 'm2', 'b1', 'm3']);
    expect(await texts('branching', { branch: { name: 'main' } })).toEqual(['m1', 'm2', 'm3']);
    expect(await texts('branching', { branch: { name: 'alt' } })).toEqual(['b1']);
    expect(await texts('branching', { branch: { name: 'alt', includeParentBranches: true } })).toEqual([
      'm1',
      'm2',
      'b1',
    ]);
  });

  it('rejects a branch rooted in another session or at an unknown event', async () => {
    const elsewhere = await say('other-session', 'x', 1000);
    const crossed = await rejectionOf(
      say('branching', 'y', 4000, { name: 'alt2', rootEventId: elsewhere.event!.eventId! }),
    );
    expect(crossed).toMatchObject({ name: 'ValidationException', reason: 'EventInOtherSession' });
    const unknown = await rejectionOf(say('branching', 'z', 4000, { name: 'alt3', rootEventId: '1#ff' }));
    expect(unknown.name).toBe('ResourceNotFoundException');
  });

  it('lists a session whose events were all deleted, except with the HAS_EVENTS filter', async () => {
    const only = await say('emptied', 'gone soon', 1000);
    await fixture.client.send(
      new DeleteEventCommand({ memoryId, actorId: 'semantics', sessionId: 'emptied', eventId: only.event!.eventId! }),
    );
    const all = await fixture.client.send(new ListSessionsCommand({ memoryId, actorId: 'semantics' }));
    expect(all.sessionSummaries?.map((session) => session.sessionId)).toContain('emptied');
    const withEvents = await fixture.client.send(
      new ListSessionsCommand({ memoryId, actorId: 'semantics', filter: { eventFilter: 'HAS_EVENTS' } }),
    );
    expect(withEvents.sessionSummaries?.map((session) => session.sessionId)).not.toContain('emptied');
  });
});

describe('event order', () => {
  it('lists newest first (and pages that way) with eventOrder newest-first', async () => {
    const reversed = await startFixture({ eventOrder: 'newest-first' });
    try {
      for (const [index, text] of ['old', 'mid', 'new'].entries()) {
        await reversed.client.send(
          new CreateEventCommand({
            memoryId: reversed.emulator.memoryId,
            actorId: 'order',
            sessionId: 'order',
            eventTimestamp: new Date(1000 * (index + 1)),
            payload: [{ conversational: { role: 'USER', content: { text } } }],
          }),
        );
      }
      const seen: (string | undefined)[] = [];
      let nextToken: string | undefined;
      do {
        const page = await reversed.client.send(
          new ListEventsCommand({
            memoryId: reversed.emulator.memoryId,
            actorId: 'order',
            sessionId: 'order',
            maxResults: 2,
            nextToken,
          }),
        );
        seen.push(...(page.events ?? []).map((event) => event.payload?.[0]?.conversational?.content?.text));
        nextToken = page.nextToken;
      } while (nextToken);
      expect(seen).toEqual(['new', 'mid', 'old']);
    } finally {
      await reversed.close();
    }
  });
});

describe('records', () => {
  it('takes a full batch of 100 records of 16,000 characters (1.6 MB) in one call', async () => {
    const text = 'y'.repeat(16_000);
    const result = await fixture.client.send(
      new BatchCreateMemoryRecordsCommand({
        memoryId,
        records: Array.from({ length: 100 }, (_, index) => ({
          requestIdentifier: `big-${index}`,
          namespaces: ['/big/'],
          content: { text },
          timestamp: new Date(),
        })),
      }),
    );
    expect(result.successfulRecords?.length).toBe(100);
    const page = await fixture.client.send(
      new ListMemoryRecordsCommand({ memoryId, namespace: '/big/', maxResults: 100 }),
    );
    expect(page.memoryRecordSummaries?.every((record) => record.content?.text === text)).toBe(true);
  });

  it('checks the namespace given to get, delete and batch delete', async () => {
    const created = await fixture.client.send(
      new BatchCreateMemoryRecordsCommand({
        memoryId,
        records: [
          {
            requestIdentifier: 'scoped',
            namespaces: ['/scoped/a/'],
            content: { text: 'scoped' },
            timestamp: new Date(),
          },
        ],
      }),
    );
    const memoryRecordId = created.successfulRecords![0]!.memoryRecordId!;
    const wrong = await rejectionOf(
      fixture.client.send(new GetMemoryRecordCommand({ memoryId, memoryRecordId, namespace: '/scoped/b/' })),
    );
    expect(wrong.name).toBe('ResourceNotFoundException');
    const right = await fixture.client.send(
      new GetMemoryRecordCommand({ memoryId, memoryRecordId, namespace: '/scoped/a/' }),
    );
    expect(right.memoryRecord?.namespaces).toEqual(['/scoped/a/']);
    const notDeleted = await fixture.client.send(
      new BatchDeleteMemoryRecordsCommand({ memoryId, records: [{ memoryRecordId, namespace: '/scoped/b/' }] }),
    );
    expect(notDeleted.failedRecords?.map((record) => record.errorCode)).toEqual([404]);
    const wrongDelete = await rejectionOf(
      fixture.client.send(new DeleteMemoryRecordCommand({ memoryId, memoryRecordId, namespace: '/scoped/b/' })),
    );
    expect(wrongDelete.name).toBe('ResourceNotFoundException');
    await fixture.client.send(new DeleteMemoryRecordCommand({ memoryId, memoryRecordId, namespace: '/scoped/a/' }));
  });

  it('moves a record to another namespace with a batch update, checking its source namespace', async () => {
    const created = await fixture.client.send(
      new BatchCreateMemoryRecordsCommand({
        memoryId,
        records: [
          {
            requestIdentifier: 'mover',
            namespaces: ['/move/from/'],
            content: { text: 'moving' },
            timestamp: new Date(),
          },
        ],
      }),
    );
    const memoryRecordId = created.successfulRecords![0]!.memoryRecordId!;
    const refused = await fixture.client.send(
      new BatchUpdateMemoryRecordsCommand({
        memoryId,
        records: [
          { memoryRecordId, timestamp: new Date(), sourceNamespaces: ['/elsewhere/'], namespaces: ['/move/to/'] },
        ],
      }),
    );
    expect(refused.failedRecords?.length).toBe(1);
    await fixture.client.send(
      new BatchUpdateMemoryRecordsCommand({
        memoryId,
        records: [
          { memoryRecordId, timestamp: new Date(), sourceNamespaces: ['/move/from/'], namespaces: ['/move/to/'] },
        ],
      }),
    );
    const moved = await fixture.client.send(new ListMemoryRecordsCommand({ memoryId, namespacePath: '/move/' }));
    expect(moved.memoryRecordSummaries?.map((record) => record.namespaces)).toEqual([['/move/to/']]);
  });

  it('fails a repeated requestIdentifier within one batch for that record only', async () => {
    const result = await fixture.client.send(
      new BatchCreateMemoryRecordsCommand({
        memoryId,
        records: [
          { requestIdentifier: 'twice', namespaces: ['/dup/'], content: { text: 'one' }, timestamp: new Date() },
          { requestIdentifier: 'twice', namespaces: ['/dup/'], content: { text: 'two' }, timestamp: new Date() },
        ],
      }),
    );
    expect(result.successfulRecords?.length).toBe(1);
    expect(result.failedRecords?.map((record) => [record.requestIdentifier, record.errorCode])).toEqual([
      ['twice', 400],
    ]);
  });
});

describe('defaults', () => {
  it('the default memory id is valid under the model', () => {
    expect(validateShape(agentCoreMemoryModel(), 'MemoryId', DEFAULT_EMULATOR_MEMORY_ID)).toEqual([]);
  });
});
