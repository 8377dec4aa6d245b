// Why: a memory written by the release before the store kit port must open and read the same
// after it (same sessions, record namespaces, metadata and versions). test/fixtures/pre-kit.json
// holds every event and record the pre-port build left, with what it read back (written by
// test/fixtures/write-pre-kit.mjs); this replays them into a fresh emulator through the SDK
// (event ids are the service's, so parents and record tags are mapped to the new ids) and reads
// them with the ported store, then writes on top with the versions it read.
import { readFileSync } from 'node:fs';
import {
  BatchCreateMemoryRecordsCommand,
  CreateEventCommand,
  type MetadataValue,
  type PayloadType,
} from '@aws-sdk/client-bedrock-agentcore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentCoreStore, createAgentCoreStore } from '../src/index.js';
import type { AgentCoreEmulator } from '../src/testing/index.js';
import { emulatorConnection, startEmulator } from './support.js';

interface Fixture {
  readonly repo: string;
  readonly actorId: string;
  readonly events: {
    sessionId: string;
    eventId: string;
    at: number;
    metadata: Record<string, MetadataValue>;
    payload: PayloadType[];
  }[];
  readonly records: {
    namespace: string;
    text: string;
    at: number;
    metadata: Record<string, { stringValue: string }>;
  }[];
  readonly documents: { path: string; version: string; size: number; base64: string }[];
  readonly state: { key: string; value: unknown; version: string }[];
}

const fixture = JSON.parse(readFileSync(new URL('fixtures/pre-kit.json', import.meta.url), 'utf8')) as Fixture;
let emulator: AgentCoreEmulator;
let store: AgentCoreStore;

const height = (event: Fixture['events'][number]): number =>
  Number((event.metadata['repomem.height'] as { stringValue: string }).stringValue);

beforeAll(async () => {
  emulator = await startEmulator();
  const connection = emulatorConnection(emulator);
  const ids = new Map<string, string>();
  const mapped = (id: string): string => (id === '-' ? id : (ids.get(id.replace(':', '#')) ?? id).replace('#', ':'));
  for (const event of [...fixture.events].sort((a, b) => height(a) - height(b) || a.at - b.at)) {
    const parent = (event.metadata['repomem.parent'] as { stringValue: string }).stringValue;
    const output = await connection.client.send(
      new CreateEventCommand({
        memoryId: emulator.memoryId,
        actorId: fixture.actorId,
        sessionId: event.sessionId,
        eventTimestamp: new Date(event.at),
        payload: event.payload,
        metadata: { ...event.metadata, 'repomem.parent': { stringValue: mapped(parent) } },
      }),
    );
    ids.set(event.eventId, output.event?.eventId as string);
  }
  await connection.client.send(
    new BatchCreateMemoryRecordsCommand({
      memoryId: emulator.memoryId,
      records: fixture.records.map((record, index) => ({
        requestIdentifier: `r${index}`,
        namespaces: [record.namespace],
        content: { text: record.text },
        timestamp: new Date(record.at),
        metadata: {
          ...record.metadata,
          'repomem.event': { stringValue: mapped(record.metadata['repomem.event']?.stringValue ?? '-') },
        },
      })),
    }),
  );
  connection.close();
  store = createAgentCoreStore({ connection: emulatorConnection(emulator), repo: fixture.repo });
});
afterAll(async () => {
  await store.close();
  await emulator.close();
});

describe('a memory written before the store kit port', () => {
  it('lists, reads and readAlls every document with the same bytes and versions', async () => {
    const expected = fixture.documents.map(({ path, version, size }) => ({ path, version, size }));
    expect(expected.length).toBeGreaterThan(4);
    expect(await store.list()).toEqual(expected);
    for (const document of fixture.documents) {
      const read = await store.get(document.path);
      expect(read?.version).toBe(document.version);
      expect(Buffer.from(read?.content ?? []).toString('base64')).toBe(document.base64);
    }
    if (store.readAll === undefined) throw new Error('readAll missing');
    const all = await store.readAll();
    expect(
      all.map((document) => [document.path, document.version, Buffer.from(document.content).toString('base64')]),
    ).toEqual(fixture.documents.map((document) => [document.path, document.version, document.base64]));
    expect(await store.get('gone.md')).toBeUndefined();
  });

  it('reads every state value with the same version', async () => {
    expect(await store.state.list()).toEqual(fixture.state);
    for (const entry of fixture.state) expect(await store.state.get(entry.key)).toEqual(entry);
    expect(await store.state.get('dropped')).toBeUndefined();
  });

  it('writes on top with the versions it read (compare-and-swap on the old chains)', async () => {
    const memory = fixture.documents.find((document) => document.path === 'MEMORY.md');
    const stale = await store.write([
      { kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode('x\n'), expectedVersion: 'f'.repeat(64) },
    ]);
    expect(stale.status).toBe('conflict');
    const text = `${Buffer.from(memory?.base64 ?? '', 'base64').toString()}- after the port\n`;
    const result = await store.write([
      { kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode(text), expectedVersion: memory?.version },
    ]);
    expect(result.status).toBe('committed');
    expect(new TextDecoder().decode((await store.get('MEMORY.md'))?.content)).toBe(text);
    const cursor = fixture.state[0];
    if (cursor === undefined) throw new Error('fixture has no state');
    expect((await store.state.put(cursor.key, { cursor: 'def' }, cursor.version)).status).toBe('committed');
  });
});
