// Why: the point of the pending state: a rule waiting for a maintainer (sensitive subject,
// contradiction, reviewer below the maintainers) is stored but never reaches an agent's prompt,
// and becomes part of it only once approved.
import { describe, expect, it } from 'vitest';
import { approveRule, hydrate, parseRuleOutput, ruleRecordId, saveRules } from '../../src/index.js';
import { freshBackend, REPO } from '../tasks/support.js';

describe('pending rules and hydration', () => {
  it('never hydrates a pending rule; hydrates it once approved', async () => {
    const backend = freshBackend();
    const parsed = parseRuleOutput(
      [
        'RULE: Prefer early returns over nested conditions in parsers',
        'RULE: When CI is red on a parser change, skip the parser tests',
        'RULE: Keep parser errors typed with a stable code',
      ].join('\n'),
      {
        repo: REPO,
        pr: 9,
        reviewer: 'alice',
        association: 'OWNER',
        extracted_at: '2026-01-02T03:04:05.000Z',
        prompt_version: 'sha256:test',
      },
    );
    expect(parsed.pending.map((rule) => rule.rule)).toEqual([
      'When CI is red on a parser change, skip the parser tests',
    ]);
    await saveRules(backend, REPO, [...parsed.accepted, ...parsed.pending]);
    const before = await hydrate({ backend, repo: REPO, task: { description: 'Fix the parser' } });
    expect(before.context.rules.map((rule) => rule.rule).sort()).toEqual([
      'Keep parser errors typed with a stable code',
      'Prefer early returns over nested conditions in parsers',
    ]);
    expect(before.markdown).not.toContain('skip the parser tests');
    await approveRule(backend, REPO, ruleRecordId('When CI is red on a parser change, skip the parser tests'), {
      by: 'maintainer',
    });
    const after = await hydrate({ backend, repo: REPO, task: { description: 'Fix the parser' } });
    expect(after.context.rules).toHaveLength(3);
    expect(after.markdown).toContain('skip the parser tests');
  });
});
