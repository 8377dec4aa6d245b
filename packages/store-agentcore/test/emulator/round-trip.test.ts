// Why: every data-plane operation round-trips through the real SDK client, so serialisation,
// routes, statuses and timestamps are exercised exactly as the adapter will use them.
import {
  BatchCreateMemoryRecordsCommand,
  BatchDeleteMemoryRecordsCommand,
  BatchUpdateMemoryRecordsCommand,
  CreateEventCommand,
  DeleteEventCommand,
  DeleteMemoryRecordCommand,
  GetEventCommand,
  GetMemoryRecordCommand,
  IngestDataCommand,
  ListActorsCommand,
  ListEventsCommand,
  ListMemoryExtractionJobsCommand,
  ListMemoryRecordsCommand,
  ListSessionsCommand,
  RetrieveMemoryRecordsCommand,
  StartMemoryExtractionJobCommand,
} from '@aws-sdk/client-bedrock-agentcore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentCoreMemoryModel } from '../../src/testing/index.js';
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

describe('events', () => {
  it('creates, reads, lists and deletes immutable events in order', async () => {
    const { client } = fixture;
    const base = new Date('2026-01-01T00:00:00.000Z');
    const later = await client.send(
      new CreateEventCommand({
        memoryId,
        actorId: 'vercel/next-js',
        sessionId: 'task-1',
        eventTimestamp: new Date(base.getTime() + 2000),
        payload: [{ conversational: { role: 'ASSISTANT', content: { text: 'second' } } }],
        metadata: { kind: { stringValue: 'answer' } },
      }),
    );
    const earlier = await client.send(
      new CreateEventCommand({
        memoryId,
        actorId: 'vercel/next-js',
        sessionId: 'task-1',
        eventTimestamp: base,
        payload: [{ conversational: { role: 'USER', content: { text: 'first' } } }, { blob: { any: ['json', 1] } }],
      }),
    );
    expect(later.event?.eventTimestamp).toEqual(new Date(base.getTime() + 2000));
    expect(later.event?.eventId).toMatch(/^[0-9]+#[a-fA-F0-9]+$/);
    expect(later.event?.sessionId).toBe('task-1');

    const got = await client.send(
      new GetEventCommand({
        memoryId,
        actorId: 'vercel/next-js',
        sessionId: 'task-1',
        eventId: earlier.event!.eventId!,
      }),
    );
    expect(got.event?.payload).toEqual([
      { conversational: { role: 'USER', content: { text: 'first' } } },
      { blob: { any: ['json', 1] } },
    ]);

    const listed = await client.send(
      new ListEventsCommand({ memoryId, actorId: 'vercel/next-js', sessionId: 'task-1' }),
    );
    expect(listed.events?.map((event) => event.eventId)).toEqual([earlier.event?.eventId, later.event?.eventId]);

    const filtered = await client.send(
      new ListEventsCommand({
        memoryId,
        actorId: 'vercel/next-js',
        sessionId: 'task-1',
        includePayloads: false,
        filter: {
          eventMetadata: [
            {
              left: { metadataKey: 'kind' },
              operator: 'EQUALS_TO',
              right: { metadataValue: { stringValue: 'answer' } },
            },
          ],
        },
      }),
    );
    expect(filtered.events?.map((event) => [event.eventId, event.payload])).toEqual([[later.event?.eventId, []]]);

    const deleted = await client.send(
      new DeleteEventCommand({
        memoryId,
        actorId: 'vercel/next-js',
        sessionId: 'task-1',
        eventId: later.event!.eventId!,
      }),
    );
    expect(deleted.eventId).toBe(later.event?.eventId);
    const gone = await rejectionOf(
      client.send(
        new GetEventCommand({
          memoryId,
          actorId: 'vercel/next-js',
          sessionId: 'task-1',
          eventId: later.event!.eventId!,
        }),
      ),
    );
    expect(gone.name).toBe('ResourceNotFoundException');
  });

  it('generates a session id when none is given and lists sessions and actors', async () => {
    const { client } = fixture;
    const created = await client.send(
      new CreateEventCommand({
        memoryId,
        actorId: 'octo:cat',
        eventTimestamp: new Date(),
        payload: [{ conversational: { role: 'OTHER', content: { text: 'no session' } } }],
      }),
    );
    expect(created.event?.sessionId).toMatch(/^[a-zA-Z0-9][a-zA-Z0-9-_]*$/);
    const sessions = await client.send(new ListSessionsCommand({ memoryId, actorId: 'octo:cat' }));
    expect(sessions.sessionSummaries?.map((summary) => summary.sessionId)).toEqual([created.event?.sessionId]);
    expect(sessions.sessionSummaries?.[0]?.createdAt).toBeInstanceOf(Date);
    const actors = await client.send(new ListActorsCommand({ memoryId }));
    expect(actors.actorSummaries?.map((actor) => actor.actorId)).toEqual(
      expect.arrayContaining(['octo:cat', 'vercel/next-js']),
    );
  });

  it('ingests data as an event of a session', async () => {
    const { client } = fixture;
    const ingested = await client.send(
      new IngestDataCommand({
        memoryId,
        actorId: 'ingest-actor',
        contentTimestamp: new Date(),
        source: { inline: { payload: [{ conversational: { role: 'USER', content: { text: 'ingested' } } }] } },
      }),
    );
    const events = await client.send(
      new ListEventsCommand({ memoryId, actorId: 'ingest-actor', sessionId: ingested.sessionId! }),
    );
    expect(events.events?.length).toBe(1);
  });
});

describe('records', () => {
  it('batch-creates, reads, updates, lists, retrieves and deletes records', async () => {
    const { client } = fixture;
    const timestamp = new Date('2026-02-01T10:00:00.000Z');
    const created = await client.send(
      new BatchCreateMemoryRecordsCommand({
        memoryId,
        records: [
          {
            requestIdentifier: 'r1',
            namespaces: ['/vercel/next-js/knowledge/'],
            content: { text: 'Use pnpm to install dependencies in this repository.' },
            timestamp,
            metadata: { topic: { stringValue: 'tooling' } },
          },
          {
            requestIdentifier: 'r2',
            namespaces: ['/vercel/next-js/knowledge/'],
            content: { text: 'Tests run with vitest.' },
            timestamp,
            memoryStrategyId: 'semantic-1',
          },
        ],
      }),
    );
    expect(created.failedRecords).toEqual([]);
    expect(created.successfulRecords?.map((record) => record.requestIdentifier)).toEqual(['r1', 'r2']);
    const [first, second] = created.successfulRecords ?? [];
    const firstId = first!.memoryRecordId!;

    const got = await client.send(new GetMemoryRecordCommand({ memoryId, memoryRecordId: firstId }));
    expect(got.memoryRecord?.content?.text).toBe('Use pnpm to install dependencies in this repository.');
    expect(got.memoryRecord?.createdAt).toEqual(timestamp);
    expect(got.memoryRecord?.metadata).toEqual({ topic: { stringValue: 'tooling' } });

    const updated = await client.send(
      new BatchUpdateMemoryRecordsCommand({
        memoryId,
        records: [
          {
            memoryRecordId: firstId,
            timestamp: new Date(),
            content: { text: 'Install dependencies with pnpm install.' },
          },
          { memoryRecordId: 'mem-0000000000000000000000000000000000000000', timestamp: new Date() },
        ],
      }),
    );
    expect(updated.successfulRecords?.map((record) => record.memoryRecordId)).toEqual([firstId]);
    expect(updated.failedRecords?.[0]?.errorCode).toBe(404);

    const listed = await client.send(
      new ListMemoryRecordsCommand({ memoryId, namespace: '/vercel/next-js/knowledge/' }),
    );
    expect(listed.memoryRecordSummaries?.map((record) => record.memoryRecordId)).toEqual([
      firstId,
      second?.memoryRecordId,
    ]);

    const retrieved = await client.send(
      new RetrieveMemoryRecordsCommand({
        memoryId,
        namespacePath: '/vercel/',
        searchCriteria: { searchQuery: 'how do I install dependencies?', topK: 5 },
      }),
    );
    expect(retrieved.memoryRecordSummaries?.map((record) => record.memoryRecordId)).toEqual([firstId]);
    expect(retrieved.memoryRecordSummaries?.[0]?.score).toBeGreaterThan(0);

    const batchDeleted = await client.send(
      new BatchDeleteMemoryRecordsCommand({ memoryId, records: [{ memoryRecordId: second!.memoryRecordId! }] }),
    );
    expect(batchDeleted.successfulRecords?.length).toBe(1);
    const deleted = await client.send(new DeleteMemoryRecordCommand({ memoryId, memoryRecordId: firstId }));
    expect(deleted.memoryRecordId).toBe(firstId);
    const empty = await client.send(new ListMemoryRecordsCommand({ memoryId, namespacePath: '/vercel/' }));
    expect(empty.memoryRecordSummaries).toEqual([]);
  });
});

describe('extraction jobs', () => {
  it('lists seeded failed jobs and re-processes one', async () => {
    const { client, emulator } = fixture;
    const none = await client.send(new ListMemoryExtractionJobsCommand({ memoryId }));
    expect(none.jobs).toEqual([]);
    const jobId = emulator.addFailedExtractionJob({
      actorId: 'vercel/next-js',
      sessionId: 'task-1',
      failureReason: 'model timeout',
      messages: [{ eventId: '1#ab', messageIndex: 0 }],
    });
    const listed = await client.send(new ListMemoryExtractionJobsCommand({ memoryId, filter: { status: 'FAILED' } }));
    expect(listed.jobs?.map((job) => [job.jobID, job.status, job.failureReason])).toEqual([
      [jobId, 'FAILED', 'model timeout'],
    ]);
    const started = await client.send(new StartMemoryExtractionJobCommand({ memoryId, extractionJob: { jobId } }));
    expect(started.jobId).toBe(jobId);
    const after = await client.send(new ListMemoryExtractionJobsCommand({ memoryId }));
    expect(after.jobs).toEqual([]);
    const missing = await rejectionOf(
      client.send(new StartMemoryExtractionJobCommand({ memoryId, extractionJob: { jobId } })),
    );
    expect(missing.name).toBe('ResourceNotFoundException');
  });
});

describe('coverage', () => {
  it('the commands above reached every operation of the model, each on the route of its name', () => {
    const reached = fixture.emulator.stats().byOperation;
    expect(Object.keys(reached).sort()).toEqual(Object.keys(agentCoreMemoryModel().model.operations).sort());
  });
});
