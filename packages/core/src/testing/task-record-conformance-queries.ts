// Why: the read side of the task-record contract: newest-first lists with id prefixes and
// limits, plain-word search (query syntax is text, best match first, `all` and `any`), and
// strict isolation between repositories and between kinds.
import type { TaskRecord, TaskRecordBackend } from '../tasks/record-backend.js';
import {
  TASK_CONFORMANCE_OTHER_REPOS,
  TASK_CONFORMANCE_REPO,
  taskConformanceRecord,
  taskConformanceTime,
} from './task-record-conformance-fixtures.js';
import type { TaskRecordBackendHarness } from './task-record-conformance-types.js';

const repo = TASK_CONFORMANCE_REPO;
const ids = (records: readonly TaskRecord[]): string[] => records.map((record) => record.id);

/** Register the list, search and isolation groups. */
export function registerTaskRecordQueryGroups<B extends TaskRecordBackend>(h: TaskRecordBackendHarness<B>): void {
  const { describe, expect } = h.options.runner;
  const create = async (...records: TaskRecord[]): Promise<void> => {
    const result = await h.backend().apply(records.map((record) => ({ record, expectedRevision: null })));
    expect(result).toEqual({ ok: true });
  };

  describe('list', () => {
    h.test('orders by updated_at, then id, newest first, and applies limit', async () => {
      await create(
        taskConformanceRecord({ id: 'a', updated_at: taskConformanceTime(10) }),
        taskConformanceRecord({ id: 'b', updated_at: taskConformanceTime(30) }),
        taskConformanceRecord({ id: 'c', updated_at: taskConformanceTime(20) }),
        taskConformanceRecord({ id: 'd', updated_at: taskConformanceTime(20) }),
        taskConformanceRecord({ id: 'e', updated_at: '2026-01-01T00:05:00.000+00:00' }),
      );
      expect(ids(await h.backend().list({ repo, kind: 'knowledge' }))).toEqual(['b', 'd', 'c', 'a', 'e']);
      expect(ids(await h.backend().list({ repo, kind: 'knowledge', limit: 2 }))).toEqual(['b', 'd']);
      expect(await h.backend().list({ repo, kind: 'knowledge', limit: 0 })).toEqual([]);
    });

    h.test('an update moves a record to the front', async () => {
      const older = taskConformanceRecord({ id: 'older', updated_at: taskConformanceTime(1) });
      await create(older, taskConformanceRecord({ id: 'newer', updated_at: taskConformanceTime(2) }));
      const touched = { ...older, revision: 2, updated_at: taskConformanceTime(3) };
      expect(await h.backend().apply([{ record: touched, expectedRevision: 1 }])).toEqual({ ok: true });
      expect(ids(await h.backend().list({ repo, kind: 'knowledge' }))).toEqual(['older', 'newer']);
    });

    h.test('idPrefix compares characters (not path segments), case-sensitively', async () => {
      await create(
        ...[
          'pr-4/a',
          'pr-4/b',
          'pr-42/a',
          'pr-5/a',
          'PR-4/a',
          'users/alice',
          'users/alice/pr-size',
          'users/alicia',
        ].map((id, index) => taskConformanceRecord({ id, updated_at: taskConformanceTime(index) })),
      );
      const listed = async (idPrefix: string, limit?: number): Promise<string[]> =>
        ids(await h.backend().list({ repo, kind: 'knowledge', idPrefix, ...(limit === undefined ? {} : { limit }) }));
      expect(await listed('pr-4/')).toEqual(['pr-4/b', 'pr-4/a']);
      expect(await listed('pr-4')).toEqual(['pr-42/a', 'pr-4/b', 'pr-4/a']);
      expect(await listed('pr-4', 1)).toEqual(['pr-42/a']);
      expect(await listed('users/alice/')).toEqual(['users/alice/pr-size']);
      expect(await listed('users/alic')).toEqual(['users/alicia', 'users/alice/pr-size', 'users/alice']);
      expect(await listed('PR')).toEqual(['PR-4/a']);
      expect(await listed('nothing')).toEqual([]);
      expect(await listed('')).toHaveLength(8);
    });

    h.test('refuses a bad limit or idPrefix', async () => {
      for (const limit of [-1, 1.5, Number.NaN]) {
        await h.expectError(() => h.backend().list({ repo, kind: 'knowledge', limit }), 'INVALID_ARGUMENT');
      }
      for (const idPrefix of ['a b', '%', 'é', '*']) {
        await h.expectError(() => h.backend().list({ repo, kind: 'knowledge', idPrefix }), 'INVALID_ARGUMENT');
      }
    });
  });

  describe('search', () => {
    const corpus = (): TaskRecord[] => [
      taskConformanceRecord({ id: 'jest', text: 'Test framework: the team migrated from Jest to Vitest.' }),
      taskConformanceRecord({
        id: 'syntax',
        updated_at: taskConformanceTime(1),
        text: 'Quoted "config" keys: globs like src/*.ts are NEAR the top; use AND or OR (never both) - it\'s required.',
      }),
      taskConformanceRecord({
        id: 'state',
        updated_at: taskConformanceTime(2),
        text: 'State management in src/v2/: use React Context, Redux was removed.',
      }),
    ];

    h.test('requires every word, case-insensitively, whole words only', async () => {
      await create(...corpus());
      const found = async (text: string): Promise<string[]> =>
        ids(await h.backend().search({ repo, kind: 'knowledge', text }));
      expect(await found('vitest')).toEqual(['jest']);
      expect(await found('JEST Vitest')).toEqual(['jest']);
      expect(await found('jest redux')).toEqual([]);
      expect(await found('redux')).toEqual(['state']);
      expect(await found('v2')).toEqual(['state']);
      expect(await found('vite')).toEqual([]);
    });

    h.test('treats query syntax as plain text and never throws', async () => {
      await create(...corpus());
      const found = async (text: string): Promise<string[]> =>
        ids(await h.backend().search({ repo, kind: 'knowledge', text }));
      for (const text of [
        '"config"',
        'NEAR',
        'AND',
        'OR',
        'src/*.ts',
        '(never both)',
        "it's required",
        'never -both',
        'NEAR(config keys)',
        'config:keys',
        '{globs}',
      ]) {
        expect(await found(text), `search ${JSON.stringify(text)}`).toEqual(['syntax']);
      }
      expect(await found('vitest NOT jest')).toEqual([]);
      for (const text of [
        '"',
        '*',
        '-',
        '(',
        ')',
        "'",
        '"unterminated',
        'a*',
        '^',
        ':',
        '',
        '   ',
        '%',
        '_',
        '\\',
        '$1',
        '[a]',
      ]) {
        const result = await h.backend().search({ repo, kind: 'knowledge', text });
        expect(Array.isArray(result), `search(${JSON.stringify(text)}) returns an array`).toBe(true);
      }
      expect(await found('"')).toEqual([]);
      expect(await found('')).toEqual([]);
    });

    h.test('match "any" keeps records with at least one word, more words found first', async () => {
      await create(...corpus());
      const any = async (text: string, limit?: number): Promise<string[]> =>
        ids(
          await h
            .backend()
            .search({ repo, kind: 'knowledge', text, match: 'any', ...(limit === undefined ? {} : { limit }) }),
        );
      expect(await any('redux vitest')).toEqual(['state', 'jest']);
      expect(await any('redux context vitest')).toEqual(['state', 'jest']);
      expect(await any('jest vitest redux')).toEqual(['jest', 'state']);
      expect(await any('redux context vitest', 1)).toEqual(['state']);
      expect(await any('nothing here')).toEqual([]);
    });

    h.test('ranks by distinct words found, then occurrences, then newest first', async () => {
      await create(
        taskConformanceRecord({ id: 'once-old', updated_at: taskConformanceTime(1), text: 'flaky test in CI' }),
        taskConformanceRecord({ id: 'once-new', updated_at: taskConformanceTime(2), text: 'a flaky build' }),
        taskConformanceRecord({ id: 'twice', updated_at: taskConformanceTime(0), text: 'flaky, flaky everywhere' }),
        taskConformanceRecord({ id: 'both', updated_at: taskConformanceTime(0), text: 'flaky CI runner' }),
      );
      expect(ids(await h.backend().search({ repo, kind: 'knowledge', text: 'flaky' }))).toEqual([
        'twice',
        'once-new',
        'once-old',
        'both',
      ]);
      expect(ids(await h.backend().search({ repo, kind: 'knowledge', text: 'flaky ci', match: 'any' }))).toEqual([
        'once-old',
        'both',
        'twice',
        'once-new',
      ]);
      expect(ids(await h.backend().search({ repo, kind: 'knowledge', text: 'flaky', limit: 2 }))).toEqual([
        'twice',
        'once-new',
      ]);
    });

    h.test('applies idPrefix and refuses over-long queries and a bad match', async () => {
      await create(
        taskConformanceRecord({ id: 'users/alice/a', text: 'small pull requests' }),
        taskConformanceRecord({ id: 'users/bob/a', text: 'small pull requests' }),
      );
      expect(ids(await h.backend().search({ repo, kind: 'knowledge', text: 'small', idPrefix: 'users/bob/' }))).toEqual(
        ['users/bob/a'],
      );
      await h.expectError(
        () => h.backend().search({ repo, kind: 'knowledge', text: 'x'.repeat(1025) }),
        'INVALID_ARGUMENT',
      );
      expect(await h.backend().search({ repo, kind: 'knowledge', text: 'small', limit: 0 })).toEqual([]);
      expect(await h.backend().search({ repo, kind: 'knowledge', text: 'small', match: 'any', limit: 0 })).toEqual([]);
      const manyWords = Array.from({ length: 65 }, (_, index) => `word${index}`).join(' ');
      await h.expectError(() => h.backend().search({ repo, kind: 'knowledge', text: manyWords }), 'INVALID_ARGUMENT');
      await h.expectError(
        () => h.backend().search({ repo, kind: 'knowledge', text: 'small', match: 'some' as 'any' }),
        'INVALID_ARGUMENT',
      );
    });
  });

  describe('isolation', () => {
    h.test('no query returns another repository’s records, even with the same kinds, ids and words', async () => {
      const mine = taskConformanceRecord({ text: 'Mine uses vitest.' });
      const others = TASK_CONFORMANCE_OTHER_REPOS.map((other) =>
        taskConformanceRecord({ repo: other, text: `Theirs (${other}) uses vitest.` }),
      );
      await create(mine, ...others);
      const backend = h.backend();
      expect(await backend.get(repo, 'knowledge', mine.id)).toEqual(mine);
      expect(await backend.list({ repo, kind: 'knowledge' })).toEqual([mine]);
      expect(await backend.search({ repo, kind: 'knowledge', text: 'vitest' })).toEqual([mine]);
      expect(await backend.search({ repo, kind: 'knowledge', text: 'vitest theirs', match: 'any' })).toEqual([mine]);
      for (const other of others) {
        expect(await backend.get(other.repo, 'knowledge', mine.id)).toEqual(other);
        expect(await backend.list({ repo: other.repo, kind: 'knowledge' })).toEqual([other]);
      }
      expect(await backend.get('acme/other', 'knowledge', mine.id)).toBeUndefined();
      expect(await backend.list({ repo: 'acme/other', kind: 'knowledge' })).toEqual([]);
      expect(await backend.delete('acme/other', 'knowledge', mine.id)).toBe(false);
      expect(await backend.delete(others[0]?.repo ?? '', 'knowledge', mine.id)).toBe(true);
      expect(await backend.get(repo, 'knowledge', mine.id)).toEqual(mine);
    });

    h.test('kinds are separate collections: same id, separate records, lists and searches', async () => {
      const kinds = ['episode', 'rule', 'preference', 'knowledge', 'receipt'] as const;
      await create(...kinds.map((kind) => taskConformanceRecord({ kind, id: 'same', text: `vitest ${kind}` })));
      for (const kind of kinds) {
        expect((await h.backend().get(repo, kind, 'same'))?.text).toBe(`vitest ${kind}`);
        expect((await h.backend().list({ repo, kind })).map((record) => record.kind)).toEqual([kind]);
        expect((await h.backend().search({ repo, kind, text: 'vitest' })).map((record) => record.kind)).toEqual([kind]);
      }
      const rule = await h.backend().get(repo, 'rule', 'same');
      if (rule === undefined) throw new Error('rule missing');
      expect(
        await h.backend().apply([{ record: { ...rule, text: 'changed', revision: 2 }, expectedRevision: 1 }]),
      ).toEqual({
        ok: true,
      });
      expect((await h.backend().get(repo, 'episode', 'same'))?.revision).toBe(1);
      expect(await h.backend().delete(repo, 'episode', 'same')).toBe(true);
      expect(await h.backend().get(repo, 'rule', 'same')).toBeDefined();
    });
  });
}
