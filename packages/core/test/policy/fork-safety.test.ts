import { describe, expect, it } from 'vitest';
import { isPrClosedCurationAllowed, type PrClosedCurationReason } from '../../src/policy/index.js';

function pr(head: string | null, merged: boolean, base = 'self-evolving/repo') {
  return {
    number: 5,
    merged,
    head: { ref: 'x', repo: head === null ? null : { full_name: head } },
    base: { repo: { full_name: base } },
  };
}

describe('isPrClosedCurationAllowed', () => {
  const table: Array<[string, string, unknown, boolean, PrClosedCurationReason]> = [
    ['same-repo PR merged', 'pull_request_target', pr('self-evolving/repo', true), true, 'same_repo'],
    ['same-repo PR closed unmerged', 'pull_request_target', pr('self-evolving/repo', false), true, 'same_repo'],
    ['same-repo PR, different case', 'pull_request_target', pr('Self-Evolving/Repo', false), true, 'same_repo'],
    ['merged fork PR', 'pull_request_target', pr('mallory/repo', true), true, 'merged_fork'],
    ['fork PR closed unmerged', 'pull_request_target', pr('mallory/repo', false), false, 'unmerged_fork'],
    ['deleted fork, unmerged', 'pull_request_target', pr(null, false), false, 'unmerged_fork'],
    ['deleted fork, merged', 'pull_request_target', pr(null, true), true, 'merged_fork'],
    ['pull_request event, fork unmerged', 'pull_request', pr('mallory/repo', false), false, 'unmerged_fork'],
    ['manual dispatch without PR data', 'workflow_dispatch', undefined, true, 'manual_dispatch'],
    ['manual dispatch with a fork PR', 'workflow_dispatch', pr('mallory/repo', false), true, 'manual_dispatch'],
    ['other event', 'push', pr('self-evolving/repo', true), false, 'unsupported_event'],
    ['empty event', '', pr('self-evolving/repo', true), false, 'unsupported_event'],
    ['missing PR data', 'pull_request_target', undefined, false, 'invalid_pull_request'],
    [
      'merged missing',
      'pull_request_target',
      { head: { repo: null }, base: { repo: { full_name: 'o/r' } } },
      false,
      'invalid_pull_request',
    ],
    [
      'merged as string',
      'pull_request_target',
      { ...pr('mallory/repo', true), merged: 'true' },
      false,
      'invalid_pull_request',
    ],
    [
      'base repo missing',
      'pull_request_target',
      { merged: true, head: { repo: { full_name: 'o/r' } }, base: {} },
      false,
      'invalid_pull_request',
    ],
    [
      'head missing',
      'pull_request_target',
      { merged: false, base: { repo: { full_name: 'o/r' } } },
      false,
      'invalid_pull_request',
    ],
    ['malformed full_name', 'pull_request_target', pr('not a slug', false), false, 'invalid_pull_request'],
  ];
  it.each(table)('%s', (_name, event, payload, allowed, reason) => {
    const decision = isPrClosedCurationAllowed({ event, pr: payload });
    expect(decision.allowed).toBe(allowed);
    expect(decision.reason).toBe(reason);
    expect(decision.message.length).toBeGreaterThan(0);
  });

  it('explains a refusal', () => {
    expect(isPrClosedCurationAllowed({ event: 'pull_request_target', pr: pr('mallory/repo', false) }).message).toBe(
      'pull request from fork mallory/repo closed without merge: skipped (fork safety)',
    );
    expect(
      isPrClosedCurationAllowed({ event: 'pull_request_target', pr: { ...pr('o/r', true), merged: null } }).message,
    ).toBe('cannot verify the pull request (refused): pull_request.merged: expected a boolean, got null');
  });
});
