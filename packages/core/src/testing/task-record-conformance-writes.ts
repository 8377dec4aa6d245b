// Why: the write guarantees task memory relies on: compare-and-swap on `revision`, batches that
// land whole or not at all (across kinds too), validation before any write (ids, kinds, sizes,
// revisions), concurrent writers that never both win, delete, and close().
import { MAX_SERIALIZED_TASK_RECORD_CHARS, type TaskRecord, type TaskRecordBackend } from '../tasks/record-backend.js';
import {
  TASK_CONFORMANCE_REPO,
  taskConformanceRecord,
  taskConformanceTime,
} from './task-record-conformance-fixtures.js';
import type { TaskRecordBackendHarness } from './task-record-conformance-types.js';

const repo = TASK_CONFORMANCE_REPO;

/** A record whose JSON form is exactly `chars` characters long. */
function recordOfLength(chars: number): TaskRecord {
  const base = taskConformanceRecord({ id: 'big', text: '', data: { body: '' } });
  const filler = chars - JSON.stringify(base).length;
  return { ...base, data: { body: 'x'.repeat(Math.max(0, filler)) } };
}

/** Register the shape, apply, validation, delete and close groups. */
export function registerTaskRecordWriteGroups<B extends TaskRecordBackend>(h: TaskRecordBackendHarness<B>): void {
  const { describe, expect } = h.options.runner;
  const create = async (...records: TaskRecord[]): Promise<void> => {
    const result = await h.backend().apply(records.map((record) => ({ record, expectedRevision: null })));
    expect(result).toEqual({ ok: true });
  };

  describe('shape', () => {
    h.test('has a name and starts empty', async () => {
      const backend = h.backend();
      expect(typeof backend.name).toBe('string');
      expect(backend.name.length).toBeGreaterThan(0);
      expect(await backend.list({ repo, kind: 'knowledge' })).toEqual([]);
      expect(await backend.search({ repo, kind: 'knowledge', text: 'vitest' })).toEqual([]);
      expect(await backend.get(repo, 'episode', 'task-1')).toBeUndefined();
      expect(await backend.apply([])).toEqual({ ok: true });
    });
  });

  describe('apply', () => {
    h.test('creates a record that get and list return unchanged', async () => {
      const record = taskConformanceRecord();
      await create(record);
      expect(await h.backend().get(repo, 'knowledge', record.id)).toEqual(record);
      expect(await h.backend().list({ repo, kind: 'knowledge' })).toEqual([record]);
    });

    h.test('round-trips nested data, unicode, numbers, booleans and null', async () => {
      const record = taskConformanceRecord({
        kind: 'episode',
        id: 'task-u',
        text: 'Résumé 記憶 emoji 🚀 "quoted" \\ back\nslash',
        data: {
          status: 'merged',
          files: ['src/a.ts', 'docs/ü.md'],
          cost: { usd: 0.125, tokens: 12_345 },
          flags: [true, false, null],
          nested: { deep: { deeper: ['x', 1, { y: null }] } },
          empty: {},
        },
      });
      await create(record);
      expect(await h.backend().get(repo, 'episode', record.id)).toEqual(record);
    });

    h.test('updates a record whose revision matches', async () => {
      const record = taskConformanceRecord();
      await create(record);
      const next = { ...record, text: 'Changed.', revision: 2, updated_at: taskConformanceTime(5) };
      expect(await h.backend().apply([{ record: next, expectedRevision: 1 }])).toEqual({ ok: true });
      expect(await h.backend().get(repo, 'knowledge', record.id)).toEqual(next);
      expect(await h.backend().list({ repo, kind: 'knowledge' })).toEqual([next]);
    });

    h.test('a stale revision is a conflict naming kind and id, and changes nothing', async () => {
      const record = taskConformanceRecord();
      await create(record);
      await h.backend().apply([{ record: { ...record, revision: 2 }, expectedRevision: 1 }]);
      const stored = await h.backend().get(repo, 'knowledge', record.id);
      const result = await h
        .backend()
        .apply([{ record: { ...record, text: 'Lost.', revision: 2 }, expectedRevision: 1 }]);
      expect(result).toEqual({
        ok: false,
        conflicts: [{ kind: 'knowledge', id: record.id, expectedRevision: 1, actualRevision: 2 }],
      });
      expect(await h.backend().get(repo, 'knowledge', record.id)).toEqual(stored);
    });

    h.test('creating an existing record is a conflict; updating an absent one too', async () => {
      const record = taskConformanceRecord();
      await create(record);
      const again = await h.backend().apply([{ record: { ...record, text: 'Other.' }, expectedRevision: null }]);
      expect(again).toEqual({
        ok: false,
        conflicts: [{ kind: 'knowledge', id: record.id, expectedRevision: null, actualRevision: 1 }],
      });
      const absent = taskConformanceRecord({ id: 'k-2', revision: 2 });
      const update = await h.backend().apply([{ record: absent, expectedRevision: 1 }]);
      expect(update).toEqual({
        ok: false,
        conflicts: [{ kind: 'knowledge', id: 'k-2', expectedRevision: 1, actualRevision: null }],
      });
      expect(await h.backend().get(repo, 'knowledge', 'k-2')).toBeUndefined();
      expect(await h.backend().get(repo, 'knowledge', record.id)).toEqual(record);
    });

    h.test('a batch with one conflict writes nothing, in any kind', async () => {
      const existing = taskConformanceRecord({ kind: 'episode', id: 'task-1' });
      await create(existing);
      const result = await h.backend().apply([
        { record: taskConformanceRecord({ kind: 'knowledge', id: 'k-new' }), expectedRevision: null },
        { record: taskConformanceRecord({ kind: 'receipt', id: 'task-2' }), expectedRevision: null },
        { record: { ...existing, text: 'Changed.', revision: 6 }, expectedRevision: 5 },
      ]);
      expect(result).toEqual({
        ok: false,
        conflicts: [{ kind: 'episode', id: 'task-1', expectedRevision: 5, actualRevision: 1 }],
      });
      expect(await h.backend().get(repo, 'knowledge', 'k-new')).toBeUndefined();
      expect(await h.backend().get(repo, 'receipt', 'task-2')).toBeUndefined();
      expect(await h.backend().get(repo, 'episode', 'task-1')).toEqual(existing);
    });

    h.test('a batch of several records of several kinds lands whole', async () => {
      const old = taskConformanceRecord({ kind: 'rule', id: 'r-1' });
      await create(old);
      const writes = [
        { record: { ...old, data: { status: 'superseded' }, revision: 2 }, expectedRevision: 1 },
        { record: taskConformanceRecord({ kind: 'rule', id: 'r-2' }), expectedRevision: null },
        { record: taskConformanceRecord({ kind: 'episode', id: 'task-9' }), expectedRevision: null },
        { record: taskConformanceRecord({ kind: 'preference', id: 'users/alice/pr-size' }), expectedRevision: null },
      ];
      expect(await h.backend().apply(writes)).toEqual({ ok: true });
      for (const { record } of writes) {
        expect(await h.backend().get(repo, record.kind, record.id)).toEqual(record);
      }
    });

    h.test('of two concurrent updates from the same revision exactly one lands', async () => {
      const record = taskConformanceRecord();
      await create(record);
      const results = await Promise.all(
        ['First.', 'Second.'].map((text) =>
          h.backend().apply([{ record: { ...record, text, revision: 2 }, expectedRevision: 1 }]),
        ),
      );
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      const stored = await h.backend().get(repo, 'knowledge', record.id);
      expect(stored?.revision).toBe(2);
      expect(['First.', 'Second.']).toContain(stored?.text);
    });

    h.test('of two concurrent creations of the same id exactly one lands', async () => {
      const results = await Promise.all(
        ['First.', 'Second.'].map((text) =>
          h
            .backend()
            .apply([
              { record: taskConformanceRecord({ kind: 'episode', id: 'task-1', text }), expectedRevision: null },
            ]),
        ),
      );
      expect(results.filter((result) => result.ok)).toHaveLength(1);
    });

    h.test('of two concurrent batches over the same two records one lands whole, the other not at all', async () => {
      const a = taskConformanceRecord({ id: 'a' });
      const b = taskConformanceRecord({ kind: 'episode', id: 'b' });
      await create(a, b);
      const results = await Promise.all(
        ['one', 'two'].map((text) =>
          h.backend().apply([
            { record: { ...a, text, revision: 2 }, expectedRevision: 1 },
            { record: { ...b, text, revision: 2 }, expectedRevision: 1 },
          ]),
        ),
      );
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      const storedA = await h.backend().get(repo, 'knowledge', 'a');
      const storedB = await h.backend().get(repo, 'episode', 'b');
      expect(storedA?.revision).toBe(2);
      expect(storedB?.text).toBe(storedA?.text);
    });

    h.test('concurrent creations of different records and kinds all land', async () => {
      const records = [1, 2, 3, 4, 5, 6].map((n) =>
        taskConformanceRecord({ kind: n % 2 === 0 ? 'episode' : 'knowledge', id: `r-${n}` }),
      );
      const results = await Promise.all(
        records.map((record) => h.backend().apply([{ record, expectedRevision: null }])),
      );
      expect(results.every((result) => result.ok)).toBe(true);
      expect(await h.backend().list({ repo, kind: 'episode' })).toHaveLength(3);
      expect(await h.backend().list({ repo, kind: 'knowledge' })).toHaveLength(3);
    });

    h.test('serial read-modify-write loops of several writers lose no increment', async () => {
      await create(taskConformanceRecord({ id: 'counter', data: { count: 0 } }));
      const increment = async (): Promise<void> => {
        for (;;) {
          const current = await h.backend().get(repo, 'knowledge', 'counter');
          if (current === undefined) throw new Error('counter vanished');
          const count = Number(current.data.count) + 1;
          const next = { ...current, data: { count }, revision: current.revision + 1 };
          if ((await h.backend().apply([{ record: next, expectedRevision: current.revision }])).ok) return;
        }
      };
      await Promise.all(
        [1, 2, 3, 4].map(async () => {
          for (let step = 0; step < 3; step += 1) await increment();
        }),
      );
      const stored = await h.backend().get(repo, 'knowledge', 'counter');
      expect(stored?.data.count).toBe(12);
      expect(stored?.revision).toBe(13);
    });
  });

  describe('ids', () => {
    h.test('every id character round-trips, and ids differing only in case or by a suffix are distinct', async () => {
      const ids = [
        'users/alice',
        'users/Alice',
        'users/alice/pr-size',
        'pr-42/review:7@bot',
        'A.b_C-d',
        'a',
        'a.json',
        `x${'Y'.repeat(127)}`,
      ];
      await create(...ids.map((id, index) => taskConformanceRecord({ id, text: `record ${index}` })));
      for (const [index, id] of ids.entries()) {
        expect((await h.backend().get(repo, 'knowledge', id))?.text).toBe(`record ${index}`);
      }
      expect((await h.backend().list({ repo, kind: 'knowledge' })).map((record) => record.id).sort()).toEqual(
        [...ids].sort(),
      );
    });

    h.test('invalid ids are refused by apply, get and delete, and nothing is written', async () => {
      const bad = [
        '',
        ' ',
        'a b',
        '/a',
        'a/',
        'a//b',
        'a/../b',
        '..',
        '.',
        './a',
        'a\\b',
        'é',
        'a\u0000',
        'x'.repeat(129),
      ];
      for (const id of bad) {
        await h.expectError(
          () => h.backend().apply([{ record: taskConformanceRecord({ id }), expectedRevision: null }]),
          'INVALID_ARGUMENT',
        );
        await h.expectError(() => h.backend().get(repo, 'knowledge', id), 'INVALID_ARGUMENT');
        await h.expectError(() => h.backend().delete(repo, 'knowledge', id), 'INVALID_ARGUMENT');
      }
      expect(await h.backend().list({ repo, kind: 'knowledge' })).toEqual([]);
    });
  });

  describe('validation', () => {
    h.test('refuses bad repositories, kinds, timestamps and data, writing nothing', async () => {
      const cases: Partial<Record<keyof TaskRecord, unknown>>[] = [
        { repo: 'not a slug' },
        { repo: 'acme' },
        { kind: 'memory' },
        { updated_at: 'yesterday' },
        { data: ['not', 'an', 'object'] },
        { text: 42 },
        { revision: 0 },
      ];
      for (const overrides of cases) {
        const record = { ...taskConformanceRecord(), ...overrides } as TaskRecord;
        await h.expectError(() => h.backend().apply([{ record, expectedRevision: null }]), 'INVALID_ARGUMENT');
      }
      await h.expectError(() => h.backend().get('acme', 'knowledge', 'k-1'), 'INVALID_ARGUMENT');
      await h.expectError(() => h.backend().get(repo, 'memory' as TaskRecord['kind'], 'k-1'), 'INVALID_ARGUMENT');
      await h.expectError(() => h.backend().list({ repo, kind: 'memory' as TaskRecord['kind'] }), 'INVALID_ARGUMENT');
      expect(await h.backend().list({ repo, kind: 'knowledge' })).toEqual([]);
    });

    h.test('the revision must be expectedRevision + 1 (1 when creating)', async () => {
      await h.expectError(
        () => h.backend().apply([{ record: taskConformanceRecord({ revision: 2 }), expectedRevision: null }]),
        'INVALID_ARGUMENT',
      );
      await create(taskConformanceRecord());
      await h.expectError(
        () => h.backend().apply([{ record: taskConformanceRecord({ revision: 3 }), expectedRevision: 1 }]),
        'INVALID_ARGUMENT',
      );
      await h.expectError(
        () => h.backend().apply([{ record: taskConformanceRecord({ revision: 1 }), expectedRevision: 0 }]),
        'INVALID_ARGUMENT',
      );
      expect((await h.backend().get(repo, 'knowledge', 'k-1'))?.revision).toBe(1);
    });

    h.test('the same record twice in one apply is refused; the same id in two kinds is not', async () => {
      const record = taskConformanceRecord();
      await h.expectError(
        () =>
          h.backend().apply([
            { record, expectedRevision: null },
            { record: { ...record, text: 'twice' }, expectedRevision: null },
          ]),
        'INVALID_ARGUMENT',
      );
      expect(await h.backend().get(repo, 'knowledge', record.id)).toBeUndefined();
      await create(record, { ...record, kind: 'episode' });
    });

    h.test(
      `a record of exactly ${MAX_SERIALIZED_TASK_RECORD_CHARS} characters as JSON lands; one more is refused`,
      async () => {
        const largest = recordOfLength(MAX_SERIALIZED_TASK_RECORD_CHARS);
        expect(JSON.stringify(largest).length).toBe(MAX_SERIALIZED_TASK_RECORD_CHARS);
        await create(largest);
        expect(await h.backend().get(repo, 'knowledge', largest.id)).toEqual(largest);
        const tooLarge = { ...recordOfLength(MAX_SERIALIZED_TASK_RECORD_CHARS + 1), id: 'too-big' };
        await h.expectError(
          () => h.backend().apply([{ record: tooLarge, expectedRevision: null }]),
          'INVALID_ARGUMENT',
        );
        expect(await h.backend().get(repo, 'knowledge', 'too-big')).toBeUndefined();
      },
    );
  });

  describe('delete', () => {
    h.test('removes a record once, leaves others, and the id can be created again', async () => {
      await create(
        taskConformanceRecord(),
        taskConformanceRecord({ id: 'k-2' }),
        taskConformanceRecord({ kind: 'episode' }),
      );
      expect(await h.backend().delete(repo, 'knowledge', 'k-1')).toBe(true);
      expect(await h.backend().delete(repo, 'knowledge', 'k-1')).toBe(false);
      expect(await h.backend().get(repo, 'knowledge', 'k-1')).toBeUndefined();
      expect((await h.backend().list({ repo, kind: 'knowledge' })).map((record) => record.id)).toEqual(['k-2']);
      expect(await h.backend().get(repo, 'episode', 'k-1')).toBeDefined();
      await create(taskConformanceRecord({ text: 'again' }));
      expect((await h.backend().get(repo, 'knowledge', 'k-1'))?.text).toBe('again');
    });
  });

  describe('close', () => {
    h.test('is idempotent and later calls reject with STORE_CLOSED', async () => {
      const backend = h.backend();
      await backend.close();
      await backend.close();
      await h.expectError(() => backend.list({ repo, kind: 'knowledge' }), 'STORE_CLOSED');
      await h.expectError(() => backend.get(repo, 'knowledge', 'k-1'), 'STORE_CLOSED');
      await h.expectError(
        () => backend.apply([{ record: taskConformanceRecord(), expectedRevision: null }]),
        'STORE_CLOSED',
      );
    });
  });
}
