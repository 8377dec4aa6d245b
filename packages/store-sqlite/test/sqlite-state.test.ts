// Why: what the conformance suite cannot see of the state API on SQLite: values are rows of the
// `state` table scoped by repository, survive reopening, are refused on a read-only store, never
// reach documents or search, and a corrupted row is reported rather than read as absent.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { searchStore } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore, type SqliteStoreOptions } from '../src/index.js';
import {
  expectRepomemError,
  freshDirectory,
  removeDirectory,
  withRawConnection,
  withWritableConnection,
} from './support.js';

let dir: string;
let file: string;
const opened: SqliteStore[] = [];

async function open(options: Partial<SqliteStoreOptions> = {}): Promise<SqliteStore> {
  const store = await openSqliteStore({ path: file, repo: 'acme/rocket', ...options });
  opened.push(store);
  return store;
}

beforeEach(async () => {
  dir = await freshDirectory('repomem-sqlite-state-');
  file = join(dir, 'memory.db');
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  await removeDirectory(dir);
});

describe('state on SQLite', () => {
  it('is a row of the state table with its serialised value, version and time, kept across reopening', async () => {
    const store = await open();
    const put = await store.state.put('sync/acme/rocket', { cursor: '2026-05-01T00:00:00Z', pages: [1, 2] }, null);
    expect(put.status).toBe('committed');
    withRawConnection(file, (db) => {
      const row = db.prepare('SELECT repo, key, value, version, updated_at FROM state').get() as Record<string, string>;
      expect(row).toMatchObject({
        repo: 'acme/rocket',
        key: 'sync/acme/rocket',
        value: '{"cursor":"2026-05-01T00:00:00Z","pages":[1,2]}',
      });
      expect(put.status === 'committed' && row.version).toBe(put.status === 'committed' && put.version);
      expect(Number.isNaN(Date.parse(row.updated_at ?? ''))).toBe(false);
    });
    await store.close();
    const reopened = await open();
    expect(await reopened.state.get('sync/acme/rocket')).toMatchObject({ value: { pages: [1, 2] } });
  });

  it('is scoped by repository like documents', async () => {
    const a = await open({ repo: 'acme/a' });
    const b = await open({ repo: 'acme/b' });
    await a.state.put('cursor', 'a');
    expect(await b.state.get('cursor')).toBeUndefined();
    expect(await b.state.list()).toEqual([]);
    expect((await b.state.put('cursor', 'b', null)).status).toBe('committed');
    expect((await a.state.get('cursor'))?.value).toBe('a');
    await b.state.delete('cursor');
    expect((await a.state.get('cursor'))?.value).toBe('a');
  });

  it('is never a document, never searched, and does not move the document revision', async () => {
    const store = await open();
    const revision = await store.revision();
    await store.state.put('thread/zeppelin', { note: 'zeppelin quokka' });
    expect(await store.list()).toEqual([]);
    expect(await store.revision()).toBe(revision);
    expect((await searchStore(store, 'zeppelin quokka')).results).toEqual([]);
    const answer = await store.searchCandidates({
      kind: 'lexical',
      terms: [{ text: 'zeppelin', prefix: true }],
      prefix: '',
    });
    expect(answer).toMatchObject({ candidates: [], corpus: { documentCount: 0 } });
  });

  it('a second connection sees a put at once and its compare-and-swap sees the new version', async () => {
    const first = await open();
    const second = await open();
    const created = await first.state.put('k', 1, null);
    const seen = await second.state.get('k');
    expect(created.status === 'committed' && created.version).toBe(seen?.version);
    expect((await second.state.put('k', 2, seen?.version)).status).toBe('committed');
    expect(await first.state.put('k', 3, seen?.version)).toMatchObject({
      status: 'conflict',
      actual: expect.any(String),
    });
    expect((await first.state.get('k'))?.value).toBe(2);
  });

  it('a read-only store reads state but refuses put and delete with READ_ONLY, changing nothing', async () => {
    const writer = await open();
    await writer.state.put('k', 'kept');
    await writer.close();
    const store = await open({ readOnly: true });
    expect((await store.state.get('k'))?.value).toBe('kept');
    await expectRepomemError(() => store.state.put('k', 'x'), 'READ_ONLY', file);
    await expectRepomemError(() => store.state.delete('k'), 'READ_ONLY', file);
    expect((await store.state.list()).map((entry) => entry.value)).toEqual(['kept']);
  });

  it('a value that is not JSON in the file is INVALID_DOCUMENT naming the key, not absent', async () => {
    const store = await open();
    await store.state.put('k', 1);
    withWritableConnection(file, (db) => db.exec("UPDATE state SET value = '{broken' WHERE key = 'k'"));
    await expectRepomemError(() => store.state.get('k'), 'INVALID_DOCUMENT', 'k');
    await expectRepomemError(() => store.state.list(), 'INVALID_DOCUMENT', 'k');
  });

  it('after close every state call is STORE_CLOSED', async () => {
    const store = await open();
    await store.close();
    await expectRepomemError(() => store.state.get('k'), 'STORE_CLOSED');
    await expectRepomemError(() => store.state.put('k', 1), 'STORE_CLOSED');
    await expectRepomemError(() => store.state.delete('k'), 'STORE_CLOSED');
    await expectRepomemError(() => store.state.list(), 'STORE_CLOSED');
  });

  it('a put blocked by another connection past the busy timeout is LOCK_TIMEOUT and applies nothing', async () => {
    const store = await open({ busyTimeoutMs: 50 });
    await store.state.put('k', 'before');
    const blocker = new DatabaseSync(file);
    blocker.exec('BEGIN IMMEDIATE');
    try {
      await expectRepomemError(() => store.state.put('k', 'after'), 'LOCK_TIMEOUT', file);
      expect((await store.state.get('k'))?.value).toBe('before');
    } finally {
      blocker.exec('ROLLBACK');
      blocker.close();
    }
    expect((await store.state.put('k', 'after')).status).toBe('committed');
  });
});
