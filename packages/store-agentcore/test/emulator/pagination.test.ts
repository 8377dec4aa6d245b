// Why: paging and namespace scoping are where adapters silently lose data: tokens must walk a
// result set exactly once, and `namespace` must match exactly while `namespacePath` matches by prefix.
import {
  BatchCreateMemoryRecordsCommand,
  CreateEventCommand,
  ListEventsCommand,
  ListMemoryRecordsCommand,
  paginateListMemoryRecords,
  paginateRetrieveMemoryRecords,
  RetrieveMemoryRecordsCommand,
} from '@aws-sdk/client-bedrock-agentcore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

async function writeRecords(namespace: string, texts: readonly string[]): Promise<string[]> {
  const result = await fixture.client.send(
    new BatchCreateMemoryRecordsCommand({
      memoryId,
      records: texts.map((text, index) => ({
        requestIdentifier: `r${index}`,
        namespaces: [namespace],
        content: { text },
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, index)),
      })),
    }),
  );
  return (result.successfulRecords ?? []).map((record) => record.memoryRecordId!);
}

describe('pagination', () => {
  it('walks events page by page in eventTimestamp order, ties in creation order', async () => {
    const ids: string[] = [];
    const same = new Date('2026-03-01T00:00:00.000Z');
    for (let index = 0; index < 7; index += 1) {
      const created = await fixture.client.send(
        new CreateEventCommand({
          memoryId,
          actorId: 'pager',
          sessionId: 'events',
          eventTimestamp: index < 4 ? same : new Date(same.getTime() - index * 1000),
          payload: [{ conversational: { role: 'USER', content: { text: `e${index}` } } }],
        }),
      );
      ids.push(created.event!.eventId!);
    }
    const seen: string[] = [];
    let nextToken: string | undefined;
    let pages = 0;
    do {
      const page = await fixture.client.send(
        new ListEventsCommand({ memoryId, actorId: 'pager', sessionId: 'events', maxResults: 3, nextToken }),
      );
      seen.push(...(page.events ?? []).map((event) => event.eventId!));
      nextToken = page.nextToken;
      pages += 1;
    } while (nextToken);
    expect(pages).toBe(3);
    // e6, e5, e4 are older (descending timestamps), then e0..e3 share a timestamp.
    expect(seen).toEqual([ids[6], ids[5], ids[4], ids[0], ids[1], ids[2], ids[3]]);
  });

  it('defaults to 20 per page and the SDK paginator reads every record once', async () => {
    const written = await writeRecords(
      '/pages/all/',
      Array.from({ length: 45 }, (_, index) => `record ${index}`),
    );
    const first = await fixture.client.send(new ListMemoryRecordsCommand({ memoryId, namespace: '/pages/all/' }));
    expect(first.memoryRecordSummaries?.length).toBe(20);
    expect(first.nextToken).toBeTypeOf('string');
    const seen: string[] = [];
    for await (const page of paginateListMemoryRecords(
      { client: fixture.client, pageSize: 7 },
      { memoryId, namespace: '/pages/all/' },
    )) {
      seen.push(...(page.memoryRecordSummaries ?? []).map((record) => record.memoryRecordId!));
    }
    expect(seen).toEqual(written);
  });

  it('keeps a page boundary stable when items are deleted or added between pages', async () => {
    const written = await writeRecords('/pages/stable/', ['a', 'b', 'c', 'd']);
    const first = await fixture.client.send(
      new ListMemoryRecordsCommand({ memoryId, namespace: '/pages/stable/', maxResults: 2 }),
    );
    await writeRecords('/pages/stable/', ['e']);
    const second = await fixture.client.send(
      new ListMemoryRecordsCommand({
        memoryId,
        namespace: '/pages/stable/',
        maxResults: 10,
        nextToken: first.nextToken,
      }),
    );
    expect(second.memoryRecordSummaries?.map((record) => record.memoryRecordId).slice(0, 2)).toEqual(written.slice(2));
  });

  it('rejects a token it did not issue and a token from another query', async () => {
    const forged = await rejectionOf(
      fixture.client.send(
        new ListMemoryRecordsCommand({ memoryId, namespace: '/pages/all/', nextToken: 'not-a-token' }),
      ),
    );
    expect(forged.name).toBe('ValidationException');
    expect(forged.fieldList).toEqual([expect.objectContaining({ name: 'nextToken' })]);
    const page = await fixture.client.send(
      new ListMemoryRecordsCommand({ memoryId, namespace: '/pages/all/', maxResults: 1 }),
    );
    const reused = await rejectionOf(
      fixture.client.send(
        new ListMemoryRecordsCommand({ memoryId, namespace: '/pages/stable/', nextToken: page.nextToken }),
      ),
    );
    expect(reused.name).toBe('ValidationException');
  });

  it('pages retrieval results within topK', async () => {
    await writeRecords(
      '/pages/search/',
      Array.from({ length: 12 }, (_, index) => `deploy pipeline note ${index}`),
    );
    const seen: number[] = [];
    for await (const page of paginateRetrieveMemoryRecords(
      { client: fixture.client, pageSize: 4 },
      { memoryId, namespace: '/pages/search/', searchCriteria: { searchQuery: 'deploy pipeline', topK: 10 } },
    )) {
      seen.push(...(page.memoryRecordSummaries ?? []).map((record) => record.score!));
    }
    expect(seen.length).toBe(10);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
  });
});

describe('namespace scope', () => {
  beforeAll(async () => {
    await writeRecords('/vercel/next/knowledge/', ['next knowledge about caching']);
    await writeRecords('/vercel/next-js/knowledge/', ['next-js knowledge about caching']);
    await writeRecords('/vercel/next/episodes/task-1/', ['episode about caching']);
  });

  async function listed(scope: { namespace?: string; namespacePath?: string }): Promise<string[]> {
    const result = await fixture.client.send(new ListMemoryRecordsCommand({ memoryId, ...scope }));
    return (result.memoryRecordSummaries ?? []).map((record) => record.content!.text!).sort();
  }

  it('matches `namespace` exactly: a parent namespace reads nothing', async () => {
    expect(await listed({ namespace: '/vercel/next/knowledge/' })).toEqual(['next knowledge about caching']);
    expect(await listed({ namespace: '/vercel/next/' })).toEqual([]);
    expect(await listed({ namespace: '/vercel/next/episodes/' })).toEqual([]);
  });

  it('matches `namespacePath` as a string prefix: end it with / to stay inside one hierarchy', async () => {
    expect(await listed({ namespacePath: '/vercel/next/' })).toEqual([
      'episode about caching',
      'next knowledge about caching',
    ]);
    expect(await listed({ namespacePath: '/vercel/next' })).toEqual([
      'episode about caching',
      'next knowledge about caching',
      'next-js knowledge about caching',
    ]);
  });

  it('scopes retrieval the same way and needs exactly one of the two', async () => {
    const exact = await fixture.client.send(
      new RetrieveMemoryRecordsCommand({
        memoryId,
        namespace: '/vercel/next/',
        searchCriteria: { searchQuery: 'caching' },
      }),
    );
    expect(exact.memoryRecordSummaries).toEqual([]);
    const hierarchy = await fixture.client.send(
      new RetrieveMemoryRecordsCommand({
        memoryId,
        namespacePath: '/vercel/next/',
        searchCriteria: { searchQuery: 'caching' },
      }),
    );
    expect(hierarchy.memoryRecordSummaries?.length).toBe(2);
    const neither = await rejectionOf(fixture.client.send(new ListMemoryRecordsCommand({ memoryId })));
    expect(neither.name).toBe('ValidationException');
    const both = await rejectionOf(
      fixture.client.send(new ListMemoryRecordsCommand({ memoryId, namespace: '/a/', namespacePath: '/a/' })),
    );
    expect(both.name).toBe('ValidationException');
  });
});

describe('relevance and filters', () => {
  it('ranks by word overlap and filters by strategy and metadata', async () => {
    const result = await fixture.client.send(
      new BatchCreateMemoryRecordsCommand({
        memoryId,
        records: [
          {
            requestIdentifier: 'a',
            namespaces: ['/rank/'],
            content: { text: 'Release checklist: bump version, tag, publish to npm.' },
            timestamp: new Date(),
            memoryStrategyId: 'semantic',
            metadata: { priority: { numberValue: 3 }, tags: { stringListValue: ['release', 'npm'] } },
          },
          {
            requestIdentifier: 'b',
            namespaces: ['/rank/'],
            content: { text: 'Publish docs after release.' },
            timestamp: new Date(),
            memoryStrategyId: 'episodic',
            metadata: { priority: { numberValue: 1 } },
          },
          {
            requestIdentifier: 'c',
            namespaces: ['/rank/'],
            content: { text: 'Unrelated lint rule.' },
            timestamp: new Date(),
          },
        ],
      }),
    );
    const [a, b] = (result.successfulRecords ?? []).map((record) => record.memoryRecordId);
    const search = (
      criteria: Partial<ConstructorParameters<typeof RetrieveMemoryRecordsCommand>[0]['searchCriteria']>,
    ) =>
      fixture.client
        .send(
          new RetrieveMemoryRecordsCommand({
            memoryId,
            namespace: '/rank/',
            searchCriteria: { searchQuery: 'how to publish a release to npm', ...criteria },
          }),
        )
        .then((found) => (found.memoryRecordSummaries ?? []).map((record) => record.memoryRecordId));
    expect(await search({})).toEqual([a, b]);
    expect(await search({ topK: 1 })).toEqual([a]);
    expect(await search({ memoryStrategyId: 'episodic' })).toEqual([b]);
    expect(
      await search({
        metadataFilters: [
          { left: { metadataKey: 'priority' }, operator: 'GREATER_THAN', right: { metadataValue: { numberValue: 2 } } },
        ],
      }),
    ).toEqual([a]);
    expect(
      await search({
        metadataFilters: [
          { left: { metadataKey: 'tags' }, operator: 'CONTAINS', right: { metadataValue: { stringValue: 'npm' } } },
        ],
      }),
    ).toEqual([a]);
    expect(await search({ metadataFilters: [{ left: { metadataKey: 'tags' }, operator: 'NOT_EXISTS' }] })).toEqual([b]);
    const missingRight = await rejectionOf(
      fixture.client.send(
        new ListMemoryRecordsCommand({
          memoryId,
          namespace: '/rank/',
          metadataFilters: [{ left: { metadataKey: 'priority' }, operator: 'EQUALS_TO' }],
        }),
      ),
    );
    expect(missingRight.name).toBe('ValidationException');
  });
});
