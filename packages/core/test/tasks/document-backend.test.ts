// Why: what the document task-record backend adds beyond the shared contract: where records
// live in the store (under `.repomem/tasks/`, out of document search), that a corrupt document
// is skipped and reported once by name, that another instance over the same store sees every write, and that a
// scan reads only what changed.
import { describe, expect, it } from 'vitest';
import {
  createDocumentTaskRecordBackend,
  createInMemoryStore,
  type MemoryStore,
  RepomemError,
  searchStore,
} from '../../src/index.js';
import { taskConformanceRecord } from '../../src/testing/index.js';

const repo = 'acme/app';

describe('document task-record backend', () => {
  it('keeps each record as a JSON document under .repomem/tasks/<kind>/<owner>/<name>/, escaped', async () => {
    const store = createInMemoryStore();
    const backend = createDocumentTaskRecordBackend(store);
    await backend.apply([
      { record: taskConformanceRecord({ kind: 'preference', id: 'users/Alice/pr-size' }), expectedRevision: null },
      { record: taskConformanceRecord({ repo: 'Acme/App', id: 'k-1' }), expectedRevision: null },
    ]);
    const paths = (await store.list('')).map((entry) => entry.path);
    expect(paths).toEqual([
      '.repomem/tasks/knowledge/~41cme/~41pp/k-1.json',
      '.repomem/tasks/preference/acme/app/users~2f~41lice~2fpr-size.json',
    ]);
    const found = await searchStore(store, 'vitest');
    expect(found.results).toEqual([]);
  });

  it('refuses a prefix outside .repomem/', () => {
    expect(() => createDocumentTaskRecordBackend(createInMemoryStore(), { prefix: 'tasks' })).toThrow(RepomemError);
    expect(() => createDocumentTaskRecordBackend(createInMemoryStore(), { prefix: '.repomem' })).toThrow(RepomemError);
  });

  it('skips a corrupt or misplaced document, reports it once, serves the rest and lets it be rewritten', async () => {
    const store = createInMemoryStore();
    const backend = createDocumentTaskRecordBackend(store);
    const good = taskConformanceRecord({ id: 'k-3' });
    expect(await backend.apply([{ record: good, expectedRevision: null }])).toEqual({ ok: true });
    const path = '.repomem/tasks/knowledge/acme/app/k-1.json';
    await store.write([{ kind: 'put', path, content: new TextEncoder().encode('{"kind": "knowledge", "re') }]);
    expect(await backend.get(repo, 'knowledge', 'k-1')).toBeUndefined();
    expect(await backend.list({ repo, kind: 'knowledge' })).toEqual([good]);
    expect(await backend.search({ repo, kind: 'knowledge', text: good.text })).toEqual([good]);
    const reported = backend.drainSkippedRecords?.() ?? [];
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ repo, kind: 'knowledge', location: path });
    expect(reported[0]?.problem).toContain('not JSON');
    await backend.list({ repo, kind: 'knowledge' });
    expect(backend.drainSkippedRecords?.()).toEqual([]);
    // Another repository's record copied in: the same.
    const elsewhere = JSON.stringify(taskConformanceRecord({ repo: 'acme/other', id: 'k-1' }));
    await store.write([{ kind: 'put', path, content: new TextEncoder().encode(elsewhere) }]);
    expect(await backend.list({ repo, kind: 'knowledge' })).toEqual([good]);
    expect(backend.drainSkippedRecords?.()[0]?.problem).toContain('acme/other');
    // Writing the id again replaces the bad document.
    const rewritten = taskConformanceRecord({ id: 'k-1' });
    expect(await backend.apply([{ record: rewritten, expectedRevision: null }])).toEqual({ ok: true });
    expect(await backend.get(repo, 'knowledge', 'k-1')).toEqual(rewritten);
    expect(await backend.list({ repo, kind: 'knowledge' })).toHaveLength(2);
  });

  it('two backends over one store see each other’s writes and conflict properly', async () => {
    const store = createInMemoryStore();
    const first = createDocumentTaskRecordBackend(store);
    const second = createDocumentTaskRecordBackend(store);
    const record = taskConformanceRecord();
    expect(await first.apply([{ record, expectedRevision: null }])).toEqual({ ok: true });
    expect(await second.list({ repo, kind: 'knowledge' })).toEqual([record]);
    expect(await second.apply([{ record: { ...record, revision: 2 }, expectedRevision: 1 }])).toEqual({ ok: true });
    const stale = await first.apply([{ record: { ...record, text: 'stale', revision: 2 }, expectedRevision: 1 }]);
    expect(stale.ok).toBe(false);
    expect((await first.list({ repo, kind: 'knowledge' }))[0]?.revision).toBe(2);
  });

  it('a repeated query reads only the documents that changed', async () => {
    const inner = createInMemoryStore();
    const reads: string[] = [];
    const store: MemoryStore = Object.assign(Object.create(inner) as MemoryStore, {
      get: async (path: string) => {
        reads.push(path);
        return inner.get(path);
      },
    });
    const backend = createDocumentTaskRecordBackend(store);
    const records = [1, 2, 3].map((n) => taskConformanceRecord({ id: `k-${n}` }));
    await backend.apply(records.map((record) => ({ record, expectedRevision: null })));
    await backend.list({ repo, kind: 'knowledge' });
    reads.length = 0;
    await backend.search({ repo, kind: 'knowledge', text: 'vitest' });
    expect(reads).toEqual([]);
    const changed = { ...records[1], text: 'changed', revision: 2 } as (typeof records)[number];
    await backend.apply([{ record: changed, expectedRevision: 1 }]);
    reads.length = 0;
    await backend.list({ repo, kind: 'knowledge' });
    expect(reads).toEqual(['.repomem/tasks/knowledge/acme/app/k-2.json']);
  });
});
