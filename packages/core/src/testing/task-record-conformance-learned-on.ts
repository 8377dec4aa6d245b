// Why: learnings, episodes and rules follow the code like verified memories (issue 26): the writers
// record where they were learned, promotion moves a merged branch's records to the default
// branch once, and a closed branch's records are quarantined (never hydrated), listed and
// deletable. Checked on every task-record backend through core's own functions.
import { promoteBranchMemories } from '../promotion/promote.js';
import {
  deleteQuarantinedMemories,
  listQuarantinedMemories,
  quarantineBranchMemories,
} from '../promotion/quarantine.js';
import { writeEpisode } from '../tasks/memory/episodes.js';
import { hydrate } from '../tasks/memory/hydrate.js';
import { recordLearnings } from '../tasks/memory/learnings.js';
import type { TaskRecordBackend } from '../tasks/record-backend.js';
import { manualRuleCandidate } from '../tasks/rules/manual-rule.js';
import { saveRules } from '../tasks/rules/rule-book.js';
import { TASK_CONFORMANCE_REPO } from './task-record-conformance-fixtures.js';
import type { TaskRecordBackendHarness } from './task-record-conformance-types.js';

const repo = TASK_CONFORMANCE_REPO;
const now = () => new Date('2026-03-01T12:00:00.000Z');
const BRANCH_COMMIT = 'a'.repeat(40);
const MERGE_COMMIT = 'b'.repeat(40);
const onBranch = (ref: string) => ({ commit: BRANCH_COMMIT, ref });

/** Register the learned-on, promotion and quarantine group of task records. */
export function registerTaskLearnedOnGroups<B extends TaskRecordBackend>(h: TaskRecordBackendHarness<B>): void {
  const { describe, expect } = h.options.runner;

  /** One learning, one episode and one rule learned on `ref`; their ids. */
  const learnOn = async (backend: B, ref: string, n: number) => {
    const learned = await recordLearnings({
      backend,
      repo,
      taskId: `task-${n}`,
      learnings: [{ subject: `Retry policy ${n}`, scope: null, fact: `Network calls ${n} retry three times.` }],
      learnedOn: onBranch(`refs/heads/${ref}`),
      now,
    });
    if (learned.kind !== 'recorded' || learned.outcomes[0] === undefined) throw new Error('no learning recorded');
    await writeEpisode({
      backend,
      repo,
      episode: { task_id: `task-${n}`, status: 'completed', description: `Add retries ${n}` },
      learnedOn: onBranch(ref),
      now,
      strict: true,
    });
    const saved = await saveRules(
      backend,
      repo,
      [manualRuleCandidate({ rule: `Wrap network call ${n} in retry().`, author: 'octocat', now: now() })],
      { now, learnedOn: onBranch(ref) },
    );
    const rule = saved.outcomes[0];
    if (rule === undefined || !('rule' in rule)) throw new Error('no rule saved');
    return { knowledge: learned.outcomes[0].id, episode: `task-${n}`, rule: rule.rule.id };
  };

  describe('learned-on fields of task records', () => {
    h.test('learnings, episodes and rules record where they were learned (refs/heads/ stripped)', async () => {
      const backend = h.backend();
      const ids = await learnOn(backend, 'feature/x', 1);
      for (const [kind, id] of [
        ['knowledge', ids.knowledge],
        ['episode', ids.episode],
        ['rule', ids.rule],
      ] as const) {
        const record = await backend.get(repo, kind, id);
        expect(record?.data.learned_on, `${kind} ${id}`).toEqual({ commit: BRANCH_COMMIT, ref: 'feature/x' });
      }
      await h.expectError(
        () => recordLearnings({ backend, repo, learnings: '- **[A]:** b', learnedOn: { commit: 'x', ref: 'main' } }),
        'INVALID_ARGUMENT',
      );
    });

    h.test('promotion moves every kind to the default branch once; a second run changes nothing', async () => {
      const backend = h.backend();
      const ids = await learnOn(backend, 'feature/x', 1);
      const other = await learnOn(backend, 'feature/y', 2);
      const options = {
        repo,
        tasks: backend,
        ref: 'feature/x',
        mergeCommit: MERGE_COMMIT,
        defaultBranch: 'main',
        pullRequest: 4,
        now,
      };
      const first = await promoteBranchMemories(options);
      expect(first.promoted.map((record) => `${record.kind}:${record.id}`).sort()).toEqual(
        [`episode:${ids.episode}`, `knowledge:${ids.knowledge}`, `rule:${ids.rule}`].sort(),
      );
      const rule = await backend.get(repo, 'rule', ids.rule);
      expect(rule?.data.learned_on).toEqual({ ref: 'main', commit: MERGE_COMMIT });
      expect(rule?.data.promoted_from).toEqual({ ref: 'feature/x', commit: BRANCH_COMMIT, pull_request: 4 });
      expect((await promoteBranchMemories(options)).promoted).toEqual([]);
      expect((await backend.get(repo, 'rule', ids.rule))?.revision).toBe(rule?.revision);
      expect((await backend.get(repo, 'knowledge', other.knowledge))?.data.learned_on).toEqual(onBranch('feature/y'));
    });

    h.test('a learning on a branch never supersedes main’s; promotion settles the two', async () => {
      const backend = h.backend();
      let minute = 0;
      const clock = () => new Date(Date.UTC(2026, 2, 1, 12, minute++));
      const learn = (fact: string, learnedOn?: { commit: string; ref: string }) =>
        recordLearnings({
          backend,
          repo,
          learnings: [{ subject: 'Retry policy', scope: null, fact }],
          ...(learnedOn === undefined ? {} : { learnedOn }),
          now: clock,
        });
      const main = await learn('Network calls retry twice.');
      const branch = await learn('Network calls retry three times.', onBranch('feature/x'));
      if (main.kind !== 'recorded' || branch.kind !== 'recorded') throw new Error('not recorded');
      const mainId = main.outcomes[0]?.id ?? '';
      const branchId = branch.outcomes[0]?.id ?? '';
      const stored = branch.outcomes[0];
      expect(stored?.kind === 'stored' ? stored.superseded : undefined).toEqual([]);
      expect((await backend.get(repo, 'knowledge', mainId))?.data.status).toBe('active');
      const report = await promoteBranchMemories({
        repo,
        tasks: backend,
        ref: 'feature/x',
        mergeCommit: MERGE_COMMIT,
        defaultBranch: 'main',
        now: clock,
      });
      expect(report.promoted.find((record) => record.id === branchId)?.superseded).toEqual([mainId]);
      const settled = (await backend.get(repo, 'knowledge', mainId))?.data;
      expect([settled?.status, settled?.superseded_by]).toEqual(['superseded', branchId]);
      expect((await backend.get(repo, 'knowledge', branchId))?.data.status).toBe('active');
    });

    h.test('quarantine keeps a closed branch out of hydration, lists it and deletes it on review', async () => {
      const backend = h.backend();
      const ids = await learnOn(backend, 'feature/x', 1);
      const task = { id: 'task-9', description: 'network calls retry policy wrap retry' };
      const context = async () =>
        JSON.stringify(
          (await hydrate({ backend, repo, task, branch: 'feature/x', defaultBranch: 'main', now })).context,
        );
      // On its own branch the learning and the rule are served...
      expect((await context()).includes('retry three times'), 'learning hydrated on its branch').toBe(true);
      const report = await quarantineBranchMemories({ repo, tasks: backend, ref: 'feature/x', pullRequest: 5, now });
      // The learning and the rule; the episode stays served (what the attempt did, on every branch).
      expect(report.quarantined.map((record) => record.kind).sort()).toEqual(['knowledge', 'rule']);
      expect((await backend.get(repo, 'episode', ids.episode))?.data.quarantine).toBeUndefined();
      expect((await quarantineBranchMemories({ repo, tasks: backend, ref: 'feature/x', now })).quarantined).toEqual([]);

      // ...and once quarantined, not even there.
      const served = await context();
      expect(served.includes('retry three times'), 'quarantined learning hydrated').toBe(false);
      expect(served.includes('Wrap network call'), 'quarantined rule hydrated').toBe(false);
      expect(served.includes('Add retries 1'), 'the episode of the closed branch is still offered').toBe(true);

      const listed = await listQuarantinedMemories({ repo, tasks: backend, ref: 'feature/x' });
      expect(listed.map((record) => record.kind).sort()).toEqual(['knowledge', 'rule']);
      expect(listed.every((record) => record.quarantine.pull_request === 5)).toBe(true);
      const removed = await deleteQuarantinedMemories({ repo, tasks: backend, ids: [ids.rule, 'not-quarantined'] });
      expect(removed.deleted.map((record) => record.id)).toEqual([ids.rule]);
      expect(removed.notQuarantined).toEqual(['not-quarantined']);
      expect(await backend.get(repo, 'rule', ids.rule)).toBeUndefined();
      await deleteQuarantinedMemories({ repo, tasks: backend, ref: 'feature/x' });
      expect(await listQuarantinedMemories({ repo, tasks: backend })).toEqual([]);
    });
  });
}
