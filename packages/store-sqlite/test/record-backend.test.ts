import { join } from 'node:path';
import { searchStore, type VerifiedMemory } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteRecordBackend, openSqliteStore, type SqliteRecordBackend } from '../src/index.js';
import { change, create, event, memory, memoryId } from './record-support.js';
import { expectRepomemError, freshDirectory, removeDirectory, withWritableConnection } from './support.js';

let dir: string;
let file: string;
let backend: SqliteRecordBackend;

beforeEach(async () => {
  dir = await freshDirectory('repomem-sqlite-records-');
  file = join(dir, 'memory.db');
  backend = openSqliteRecordBackend({ path: file });
});
afterEach(async () => {
  await backend.close();
  await removeDirectory(dir);
});

const ids = (records: readonly VerifiedMemory[]): string[] => records.map((record) => record.id);

async function seed(...records: VerifiedMemory[]): Promise<void> {
  expect(
    await backend.apply(
      records.map(create),
      records.map((record) => event(record)),
    ),
  ).toEqual({ ok: true });
}

describe('apply and get', () => {
  it('stores a record with every field and reads it back equal, with its created event', async () => {
    const record = memory(1, {
      scope: 'src/legacy/',
      reason: 'Prevents drift',
      created_by: 'coding-agent',
      citations: [
        { path: 'src/a.ts', line_start: 3, line_end: 9, sha: 'abcdef1', snippet_hash: `sha256:${'a'.repeat(64)}` },
        { path: 'src/a.ts', line_start: 20, line_end: 20 },
        { path: 'docs/b.md', line_start: 1, line_end: 1 },
      ],
    });
    await seed(record);
    expect(await backend.get('acme/rocket', record.id)).toEqual(record);
    expect(await backend.events({ repo: 'acme/rocket' })).toEqual([event(record)]);
    expect(await backend.get('acme/rocket', memoryId(99))).toBeUndefined();
    expect(await backend.get('acme/rocket', 'not-a-uuid')).toBeUndefined();
  });

  it('normalises citation paths on the way in', async () => {
    await seed(memory(1, { citations: [{ path: './src//a.ts', line_start: 1, line_end: 1 }] }));
    expect((await backend.get('acme/rocket', memoryId(1)))?.citations[0]?.path).toBe('src/a.ts');
    expect(ids(await backend.byPath({ repo: 'acme/rocket', path: 'src/a.ts' }))).toEqual([memoryId(1)]);
  });

  it('compare-and-swap: a create of an existing id and a stale update conflict and change nothing', async () => {
    const first = memory(1);
    await seed(first);
    expect(await backend.apply([create(memory(1, { fact: 'Other fact' }))], [])).toEqual({
      ok: false,
      conflicts: [{ id: first.id, expectedRevision: null, actualRevision: 1 }],
    });
    const updated = change(first, { fact: 'Second fact' });
    expect(await backend.apply([updated], [event(first, 'refreshed')])).toEqual({ ok: true });
    expect(await backend.apply([change(first, { fact: 'Lost update' })], [event(first, 'refreshed')])).toEqual({
      ok: false,
      conflicts: [{ id: first.id, expectedRevision: 1, actualRevision: 2 }],
    });
    expect(await backend.apply([{ record: memory(2, { revision: 2 }), expectedRevision: 1 }], [])).toEqual({
      ok: false,
      conflicts: [{ id: memoryId(2), expectedRevision: 1, actualRevision: null }],
    });
    expect(await backend.get('acme/rocket', first.id)).toEqual(updated.record);
    expect((await backend.events({ repo: 'acme/rocket' })).map((e) => e.type)).toEqual(['created', 'refreshed']);
  });

  it('a batch with one conflict writes nothing: no record, no citation row, no index row, no event', async () => {
    const first = memory(1);
    await seed(first);
    const result = await backend.apply(
      [create(memory(2, { fact: 'zebra crossing' })), create(memory(1, { fact: 'zebra' }))],
      [event(memory(2)), event(first, 'superseded')],
    );
    expect(result).toEqual({ ok: false, conflicts: [{ id: first.id, expectedRevision: null, actualRevision: 1 }] });
    expect(await backend.get('acme/rocket', memoryId(2))).toBeUndefined();
    expect(await backend.get('acme/rocket', first.id)).toEqual(first);
    expect(await backend.search({ repo: 'acme/rocket', text: 'zebra' })).toEqual([]);
    expect(await backend.byPath({ repo: 'acme/rocket', path: 'src/file-2.ts' })).toEqual([]);
    expect(await backend.events({ repo: 'acme/rocket' })).toHaveLength(1);
  });

  it('an update moves the search and path indexes with the record', async () => {
    const first = memory(1, { fact: 'Use pnpm workspaces', citations: [{ path: 'a.ts', line_start: 1, line_end: 1 }] });
    await seed(first);
    await backend.apply(
      [change(first, { fact: 'Use npm workspaces', citations: [{ path: 'b.ts', line_start: 1, line_end: 1 }] })],
      [],
    );
    expect(await backend.search({ repo: 'acme/rocket', text: 'pnpm' })).toEqual([]);
    expect(ids(await backend.search({ repo: 'acme/rocket', text: 'npm' }))).toEqual([first.id]);
    expect(await backend.byPath({ repo: 'acme/rocket', path: 'a.ts' })).toEqual([]);
    expect(ids(await backend.byPath({ repo: 'acme/rocket', path: 'b.ts' }))).toEqual([first.id]);
    // A change of status only (no text change) keeps both indexes.
    const current = (await backend.get('acme/rocket', first.id)) as VerifiedMemory;
    await backend.apply([change(current, { status: 'invalid', invalid_reason: 'gone' })], []);
    expect(ids(await backend.search({ repo: 'acme/rocket', text: 'npm' }))).toEqual([first.id]);
    expect(ids(await backend.byPath({ repo: 'acme/rocket', path: 'b.ts' }))).toEqual([first.id]);
  });

  it('refuses invalid writes and events with INVALID_ARGUMENT and writes nothing', async () => {
    await expectRepomemError(
      () => backend.apply([create(memory(1, { citations: [] }))], []),
      'INVALID_ARGUMENT',
      'at least one citation',
    );
    await expectRepomemError(
      () => backend.apply([create(memory(1, { citations: [{ path: 'a.ts', line_start: 5, line_end: 2 }] }))], []),
      'INVALID_ARGUMENT',
      'line_end must be >= line_start',
    );
    await expectRepomemError(
      () => backend.apply([create(memory(1, { citations: [{ path: '../x.ts', line_start: 1, line_end: 1 }] }))], []),
      'INVALID_ARGUMENT',
      memoryId(1),
    );
    await expectRepomemError(
      () => backend.apply([create(memory(1, { fact: '  ' }))], []),
      'INVALID_ARGUMENT',
      'fact is empty',
    );
    await expectRepomemError(
      () => backend.apply([create(memory(1)), create(memory(1))], []),
      'INVALID_ARGUMENT',
      'written twice',
    );
    await expectRepomemError(
      () => backend.apply([{ record: memory(1), expectedRevision: 0 }], []),
      'INVALID_ARGUMENT',
      'expectedRevision',
    );
    await expectRepomemError(
      () => backend.apply([create(memory(1))], [{ ...event(memory(1)), type: 'exploded' as 'created' }]),
      'INVALID_ARGUMENT',
      'event 0',
    );
    await expectRepomemError(
      () => backend.appendEvents([event(memory(1), 'applied', 'yesterday')]),
      'INVALID_ARGUMENT',
      'appendEvents',
    );
    expect(await backend.recent({ repo: 'acme/rocket' })).toEqual([]);
    expect(await backend.events({ repo: 'acme/rocket' })).toEqual([]);
  });
});

describe('ordering and filters', () => {
  it('recent: newest refreshed_at first, then created_at, then id, all descending', async () => {
    const t = (minute: number) => `2026-05-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
    await seed(
      memory(1, { refreshed_at: t(5), created_at: t(1) }),
      memory(2, { refreshed_at: t(9), created_at: t(1) }),
      memory(3, { refreshed_at: t(5), created_at: t(3) }),
      memory(4, { refreshed_at: t(5), created_at: t(3) }),
      memory(5, { refreshed_at: t(1), created_at: t(1) }),
    );
    expect(ids(await backend.recent({ repo: 'acme/rocket' }))).toEqual([2, 4, 3, 1, 5].map(memoryId));
    expect(ids(await backend.recent({ repo: 'acme/rocket', limit: 2 }))).toEqual([2, 4].map(memoryId));
    expect(await backend.recent({ repo: 'acme/rocket', limit: 0 })).toEqual([]);
  });

  it('orders and expires by instant, whatever the UTC offset and fraction digits', async () => {
    await seed(
      memory(1, { refreshed_at: '2026-05-01T11:30:00+02:00' }), // 09:30Z
      memory(2, { refreshed_at: '2026-05-01T10:00:00Z' }),
      memory(3, { refreshed_at: '2026-05-01T09:30:00.000000001Z' }),
      memory(4, { refreshed_at: '2026-05-01T05:00:00-05:00', expires_at: '2026-05-02T00:00:00+02:00' }), // 10:00Z
    );
    expect(ids(await backend.recent({ repo: 'acme/rocket' }))).toEqual([4, 2, 3, 1].map(memoryId));
    // memory 4 expires at 2026-05-01T22:00Z: live just before, expired at that instant.
    expect(ids(await backend.recent({ repo: 'acme/rocket', liveAt: '2026-05-01T21:59:59.999Z' }))).toContain(
      memoryId(4),
    );
    expect(ids(await backend.recent({ repo: 'acme/rocket', liveAt: '2026-05-02T00:00:00+02:00' }))).toEqual(
      [2, 3, 1].map(memoryId),
    );
  });

  it('statuses, liveAt and limit filter every query; several statuses merge in order', async () => {
    await seed(
      memory(1, { subject: 'Shared', citations: [{ path: 'x.ts', line_start: 1, line_end: 1 }] }),
      memory(2, {
        subject: 'Shared',
        status: 'invalid',
        invalid_reason: 'gone',
        citations: [{ path: 'x.ts', line_start: 1, line_end: 1 }],
      }),
      memory(3, {
        subject: 'shared ',
        status: 'superseded',
        superseded_by: memoryId(4),
        citations: [{ path: 'x.ts', line_start: 1, line_end: 1 }],
      }),
      memory(4, {
        subject: 'SHARED',
        expires_at: '2026-05-02T00:00:00.000Z',
        citations: [{ path: 'x.ts', line_start: 1, line_end: 1 }],
      }),
    );
    const repo = 'acme/rocket';
    expect(ids(await backend.recent({ repo, statuses: ['active'] }))).toEqual([4, 1].map(memoryId));
    expect(ids(await backend.recent({ repo, statuses: ['invalid', 'superseded'] }))).toEqual([3, 2].map(memoryId));
    expect(ids(await backend.recent({ repo, statuses: ['superseded', 'active'], limit: 2 }))).toEqual(
      [4, 3].map(memoryId),
    );
    expect(await backend.recent({ repo, statuses: [] })).toEqual([]);
    const liveAt = '2026-05-10T00:00:00.000Z';
    expect(ids(await backend.recent({ repo, statuses: ['active'], liveAt }))).toEqual([memoryId(1)]);
    expect(ids(await backend.byPath({ repo, path: 'x.ts' }))).toEqual([4, 3, 2, 1].map(memoryId));
    expect(ids(await backend.byPath({ repo, path: 'x.ts', statuses: ['active'], liveAt }))).toEqual([memoryId(1)]);
    expect(ids(await backend.bySubject({ repo, subjectKey: 'shared' }))).toEqual([4, 3, 2, 1].map(memoryId));
    expect(ids(await backend.bySubject({ repo, subjectKey: 'shared', statuses: ['active'], limit: 1 }))).toEqual([
      memoryId(4),
    ]);
    expect(ids(await backend.search({ repo, text: 'shared', statuses: ['invalid'] }))).toEqual([memoryId(2)]);
  });

  it('refuses bad query arguments with INVALID_ARGUMENT or INVALID_PATH', async () => {
    await expectRepomemError(() => backend.recent({ repo: '' }), 'INVALID_ARGUMENT', 'repo');
    await expectRepomemError(
      () => backend.recent({ repo: 'a/b', statuses: ['gone' as 'active'] }),
      'INVALID_ARGUMENT',
      'gone',
    );
    await expectRepomemError(() => backend.recent({ repo: 'a/b', liveAt: 'soon' }), 'INVALID_ARGUMENT', 'soon');
    await expectRepomemError(() => backend.recent({ repo: 'a/b', limit: -1 }), 'INVALID_ARGUMENT', 'limit');
    await expectRepomemError(() => backend.events({ repo: 'a/b', limit: 1.5 }), 'INVALID_ARGUMENT', 'limit');
    await expectRepomemError(() => backend.byPath({ repo: 'a/b', path: '../etc/passwd' }), 'INVALID_PATH');
  });
});

describe('full-text search', () => {
  it('matches every word, case-insensitively, in subject, fact, reason or scope; subject ranks first', async () => {
    await seed(
      memory(1, { subject: 'Release checklist', fact: 'Bump the version in package.json.' }),
      memory(2, { subject: 'Versioning', fact: 'The release version lives in one place.' }),
      memory(3, { subject: 'Scoped rule', fact: 'Unrelated.', scope: 'packages/release/' }),
      memory(4, { subject: 'Other', fact: 'Nothing here.', reason: 'Release day breaks otherwise' }),
    );
    const repo = 'acme/rocket';
    expect(new Set(ids(await backend.search({ repo, text: 'RELEASE version' })))).toEqual(
      new Set([1, 2].map(memoryId)),
    );
    expect(new Set(ids(await backend.search({ repo, text: 'release' })))).toEqual(new Set([1, 2, 3, 4].map(memoryId)));
    expect(ids(await backend.search({ repo, text: 'release', limit: 1 }))).toEqual([memoryId(1)]);
    expect(ids(await backend.search({ repo, text: 'release checklist' }))).toEqual([memoryId(1)]);
    expect(await backend.search({ repo, text: 'release missingword' })).toEqual([]);
    expect(await backend.search({ repo, text: '' })).toEqual([]);
    expect(await backend.search({ repo, text: '   ' })).toEqual([]);
  });

  it('searches FTS5 syntax and SQL-significant characters literally and never raises', async () => {
    await seed(
      memory(1, {
        subject: 'NEAR and OR words',
        fact: 'Use "quotes" and a -flag with (parens) and it\'s fine; AND NOT.',
      }),
      memory(2, { subject: 'Deployment', fact: 'deploy* is not a wildcard here' }),
      memory(3, { subject: 'Deployments', fact: 'a plain record' }),
    );
    const repo = 'acme/rocket';
    const nasty = [
      '"',
      '""',
      '*',
      'NEAR',
      'NEAR(a b)',
      '-',
      '-flag',
      'AND',
      'OR',
      'NOT',
      '(',
      ')',
      "'",
      "it's",
      'subject:near',
      '{subject}: x',
      '^near',
      'a + b',
      "'; DROP TABLE memories; --",
      '"unterminated',
      'deploy*',
    ];
    for (const text of nasty) {
      await expect(backend.search({ repo, text }), text).resolves.toBeInstanceOf(Array);
    }
    expect(ids(await backend.search({ repo, text: 'NEAR' }))).toEqual([memoryId(1)]);
    expect(ids(await backend.search({ repo, text: 'or' }))).toEqual([memoryId(1)]);
    expect(ids(await backend.search({ repo, text: '"quotes"' }))).toEqual([memoryId(1)]);
    expect(ids(await backend.search({ repo, text: '-flag' }))).toEqual([memoryId(1)]);
    expect(ids(await backend.search({ repo, text: '(parens)' }))).toEqual([memoryId(1)]);
    expect(ids(await backend.search({ repo, text: 'AND NOT' }))).toEqual([memoryId(1)]);
    expect(ids(await backend.search({ repo, text: 'words:near' }))).toEqual([memoryId(1)]);
    // `*` is not a prefix operator: `deploy*` is the word `deploy`, found only in memory 2.
    expect(ids(await backend.search({ repo, text: 'deploy*' }))).toEqual([memoryId(2)]);
    expect(await backend.search({ repo, text: '*' })).toEqual([]);
    expect(await backend.search({ repo, text: "'; DROP TABLE memories; --" })).toEqual([]);
    expect(await backend.recent({ repo })).toHaveLength(3);
  });

  it('matches words of scripts written without spaces as substrings', async () => {
    await seed(memory(1, { subject: '記憶の同期', fact: 'バージョンを合わせる' }), memory(2, { subject: 'Plain' }));
    expect(ids(await backend.search({ repo: 'acme/rocket', text: '同期' }))).toEqual([memoryId(1)]);
    expect(ids(await backend.search({ repo: 'acme/rocket', text: 'バージョン 記憶' }))).toEqual([memoryId(1)]);
    expect(await backend.search({ repo: 'acme/rocket', text: '同期 plain' })).toEqual([]);
  });
});

describe('repository isolation', () => {
  it('no query of one repository returns or counts another repository’s records or events', async () => {
    const shared = {
      subject: 'Same subject',
      fact: 'Same words everywhere',
      citations: [{ path: 'same.ts', line_start: 1, line_end: 1 }],
    };
    const mine = memory(1, shared);
    const theirs = memory(1, { ...shared, repo: 'other/repo' }); // same id in another repository
    const theirsOnly = memory(2, { ...shared, repo: 'other/repo' });
    await seed(mine, theirs, theirsOnly);
    await backend.appendEvents([event(theirs, 'applied')]);
    const repo = 'acme/rocket';
    expect(await backend.recent({ repo })).toEqual([mine]);
    expect(await backend.byPath({ repo, path: 'same.ts' })).toEqual([mine]);
    expect(await backend.bySubject({ repo, subjectKey: 'same subject' })).toEqual([mine]);
    expect(await backend.search({ repo, text: 'same words' })).toEqual([mine]);
    expect(await backend.get(repo, theirsOnly.id)).toBeUndefined();
    expect(await backend.events({ repo })).toEqual([event(mine)]);
    expect(await backend.events({ repo, memoryId: theirsOnly.id })).toEqual([]);
    const stats = await backend.stats({ repo });
    expect(stats.byStatus).toEqual({ active: 1, invalid: 0, superseded: 0 });
    expect(stats.events.created).toBe(1);
    expect(stats.events.applied).toBe(0);
    expect(await backend.recent({ repo: 'nobody/here' })).toEqual([]);
    // A write in one repository never conflicts with the same id in another.
    expect(await backend.apply([change(mine, { fact: 'Changed here only' })], [])).toEqual({ ok: true });
    expect(await backend.get('other/repo', theirs.id)).toEqual(theirs);
  });
});

describe('events and stats', () => {
  it('events: oldest first, by memory, the last `limit`, details kept', async () => {
    const a = memory(1);
    const b = memory(2);
    await seed(a, b);
    await backend.appendEvents([
      event(a, 'retrieved', '2026-05-01T12:01:00.000Z'),
      event(a, 'applied', '2026-05-01T12:02:00.000Z', { task: 'pr-7', count: 2, nested: { ok: true } }),
    ]);
    await backend.appendEvents([]);
    const repo = 'acme/rocket';
    expect((await backend.events({ repo })).map((e) => [e.memory_id, e.type])).toEqual([
      [a.id, 'created'],
      [b.id, 'created'],
      [a.id, 'retrieved'],
      [a.id, 'applied'],
    ]);
    expect((await backend.events({ repo, memoryId: a.id })).map((e) => e.type)).toEqual([
      'created',
      'retrieved',
      'applied',
    ]);
    expect(await backend.events({ repo, memoryId: a.id, limit: 1 })).toEqual([
      event(a, 'applied', '2026-05-01T12:02:00.000Z', { task: 'pr-7', count: 2, nested: { ok: true } }),
    ]);
    expect((await backend.events({ repo, limit: 2 })).map((e) => e.type)).toEqual(['retrieved', 'applied']);
    expect(await backend.events({ repo, limit: 0 })).toEqual([]);
  });

  it('stats count records by status, expired active records at liveAt, and events by type', async () => {
    await seed(
      memory(1, { expires_at: '2026-05-05T00:00:00.000Z' }),
      memory(2),
      memory(3, { status: 'invalid', invalid_reason: 'file gone', expires_at: '2026-05-05T00:00:00.000Z' }),
      memory(4, { status: 'superseded', superseded_by: memoryId(2) }),
    );
    await backend.appendEvents([event(memory(2), 'verified_valid'), event(memory(3), 'verified_invalid')]);
    expect(await backend.stats({ repo: 'acme/rocket', liveAt: '2026-05-05T00:00:00.000Z' })).toEqual({
      repo: 'acme/rocket',
      byStatus: { active: 2, invalid: 1, superseded: 1 },
      expired: 1,
      events: {
        created: 4,
        retrieved: 0,
        verified_valid: 1,
        verified_invalid: 1,
        corrected: 0,
        refreshed: 0,
        superseded: 0,
        applied: 0,
      },
    });
    expect((await backend.stats({ repo: 'acme/rocket' })).expired).toBe(0);
    expect((await backend.stats({ repo: 'empty/repo' })).byStatus).toEqual({ active: 0, invalid: 0, superseded: 0 });
  });
});

describe('rows are validated on the way out', () => {
  it('a corrupt record row is INVALID_DOCUMENT naming the memory and the file', async () => {
    await seed(memory(1), memory(2));
    await backend.close();
    withWritableConnection(file, (db) => {
      db.prepare("UPDATE memories SET fact = '' WHERE id = ?").run(memoryId(1));
      db.prepare("UPDATE memories SET citations = '{not json' WHERE id = ?").run(memoryId(2));
    });
    backend = openSqliteRecordBackend({ path: file });
    await expectRepomemError(
      () => backend.get('acme/rocket', memoryId(1)),
      'INVALID_DOCUMENT',
      memoryId(1),
      file,
      'fact is empty',
    );
    await expectRepomemError(
      () => backend.get('acme/rocket', memoryId(2)),
      'INVALID_DOCUMENT',
      memoryId(2),
      'not JSON',
    );
    await expectRepomemError(() => backend.recent({ repo: 'acme/rocket' }), 'INVALID_DOCUMENT', 'acme/rocket');
  });

  it('a corrupt event row is INVALID_DOCUMENT naming the file', async () => {
    await seed(memory(1));
    await backend.close();
    withWritableConnection(file, (db) => db.exec("UPDATE memory_events SET type = 'exploded'"));
    backend = openSqliteRecordBackend({ path: file });
    await expectRepomemError(
      () => backend.events({ repo: 'acme/rocket' }),
      'INVALID_DOCUMENT',
      file,
      'telemetry event',
    );
  });
});

describe('lifecycle and sharing', () => {
  it('shares one file with the documents store and with other connections', async () => {
    const store = await openSqliteStore({ path: file, repo: 'acme/rocket' });
    await store.write([{ kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode('- release often\n') }]);
    await seed(memory(1, { fact: 'release often' }));
    const second = openSqliteRecordBackend({ path: file });
    expect(ids(await second.search({ repo: 'acme/rocket', text: 'release' }))).toEqual([memoryId(1)]);
    expect((await searchStore(store, 'release')).results.map((hit) => hit.path)).toEqual(['MEMORY.md']);
    await second.close();
    await store.close();
  });

  it('after close every call is STORE_CLOSED and close is idempotent', async () => {
    await backend.close();
    await backend.close();
    await expectRepomemError(() => backend.recent({ repo: 'acme/rocket' }), 'STORE_CLOSED');
    await expectRepomemError(() => backend.apply([], []), 'STORE_CLOSED');
    backend = openSqliteRecordBackend({ path: file });
  });

  it('rejects bad options with INVALID_ARGUMENT', () => {
    expect(() => openSqliteRecordBackend({ path: '' })).toThrow(/path must be a non-empty/);
    expect(() => openSqliteRecordBackend({ path: file, busyTimeoutMs: 0 })).toThrow(/busyTimeoutMs/);
  });

  it('works on a private in-memory database', async () => {
    const inMemory = openSqliteRecordBackend({ path: ':memory:' });
    expect(await inMemory.apply([create(memory(1))], [event(memory(1))])).toEqual({ ok: true });
    expect(ids(await inMemory.recent({ repo: 'acme/rocket' }))).toEqual([memoryId(1)]);
    await inMemory.close();
  });
});
