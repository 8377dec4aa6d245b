// Why: the read side of the record contract: newest-first order with status, expiry and limit
// filters, lookups by cited path and by subject key, literal full-text search (FTS syntax is
// text), and strict repository isolation of every query.
import type { VerifiedMemoryBackend } from '../verified/backend.js';
import { subjectKey, type VerifiedMemory } from '../verified/record.js';
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
const ids = (records: readonly VerifiedMemory[]): string[] => records.map((record) => record.id);
const sortedIds = (records: readonly VerifiedMemory[]): string[] => ids(records).sort();

/** Register the recent, byPath, bySubject, search and isolation groups. */
export function registerRecordQueryGroups<B extends VerifiedMemoryBackend>(h: RecordBackendHarness<B>): void {
  const { describe, expect } = h.options.runner;
  const create = async (...records: VerifiedMemory[]): Promise<void> => {
    const result = await h.backend().apply(
      records.map((record) => ({ record, expectedRevision: null })),
      [],
    );
    expect(result).toEqual({ ok: true });
  };

  describe('recent', () => {
    h.test('orders by refreshed_at, then created_at, then id, newest first', async () => {
      await create(
        conformanceRecord({ id: conformanceId(1), created_at: conformanceTime(0), refreshed_at: conformanceTime(50) }),
        conformanceRecord({ id: conformanceId(2), created_at: conformanceTime(10), refreshed_at: conformanceTime(10) }),
        conformanceRecord({ id: conformanceId(3), created_at: conformanceTime(20), refreshed_at: conformanceTime(20) }),
        conformanceRecord({ id: conformanceId(4), created_at: conformanceTime(5), refreshed_at: conformanceTime(20) }),
        conformanceRecord({ id: conformanceId(5), created_at: conformanceTime(20), refreshed_at: conformanceTime(20) }),
      );
      expect(ids(await h.backend().recent({ repo }))).toEqual([1, 5, 3, 4, 2].map(conformanceId));
      expect(ids(await h.backend().recent({ repo, limit: 2 }))).toEqual([1, 5].map(conformanceId));
      expect(await h.backend().recent({ repo, limit: 0 })).toEqual([]);
    });

    h.test('filters by status and by liveAt (expires_at at or before it is excluded)', async () => {
      await create(
        conformanceRecord({ id: conformanceId(1), expires_at: conformanceTime(100) }),
        conformanceRecord({ id: conformanceId(2), expires_at: conformanceTime(101) }),
        conformanceRecord({ id: conformanceId(3), status: 'invalid', invalid_reason: 'gone' }),
        conformanceRecord({ id: conformanceId(4), status: 'superseded', superseded_by: conformanceId(1) }),
      );
      expect(sortedIds(await h.backend().recent({ repo, statuses: ['active'] }))).toEqual([1, 2].map(conformanceId));
      expect(sortedIds(await h.backend().recent({ repo, statuses: ['invalid', 'superseded'] }))).toEqual(
        [3, 4].map(conformanceId),
      );
      expect(ids(await h.backend().recent({ repo, statuses: ['active'], liveAt: conformanceTime(100) }))).toEqual([
        conformanceId(2),
      ]);
      expect(await h.backend().recent({ repo, statuses: [] })).toEqual([]);
      expect(await h.backend().recent({ repo })).toHaveLength(4);
    });
  });

  describe('byPath', () => {
    h.test('finds records citing exactly that path (normalised), newest first', async () => {
      await create(
        conformanceRecord({
          id: conformanceId(1),
          citations: [
            { path: 'docs/api.md', line_start: 1, line_end: 2 },
            { path: 'src/a.ts', line_start: 3, line_end: 4 },
          ],
        }),
        conformanceRecord({
          id: conformanceId(2),
          refreshed_at: conformanceTime(5),
          citations: [{ path: 'src/a.ts', line_start: 1, line_end: 1 }],
        }),
        conformanceRecord({ id: conformanceId(3), citations: [{ path: 'src/a.tsx', line_start: 1, line_end: 1 }] }),
        conformanceRecord({ id: conformanceId(4), citations: [{ path: 'src/a', line_start: 1, line_end: 1 }] }),
      );
      expect(ids(await h.backend().byPath({ repo, path: 'src/a.ts' }))).toEqual([2, 1].map(conformanceId));
      expect(ids(await h.backend().byPath({ repo, path: './src//a.ts' }))).toEqual([2, 1].map(conformanceId));
      expect(ids(await h.backend().byPath({ repo, path: 'src/a.ts', limit: 1 }))).toEqual([conformanceId(2)]);
      expect(await h.backend().byPath({ repo, path: 'src/b.ts' })).toEqual([]);
      expect(await h.backend().byPath({ repo, path: 'src/a.ts', statuses: ['invalid'] })).toEqual([]);
    });
  });

  describe('bySubject', () => {
    h.test('matches the subject key (case and whitespace insensitive)', async () => {
      await create(
        conformanceRecord({ id: conformanceId(1), subject: 'Test framework' }),
        conformanceRecord({ id: conformanceId(2), subject: '  test   FRAMEWORK ', refreshed_at: conformanceTime(3) }),
        conformanceRecord({ id: conformanceId(3), subject: 'Test frameworks' }),
      );
      const found = await h.backend().bySubject({ repo, subjectKey: subjectKey('TEST framework') });
      expect(ids(found)).toEqual([2, 1].map(conformanceId));
      expect(await h.backend().bySubject({ repo, subjectKey: 'test' })).toEqual([]);
    });
  });

  describe('search', () => {
    const corpus = (): VerifiedMemory[] => [
      conformanceRecord({
        id: conformanceId(1),
        subject: 'Test framework',
        fact: 'The team migrated from Jest to Vitest for testing.',
      }),
      conformanceRecord({
        id: conformanceId(2),
        subject: 'Quoted "config" keys',
        fact: "Globs like src/*.ts are NEAR the top; use AND or OR (never both) - it's required.",
      }),
      conformanceRecord({
        id: conformanceId(3),
        subject: 'State management',
        fact: 'Use React Context.',
        reason: 'Redux was removed in v2',
        scope: 'src/v2/',
      }),
    ];

    h.test('requires every query word, case-insensitively, across subject, fact, reason and scope', async () => {
      await create(...corpus());
      expect(ids(await h.backend().search({ repo, text: 'vitest' }))).toEqual([conformanceId(1)]);
      expect(ids(await h.backend().search({ repo, text: 'JEST Vitest' }))).toEqual([conformanceId(1)]);
      expect(await h.backend().search({ repo, text: 'jest redux' })).toEqual([]);
      expect(ids(await h.backend().search({ repo, text: 'redux' }))).toEqual([conformanceId(3)]);
      expect(ids(await h.backend().search({ repo, text: 'v2' }))).toEqual([conformanceId(3)]);
      expect(await h.backend().search({ repo, text: 'vite' })).toEqual([]);
    });

    h.test('treats FTS syntax as literal text and never throws', async () => {
      await create(...corpus());
      const only2 = [conformanceId(2)];
      expect(ids(await h.backend().search({ repo, text: '"config"' }))).toEqual(only2);
      expect(ids(await h.backend().search({ repo, text: 'NEAR' }))).toEqual(only2);
      expect(ids(await h.backend().search({ repo, text: 'AND' }))).toEqual(only2);
      expect(ids(await h.backend().search({ repo, text: 'OR' }))).toEqual(only2);
      expect(ids(await h.backend().search({ repo, text: 'src/*.ts' }))).toEqual(only2);
      expect(ids(await h.backend().search({ repo, text: '(never both)' }))).toEqual(only2);
      expect(ids(await h.backend().search({ repo, text: "it's required" }))).toEqual(only2);
      expect(ids(await h.backend().search({ repo, text: 'never -both' }))).toEqual(only2);
      expect(ids(await h.backend().search({ repo, text: 'NEAR(config keys)' }))).toEqual(only2);
      expect(await h.backend().search({ repo, text: 'vitest NOT jest' })).toEqual([]);
      for (const text of ['"', '*', '-', '(', ')', "'", 'AND OR NOT', '"unterminated', 'a*', '^', ':', '']) {
        const found = await h.backend().search({ repo, text });
        expect(Array.isArray(found), `search(${JSON.stringify(text)}) returns an array`).toBe(true);
      }
    });

    h.test('applies status, liveAt and limit', async () => {
      await create(
        conformanceRecord({ id: conformanceId(1), fact: 'Run vitest in CI.' }),
        conformanceRecord({ id: conformanceId(2), fact: 'Vitest workspaces.', expires_at: conformanceTime(1) }),
        conformanceRecord({
          id: conformanceId(3),
          fact: 'Vitest globals.',
          status: 'invalid',
          invalid_reason: 'changed',
        }),
      );
      expect(sortedIds(await h.backend().search({ repo, text: 'vitest' }))).toEqual([1, 2, 3].map(conformanceId));
      const live = await h.backend().search({ repo, text: 'vitest', statuses: ['active'], liveAt: conformanceTime(1) });
      expect(ids(live)).toEqual([conformanceId(1)]);
      expect(await h.backend().search({ repo, text: 'vitest', limit: 2 })).toHaveLength(2);
    });
  });

  describe('repository isolation', () => {
    h.test('no query returns another repository’s records, even with the same ids, paths and subjects', async () => {
      const mine = conformanceRecord({ fact: 'Mine uses vitest.' });
      const theirs = conformanceRecord({ repo: CONFORMANCE_OTHER_REPO, fact: 'Theirs uses vitest.' });
      const thirdRepo = conformanceRecord({ repo: 'acme-x/app', fact: 'Third uses vitest.' });
      await create(mine, theirs, thirdRepo);
      await h
        .backend()
        .appendEvents([
          conformanceEvent('created', mine.id, 1),
          conformanceEvent('created', mine.id, 1, { repo: CONFORMANCE_OTHER_REPO }),
        ]);
      const backend = h.backend();
      const path = mine.citations[0]?.path ?? '';
      expect(await backend.get(repo, mine.id)).toEqual(mine);
      expect(await backend.get(CONFORMANCE_OTHER_REPO, mine.id)).toEqual(theirs);
      expect(await backend.get('acme/other', mine.id)).toBeUndefined();
      expect(await backend.recent({ repo })).toEqual([mine]);
      expect(await backend.byPath({ repo, path })).toEqual([mine]);
      expect(await backend.bySubject({ repo, subjectKey: subjectKey(mine.subject) })).toEqual([mine]);
      expect(await backend.search({ repo, text: 'vitest' })).toEqual([mine]);
      expect(await backend.recent({ repo: CONFORMANCE_OTHER_REPO })).toEqual([theirs]);
      expect(await backend.search({ repo: CONFORMANCE_OTHER_REPO, text: 'vitest' })).toEqual([theirs]);
      expect((await backend.events({ repo })).map((event) => event.repo)).toEqual([repo]);
      expect((await backend.stats({ repo })).byStatus.active).toBe(1);
      expect(await backend.recent({ repo: 'acme/other' })).toEqual([]);
    });

    h.test('updating a record in one repository leaves the look-alike in another untouched', async () => {
      const mine = conformanceRecord();
      const theirs = conformanceRecord({ repo: CONFORMANCE_OTHER_REPO });
      await create(mine, theirs);
      const result = await h
        .backend()
        .apply(
          [{ record: { ...mine, status: 'invalid', invalid_reason: 'gone', revision: 2 }, expectedRevision: 1 }],
          [],
        );
      expect(result).toEqual({ ok: true });
      expect(await h.backend().get(CONFORMANCE_OTHER_REPO, theirs.id)).toEqual(theirs);
    });
  });
}
