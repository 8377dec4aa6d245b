import { describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/store/index.js';
import { conformanceEvent, conformanceRecord } from '../../src/testing/index.js';
import { createDocumentRecordBackend, DEFAULT_VERIFIED_PREFIX } from '../../src/verified/index.js';
import { thrown } from './support.js';

const record = conformanceRecord();
const recordPath = `${DEFAULT_VERIFIED_PREFIX}/acme/app/records/${record.id}.json`;

describe('document record backend', () => {
  it('keeps one JSON document per record and daily JSONL telemetry', async () => {
    const store = createInMemoryStore();
    const backend = createDocumentRecordBackend(store);
    await backend.apply([{ record, expectedRevision: null }], [conformanceEvent('created', record.id, 0)]);
    expect((await store.list()).map((entry) => entry.path)).toEqual([
      `${DEFAULT_VERIFIED_PREFIX}/acme/app/events/2026-01-01.jsonl`,
      recordPath,
    ]);
    const stored = await store.get(recordPath);
    expect(JSON.parse(new TextDecoder().decode(stored?.content))).toEqual(record);
  });

  it('honours a custom prefix under .repomem/ and does not close the store', async () => {
    const store = createInMemoryStore();
    const backend = createDocumentRecordBackend(store, { prefix: '.repomem/other/' });
    await backend.apply([{ record, expectedRevision: null }], []);
    expect((await store.list()).map((entry) => entry.path)).toEqual([
      `.repomem/other/acme/app/records/${record.id}.json`,
    ]);
    await backend.close();
    expect(await store.list()).toHaveLength(1);
    expect(() => createDocumentRecordBackend(store, { prefix: '../up' })).toThrow(/escapes/);
  });

  it('refuses a prefix outside .repomem/ (the directory document search never reads)', () => {
    const store = createInMemoryStore();
    for (const prefix of ['memory/verified/', '.repomem', '.repomemx/verified', 'notes']) {
      expect(() => createDocumentRecordBackend(store, { prefix }), prefix).toThrow(/under \.repomem\//);
    }
  });

  it('a corrupt record document is INVALID_DOCUMENT naming the path, and is left as it is', async () => {
    for (const content of ['{not json', JSON.stringify({ ...record, citations: [] })]) {
      const store = createInMemoryStore({ initialDocuments: { [recordPath]: content } });
      const backend = createDocumentRecordBackend(store);
      const error = await thrown(() => backend.recent({ repo: 'acme/app' }));
      expect(error.code).toBe('INVALID_DOCUMENT');
      expect(error.message).toContain(recordPath);
      const update = await thrown(() =>
        backend.apply([{ record: { ...record, revision: 2 }, expectedRevision: 1 }], []),
      );
      expect(update.code).toBe('INVALID_DOCUMENT');
      expect(new TextDecoder().decode((await store.get(recordPath))?.content)).toBe(content);
    }
  });

  it('a record filed under the wrong repository or id is INVALID_DOCUMENT', async () => {
    const store = createInMemoryStore({
      initialDocuments: { [recordPath]: JSON.stringify({ ...record, repo: 'acme/other' }) },
    });
    const error = await thrown(() => createDocumentRecordBackend(store).get('acme/app', record.id));
    expect(error.code).toBe('INVALID_DOCUMENT');
    expect(error.message).toMatch(/does not belong here/);
  });

  it('a corrupt telemetry line is INVALID_DOCUMENT naming the file and line', async () => {
    const path = `${DEFAULT_VERIFIED_PREFIX}/acme/app/events/2026-01-01.jsonl`;
    const good = JSON.stringify(conformanceEvent('created', record.id, 0));
    const store = createInMemoryStore({ initialDocuments: { [path]: `${good}\n{"type":"exploded"}\n` } });
    const error = await thrown(() => createDocumentRecordBackend(store).events({ repo: 'acme/app' }));
    expect(error.code).toBe('INVALID_DOCUMENT');
    expect(error.message).toContain(`${path} is invalid: line 2`);
  });

  it('rejects a bad repository in queries and an id that is not a UUID finds nothing', async () => {
    const backend = createDocumentRecordBackend(createInMemoryStore());
    expect((await thrown(() => backend.recent({ repo: '../x' }))).code).toBe('INVALID_ARGUMENT');
    expect(await backend.get('acme/app', '../../secret')).toBeUndefined();
    expect((await thrown(() => backend.recent({ repo: 'acme/app', limit: -1 }))).code).toBe('INVALID_ARGUMENT');
  });
});
