// Why: the write guarantees verified memory relies on: compare-and-swap on `revision`, batches
// that land whole or not at all (records and their telemetry together), validation before any
// write, concurrent writers that never both win, ordered telemetry, and close().
import type { VerifiedMemoryBackend } from '../verified/backend.js';
import {
  CONFORMANCE_OTHER_REPO,
  CONFORMANCE_REPO,
  conformanceEvent,
  conformanceId,
  conformanceRecord,
  conformanceTime,
} from './record-backend-conformance-fixtures.js';
import type { RecordBackendHarness } from './record-backend-conformance-types.js';

const repo = CONFORMANCE_REPO;

/** Register the apply, events and close groups. */
export function registerRecordWriteGroups<B extends VerifiedMemoryBackend>(h: RecordBackendHarness<B>): void {
  const { describe, expect } = h.options.runner;
  const create = async (...records: ReturnType<typeof conformanceRecord>[]): Promise<void> => {
    const result = await h.backend().apply(
      records.map((record) => ({ record, expectedRevision: null })),
      [],
    );
    expect(result).toEqual({ ok: true });
  };

  describe('shape', () => {
    h.test('has a name and starts empty', async () => {
      const backend = h.backend();
      expect(typeof backend.name).toBe('string');
      expect(backend.name.length).toBeGreaterThan(0);
      expect(await backend.recent({ repo })).toEqual([]);
      expect(await backend.events({ repo })).toEqual([]);
      expect(await backend.get(repo, conformanceId(1))).toBeUndefined();
    });
  });

  describe('apply', () => {
    h.test('creates a record (expectedRevision null) that get returns unchanged', async () => {
      const record = conformanceRecord({ reason: 'Prevents integration breakages.', created_by: 'coding-agent' });
      await create(record);
      expect(await h.backend().get(repo, record.id)).toEqual(record);
    });

    h.test('round-trips every field (scope, chain, invalid reason, sha and snippet hash)', async () => {
      const record = conformanceRecord({
        scope: 'src/legacy/',
        status: 'superseded',
        superseded_by: conformanceId(9),
        supersedes: conformanceId(8),
        invalid_reason: 'lines moved',
        verification_count: 7,
        revision: 4,
        citations: [
          {
            path: 'src/a.ts',
            line_start: 3,
            line_end: 9,
            sha: 'abcdef1234567',
            snippet_hash: `sha256:${'a'.repeat(64)}`,
          },
          { path: 'docs/api.md', line_start: 1, line_end: 1 },
        ],
      });
      await create(record);
      expect(await h.backend().get(repo, record.id)).toEqual(record);
    });

    h.test('updates a record whose revision matches', async () => {
      const record = conformanceRecord();
      await create(record);
      const next = { ...record, fact: 'Changed fact.', verification_count: 1, revision: 2 };
      expect(await h.backend().apply([{ record: next, expectedRevision: 1 }], [])).toEqual({ ok: true });
      expect(await h.backend().get(repo, record.id)).toEqual(next);
    });

    h.test('a stale revision is a conflict and changes nothing', async () => {
      const record = conformanceRecord({ revision: 3 });
      await create(record);
      const result = await h
        .backend()
        .apply([{ record: { ...record, fact: 'Lost update.', revision: 3 }, expectedRevision: 2 }], []);
      expect(result).toEqual({ ok: false, conflicts: [{ id: record.id, expectedRevision: 2, actualRevision: 3 }] });
      expect(await h.backend().get(repo, record.id)).toEqual(record);
    });

    h.test('creating an existing record is a conflict; updating an absent one too', async () => {
      const record = conformanceRecord();
      await create(record);
      const again = await h.backend().apply([{ record: { ...record, fact: 'Other.' }, expectedRevision: null }], []);
      expect(again).toEqual({ ok: false, conflicts: [{ id: record.id, expectedRevision: null, actualRevision: 1 }] });
      const absent = conformanceRecord({ id: conformanceId(2), revision: 2 });
      const update = await h.backend().apply([{ record: absent, expectedRevision: 1 }], []);
      expect(update).toEqual({ ok: false, conflicts: [{ id: absent.id, expectedRevision: 1, actualRevision: null }] });
      expect(await h.backend().get(repo, absent.id)).toBeUndefined();
      expect(await h.backend().get(repo, record.id)).toEqual(record);
    });

    h.test('a batch with one conflict writes no record and no event', async () => {
      const existing = conformanceRecord();
      await create(existing);
      const fresh = conformanceRecord({ id: conformanceId(2), subject: 'Fresh' });
      const result = await h.backend().apply(
        [
          { record: fresh, expectedRevision: null },
          { record: { ...existing, status: 'superseded', superseded_by: fresh.id, revision: 2 }, expectedRevision: 5 },
        ],
        [conformanceEvent('created', fresh.id, 1), conformanceEvent('superseded', existing.id, 1)],
      );
      expect(result.ok).toBe(false);
      expect(await h.backend().get(repo, fresh.id)).toBeUndefined();
      expect(await h.backend().get(repo, existing.id)).toEqual(existing);
      expect(await h.backend().events({ repo })).toEqual([]);
    });

    h.test('a batch of several records and events lands whole', async () => {
      const old = conformanceRecord();
      await create(old);
      const fresh = conformanceRecord({ id: conformanceId(2), supersedes: old.id, created_at: conformanceTime(5) });
      const events = [conformanceEvent('created', fresh.id, 5), conformanceEvent('superseded', old.id, 5)];
      const result = await h.backend().apply(
        [
          { record: fresh, expectedRevision: null },
          { record: { ...old, status: 'superseded', superseded_by: fresh.id, revision: 2 }, expectedRevision: 1 },
        ],
        events,
      );
      expect(result).toEqual({ ok: true });
      expect((await h.backend().get(repo, old.id))?.status).toBe('superseded');
      expect(await h.backend().get(repo, fresh.id)).toEqual(fresh);
      expect(await h.backend().events({ repo })).toEqual(events);
    });

    h.test('of two concurrent updates from the same revision exactly one lands', async () => {
      const record = conformanceRecord();
      await create(record);
      const results = await Promise.all(
        ['First.', 'Second.'].map((fact) =>
          h.backend().apply([{ record: { ...record, fact, revision: 2 }, expectedRevision: 1 }], []),
        ),
      );
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      const stored = await h.backend().get(repo, record.id);
      expect(stored?.revision).toBe(2);
      expect(['First.', 'Second.']).toContain(stored?.fact);
    });

    h.test('of two concurrent creations of the same id exactly one lands', async () => {
      const results = await Promise.all(
        ['First.', 'Second.'].map((fact) =>
          h.backend().apply([{ record: conformanceRecord({ fact }), expectedRevision: null }], []),
        ),
      );
      expect(results.filter((result) => result.ok)).toHaveLength(1);
    });

    h.test('concurrent creations of different records all land', async () => {
      const ids = [1, 2, 3, 4, 5, 6].map(conformanceId);
      const results = await Promise.all(
        ids.map((id, index) =>
          h
            .backend()
            .apply(
              [{ record: conformanceRecord({ id }), expectedRevision: null }],
              [conformanceEvent('created', id, index)],
            ),
        ),
      );
      expect(results.every((result) => result.ok)).toBe(true);
      expect(await h.backend().recent({ repo })).toHaveLength(ids.length);
      expect(await h.backend().events({ repo })).toHaveLength(ids.length);
    });

    h.test('refuses a record that fails the schema (no citations, bad repo) and writes nothing', async () => {
      await h.expectError(
        () => h.backend().apply([{ record: conformanceRecord({ citations: [] }), expectedRevision: null }], []),
        'INVALID_ARGUMENT',
      );
      await h.expectError(
        () => h.backend().apply([{ record: conformanceRecord({ repo: 'not a slug' }), expectedRevision: null }], []),
        'INVALID_ARGUMENT',
      );
      expect(await h.backend().recent({ repo })).toEqual([]);
    });
  });

  describe('events', () => {
    h.test('are returned oldest first, filtered by memory and limited to the last ones', async () => {
      const a = conformanceId(1);
      const b = conformanceId(2);
      const events = [
        conformanceEvent('created', a, 1),
        conformanceEvent('retrieved', a, 2),
        conformanceEvent('created', b, 3, { details: { supersedes: a, count: 2 } }),
        conformanceEvent('applied', a, 4, { details: { task: 'PR #12' } }),
      ];
      for (const event of events) await h.backend().appendEvents([event]);
      expect(await h.backend().events({ repo })).toEqual(events);
      expect(await h.backend().events({ repo, memoryId: a })).toEqual([events[0], events[1], events[3]]);
      expect(await h.backend().events({ repo, limit: 2 })).toEqual([events[2], events[3]]);
      expect(await h.backend().events({ repo, memoryId: a, limit: 1 })).toEqual([events[3]]);
    });

    h.test('of several days come back in order', async () => {
      const id = conformanceId(1);
      const events = [
        conformanceEvent('created', id, 0),
        conformanceEvent('retrieved', id, 60 * 24 * 3),
        conformanceEvent('applied', id, 60 * 24 * 40),
      ];
      await h.backend().appendEvents(events);
      expect(await h.backend().events({ repo })).toEqual(events);
    });

    h.test('stay in their repository', async () => {
      const id = conformanceId(1);
      await h
        .backend()
        .appendEvents([
          conformanceEvent('created', id, 1),
          conformanceEvent('created', id, 2, { repo: CONFORMANCE_OTHER_REPO }),
        ]);
      expect(await h.backend().events({ repo })).toHaveLength(1);
      expect((await h.backend().events({ repo: CONFORMANCE_OTHER_REPO }))[0]?.repo).toBe(CONFORMANCE_OTHER_REPO);
    });

    h.test('concurrent appends all land', async () => {
      const id = conformanceId(1);
      await Promise.all(
        [1, 2, 3, 4, 5, 6, 7, 8].map((minute) => h.backend().appendEvents([conformanceEvent('retrieved', id, minute)])),
      );
      expect(await h.backend().events({ repo })).toHaveLength(8);
    });
  });

  describe('stats', () => {
    h.test('count records by status, expired active records and events by type', async () => {
      await create(
        conformanceRecord({ id: conformanceId(1) }),
        conformanceRecord({ id: conformanceId(2), expires_at: conformanceTime(10) }),
        conformanceRecord({ id: conformanceId(3), status: 'invalid', invalid_reason: 'gone' }),
        conformanceRecord({ id: conformanceId(4), status: 'superseded', superseded_by: conformanceId(1) }),
        conformanceRecord({ id: conformanceId(5), repo: CONFORMANCE_OTHER_REPO }),
      );
      await h
        .backend()
        .appendEvents([
          conformanceEvent('created', conformanceId(1), 1),
          conformanceEvent('verified_valid', conformanceId(1), 2),
          conformanceEvent('verified_valid', conformanceId(1), 3),
          conformanceEvent('created', conformanceId(5), 3, { repo: CONFORMANCE_OTHER_REPO }),
        ]);
      const stats = await h.backend().stats({ repo, liveAt: conformanceTime(10) });
      expect(stats).toEqual({
        repo,
        byStatus: { active: 2, invalid: 1, superseded: 1 },
        expired: 1,
        events: {
          created: 1,
          retrieved: 0,
          verified_valid: 2,
          verified_invalid: 0,
          corrected: 0,
          refreshed: 0,
          superseded: 0,
          applied: 0,
        },
      });
      expect((await h.backend().stats({ repo })).expired).toBe(0);
    });
  });

  describe('close', () => {
    h.test('is idempotent and later calls reject with STORE_CLOSED', async () => {
      const backend = h.backend();
      await backend.close();
      await backend.close();
      await h.expectError(() => backend.recent({ repo }), 'STORE_CLOSED');
      await h.expectError(
        () => backend.apply([{ record: conformanceRecord(), expectedRevision: null }], []),
        'STORE_CLOSED',
      );
    });
  });
}
