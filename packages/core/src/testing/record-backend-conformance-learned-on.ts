// Why: memory that follows the code (issue 26) holds only if every backend keeps where a memory was
// learned, lets promotion and quarantine rewrite it with compare-and-swap, and deletes a reviewed
// quarantined memory without touching one changed meanwhile. These groups check exactly that on
// the backend under test, through core's own promotion and quarantine functions.

import { promoteBranchMemories } from '../promotion/promote.js';
import {
  deleteQuarantinedMemories,
  listQuarantinedMemories,
  quarantineBranchMemories,
} from '../promotion/quarantine.js';
import type { VerifiedMemoryBackend } from '../verified/backend.js';
import { openVerifiedMemory } from '../verified/service.js';
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
const BRANCH_COMMIT = 'a'.repeat(40);
const MERGE_COMMIT = 'b'.repeat(40);
const clock = () => new Date(conformanceTime(30));

/** Register the learned-on, promotion, quarantine and delete groups. */
export function registerRecordLearnedOnGroups<B extends VerifiedMemoryBackend>(h: RecordBackendHarness<B>): void {
  const { describe, expect } = h.options.runner;
  const onBranch = (n: number, ref = 'feature/x') =>
    conformanceRecord({
      id: conformanceId(n),
      subject: `Branch fact ${n}`,
      created_at: conformanceTime(n),
      refreshed_at: conformanceTime(n),
      learned_on: { commit: BRANCH_COMMIT, ref },
    });
  const create = async (...records: ReturnType<typeof conformanceRecord>[]): Promise<void> => {
    const result = await h.backend().apply(
      records.map((record) => ({ record, expectedRevision: null })),
      [],
    );
    expect(result).toEqual({ ok: true });
  };

  describe('learned-on fields', () => {
    h.test('keeps learned_on, promoted_from and quarantine through every read', async () => {
      const backend = h.backend();
      const record = conformanceRecord({
        learned_on: { commit: BRANCH_COMMIT, ref: 'feature/x' },
        promoted_from: { ref: 'feature/old', commit: 'c'.repeat(7), pull_request: 12 },
        quarantine: { reason: 'pull-request-closed', ref: 'feature/x', pull_request: 13, at: conformanceTime(5) },
      });
      await create(record, conformanceRecord({ id: conformanceId(2), subject: 'Unrecorded' }));
      expect(await backend.get(repo, record.id)).toEqual(record);
      expect((await backend.recent({ repo })).find((found) => found.id === record.id)).toEqual(record);
      expect(
        (await backend.byPath({ repo, path: record.citations[0]?.path ?? '' })).find((found) => found.id === record.id),
      ).toEqual(record);
      const unrecorded = await backend.get(repo, conformanceId(2));
      expect(unrecorded).toBeDefined();
      expect(Object.hasOwn(unrecorded ?? {}, 'learned_on')).toBe(false);
      expect(Object.hasOwn(unrecorded ?? {}, 'promoted_from')).toBe(false);
      expect(Object.hasOwn(unrecorded ?? {}, 'quarantine')).toBe(false);
    });

    h.test('a rewrite can drop the fields again (a lifted quarantine is gone, not null)', async () => {
      const backend = h.backend();
      const record = conformanceRecord({
        learned_on: { commit: BRANCH_COMMIT, ref: 'feature/x' },
        quarantine: { reason: 'pull-request-closed', ref: 'feature/x', at: conformanceTime(5) },
      });
      await create(record);
      const { quarantine: _lifted, ...rest } = record;
      const result = await backend.apply([{ record: { ...rest, revision: 2 }, expectedRevision: 1 }], []);
      expect(result).toEqual({ ok: true });
      const read = await backend.get(repo, record.id);
      expect(Object.hasOwn(read ?? {}, 'quarantine')).toBe(false);
      expect(read?.learned_on).toEqual(record.learned_on);
    });
  });

  describe('promotion and quarantine', () => {
    h.test('promotion moves a branch memory to the default branch once; a second run changes nothing', async () => {
      const backend = h.backend();
      await create(onBranch(1), onBranch(2, 'feature/other'), conformanceRecord({ id: conformanceId(3) }));
      const options = {
        repo,
        verified: backend,
        ref: 'refs/heads/feature/x',
        mergeCommit: MERGE_COMMIT,
        defaultBranch: 'main',
        pullRequest: 7,
        now: clock,
      };
      const first = await promoteBranchMemories(options);
      expect(first.promoted.map((record) => [record.id, record.verification])).toEqual([
        [conformanceId(1), 'unverified'],
      ]);
      const promoted = await backend.get(repo, conformanceId(1));
      expect(promoted?.learned_on).toEqual({ ref: 'main', commit: MERGE_COMMIT });
      expect(promoted?.promoted_from).toEqual({ ref: 'feature/x', commit: BRANCH_COMMIT, pull_request: 7 });
      expect(promoted?.revision).toBe(2);
      const again = await promoteBranchMemories(options);
      expect(again.promoted).toEqual([]);
      expect(await backend.get(repo, conformanceId(1))).toEqual(promoted);
      expect((await backend.get(repo, conformanceId(2)))?.learned_on?.ref).toBe('feature/other');
      expect((await backend.get(repo, conformanceId(3)))?.revision).toBe(1);
    });

    h.test('quarantine marks a closed branch once; the memory is not served but listed, then deletable', async () => {
      const backend = h.backend();
      await create(onBranch(1), onBranch(2), conformanceRecord({ id: conformanceId(3), subject: 'On main' }));
      const first = await quarantineBranchMemories({
        repo,
        verified: backend,
        ref: 'feature/x',
        pullRequest: 9,
        now: clock,
      });
      expect(first.quarantined.map((record) => record.id).sort()).toEqual([conformanceId(1), conformanceId(2)]);
      const again = await quarantineBranchMemories({ repo, verified: backend, ref: 'feature/x', now: clock });
      expect(again.quarantined).toEqual([]);
      expect((await backend.get(repo, conformanceId(1)))?.quarantine).toEqual({
        reason: 'pull-request-closed',
        ref: 'feature/x',
        pull_request: 9,
        at: conformanceTime(30),
      });

      const service = openVerifiedMemory({ backend, now: clock });
      const served = await service.getRecent(repo, 50, { ref: 'feature/x' });
      expect(served.map((memory) => memory.id)).toEqual([conformanceId(3)]);
      expect((await service.search(repo, 'branch fact', 50, { ref: 'feature/x' })).map((m) => m.id)).toEqual([]);

      const listed = await listQuarantinedMemories({ repo, verified: backend });
      expect(listed.map((record) => [record.kind, record.id, record.quarantine.ref]).sort()).toEqual([
        ['memory', conformanceId(1), 'feature/x'],
        ['memory', conformanceId(2), 'feature/x'],
      ]);
      expect(listed.find((record) => record.id === conformanceId(1))?.summary).toBe('Branch fact 1');

      const deleted = await deleteQuarantinedMemories({
        repo,
        verified: backend,
        ids: [conformanceId(1), conformanceId(3)],
      });
      expect(deleted.deleted.map((record) => record.id)).toEqual([conformanceId(1)]);
      expect(deleted.notQuarantined).toEqual([conformanceId(3)]);
      expect(await backend.get(repo, conformanceId(1))).toBeUndefined();
      expect(await backend.get(repo, conformanceId(3))).toBeDefined();
      const byBranch = await deleteQuarantinedMemories({ repo, verified: backend, ref: 'feature/x' });
      expect(byBranch.deleted.map((record) => record.id)).toEqual([conformanceId(2)]);
      expect(await listQuarantinedMemories({ repo, verified: backend })).toEqual([]);
    });

    h.test('promotion after a quarantine (the pull request reopened and merged) lifts the mark', async () => {
      const backend = h.backend();
      await create(onBranch(1));
      await quarantineBranchMemories({ repo, verified: backend, ref: 'feature/x', now: clock });
      const report = await promoteBranchMemories({
        repo,
        verified: backend,
        ref: 'feature/x',
        mergeCommit: MERGE_COMMIT,
        defaultBranch: 'main',
        now: clock,
      });
      expect(report.promoted).toHaveLength(1);
      const read = await backend.get(repo, conformanceId(1));
      expect(Object.hasOwn(read ?? {}, 'quarantine')).toBe(false);
      expect(read?.learned_on).toEqual({ ref: 'main', commit: MERGE_COMMIT });
    });

    h.test('a branch never supersedes the default branch; promotion settles the two lines', async () => {
      const backend = h.backend();
      let minute = 40;
      const service = openVerifiedMemory({
        backend,
        defaultBranch: 'main',
        now: () => new Date(conformanceTime(minute++)),
      });
      const input = {
        repo,
        subject: 'Retry policy',
        fact: 'Network calls retry twice.',
        citations: [{ path: 'src/net.ts', line_start: 1, line_end: 1 }],
      };
      const onMain = await service.store(input);
      const onBranch = await service.store({
        ...input,
        fact: 'Network calls retry three times.',
        learned_on: { commit: BRANCH_COMMIT, ref: 'feature/x' },
      });
      if (onMain.kind !== 'stored' || onBranch.kind !== 'stored') throw new Error('not stored');
      expect(onBranch.superseded).toEqual([]);
      expect((await backend.get(repo, onMain.memory.id))?.status).toBe('active');
      // A second memory on the same branch supersedes the branch's first, not main's.
      const again = await service.store({
        ...input,
        fact: 'Network calls retry four times.',
        learned_on: { commit: BRANCH_COMMIT, ref: 'feature/x' },
      });
      if (again.kind !== 'stored') throw new Error('not stored');
      expect(again.superseded.map((memory) => memory.id)).toEqual([onBranch.memory.id]);
      expect((await backend.get(repo, onMain.memory.id))?.status).toBe('active');

      const report = await promoteBranchMemories({
        repo,
        verified: backend,
        ref: 'feature/x',
        mergeCommit: MERGE_COMMIT,
        defaultBranch: 'main',
        now: () => new Date(conformanceTime(minute++)),
      });
      const promotedAgain = report.promoted.find((record) => record.id === again.memory.id);
      expect(promotedAgain?.superseded).toEqual([onMain.memory.id]);
      expect((await backend.get(repo, onMain.memory.id))?.status).toBe('superseded');
      expect((await backend.get(repo, onMain.memory.id))?.superseded_by).toBe(again.memory.id);
      expect((await backend.get(repo, again.memory.id))?.status).toBe('active');
    });

    h.test('refuses a bad ref, merge commit or pull request and the default branch as its own source', async () => {
      const backend = h.backend();
      const base = { repo, verified: backend, mergeCommit: MERGE_COMMIT, defaultBranch: 'main' };
      await h.expectError(() => promoteBranchMemories({ ...base, ref: 'feature x' }), 'INVALID_ARGUMENT');
      await h.expectError(() => promoteBranchMemories({ ...base, ref: 'main' }), 'INVALID_ARGUMENT');
      await h.expectError(
        () => promoteBranchMemories({ ...base, ref: 'f', mergeCommit: 'not-a-commit' }),
        'INVALID_ARGUMENT',
      );
      await h.expectError(
        () => quarantineBranchMemories({ repo, verified: backend, ref: 'f', pullRequest: -1 }),
        'INVALID_ARGUMENT',
      );
      await h.expectError(() => deleteQuarantinedMemories({ repo, verified: backend }), 'INVALID_ARGUMENT');
    });
  });

  describe('delete', () => {
    h.test(
      'removes a record only at the expected revision; its telemetry stays; other repositories untouched',
      async () => {
        const backend = h.backend();
        if (backend.delete === undefined) return;
        const record = conformanceRecord();
        const twin = conformanceRecord({ repo: CONFORMANCE_OTHER_REPO });
        await backend.apply(
          [
            { record, expectedRevision: null },
            { record: twin, expectedRevision: null },
          ],
          [conformanceEvent('created', record.id, 0)],
        );
        expect(await backend.delete(repo, record.id, 2)).toBe(false);
        expect(await backend.get(repo, record.id)).toEqual(record);
        expect(await backend.delete(repo, record.id, 1)).toBe(true);
        expect(await backend.get(repo, record.id)).toBeUndefined();
        expect(await backend.recent({ repo })).toEqual([]);
        expect(await backend.byPath({ repo, path: record.citations[0]?.path ?? '' })).toEqual([]);
        expect(await backend.search({ repo, text: 'version' })).toEqual([]);
        expect(await backend.delete(repo, record.id, 1)).toBe(false);
        expect((await backend.events({ repo })).map((event) => event.type)).toEqual(['created']);
        expect(await backend.get(CONFORMANCE_OTHER_REPO, twin.id)).toEqual(twin);
        // The id is free again.
        await create(record);
        expect(await backend.get(repo, record.id)).toEqual(record);
      },
    );

    h.test('refuses an id that is not a memory id and a revision that is not a positive integer', async () => {
      const backend = h.backend();
      if (backend.delete === undefined) return;
      const remove = backend.delete.bind(backend);
      await h.expectError(() => remove(repo, '../x', 1), 'INVALID_ARGUMENT');
      await h.expectError(() => remove(repo, conformanceId(1), 0), 'INVALID_ARGUMENT');
      await h.expectError(() => remove('', conformanceId(1), 1), 'INVALID_ARGUMENT');
    });
  });
}
