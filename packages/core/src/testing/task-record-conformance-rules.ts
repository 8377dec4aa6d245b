// Why: review rules hold their life cycle (pending, approved, rejected, superseded, expired) in
// the data of `rule` task records, and every store must keep it exactly: a pending rule is never
// among the active ones, approving it supersedes what it contradicts, a rejected rule stays
// refused when taught again. Checked on every backend through the real rule-book functions.

import type { TaskRecordBackend } from '../tasks/record-backend.js';
import { parseRuleOutput } from '../tasks/rules/parse-rule-output.js';
import {
  approveRule,
  listActiveRules,
  listRules,
  noteRuleRetrievals,
  rejectRule,
  saveRules,
} from '../tasks/rules/rule-book.js';
import { ruleRecordId } from '../tasks/rules/rule-record.js';
import { TASK_CONFORMANCE_REPO } from './task-record-conformance-fixtures.js';
import type { TaskRecordBackendHarness } from './task-record-conformance-types.js';

const repo = TASK_CONFORMANCE_REPO;
let tick = Date.parse('2026-03-01T12:00:00.000Z');
const now = (): Date => {
  tick += 1000;
  return new Date(tick);
};

function parsed(answer: string, pr = 5) {
  return parseRuleOutput(answer, {
    repo,
    pr,
    reviewer: 'alice',
    association: 'OWNER',
    extracted_at: '2026-03-01T12:00:00.000Z',
    prompt_version: 'sha256:conformance',
  });
}

/** Register the review-rule life-cycle group. */
export function registerTaskRuleGroups<B extends TaskRecordBackend>(h: TaskRecordBackendHarness<B>): void {
  const { describe, expect } = h.options.runner;

  describe('review rules on this backend', () => {
    h.test('pending rules are stored with their reasons and never active until approved', async () => {
      const backend = h.backend();
      const answer = parsed('RULE: Use Jest for unit tests\nRULE: Never print secrets in CI output');
      await saveRules(backend, repo, [...answer.accepted, ...answer.pending], { now });
      expect((await listActiveRules(backend, repo)).map((rule) => rule.data.rule)).toEqual(['Use Jest for unit tests']);
      const pending = await listRules(backend, repo, { status: 'pending' });
      expect(pending.map((rule) => rule.data.pending_reasons.map((r) => r.reason))).toEqual([['sensitive_subject']]);
      const contradiction = parsed('RULE: Use Vitest for unit tests', 6);
      await saveRules(backend, repo, contradiction.accepted, { now });
      const vitest = ruleRecordId('Use Vitest for unit tests');
      const approved = await approveRule(backend, repo, vitest, { by: 'maintainer' }, { now });
      expect(approved.kind === 'approved' ? approved.superseded : approved.kind).toEqual([
        ruleRecordId('Use Jest for unit tests'),
      ]);
      const secrets = ruleRecordId('Never print secrets in CI output');
      expect((await rejectRule(backend, repo, secrets, { by: 'maintainer' }, { now })).kind).toBe('rejected');
      const again = await saveRules(backend, repo, answer.pending, { now });
      expect(again.outcomes[0]?.kind).toBe('refused');
      const all = await listRules(backend, repo);
      expect(all.map((rule) => [rule.data.rule, rule.data.status]).sort()).toEqual([
        ['Never print secrets in CI output', 'refused'],
        ['Use Jest for unit tests', 'superseded'],
        ['Use Vitest for unit tests', 'active'],
      ]);
      const decision = all.find((rule) => rule.id === vitest)?.data.decision;
      expect([decision?.action, decision?.by]).toEqual(['approved', 'maintainer']);
      const expired = await noteRuleRetrievals(
        backend,
        { repo, taskId: 't-1', retrieved: [], expireAfterTasks: 1 },
        { now },
      );
      expect(expired.expired).toEqual([vitest]);
      expect(await listActiveRules(backend, repo)).toEqual([]);
    });
  });
}
