// Why: where a write was learned is decided in one place (explicit, else the clone, else the
// Actions environment); these are the cases without a clone (the clone's are in @repomem/store-git,
// on real repositories) and each class of bad input.
import { describe, expect, it } from 'vitest';
import { resolveLearnedOn } from '../../src/promotion/resolve-learned-on.js';

const sha = 'ab'.repeat(20);

describe('resolveLearnedOn', () => {
  it('takes what the caller says', async () => {
    expect(await resolveLearnedOn({ repo: 'acme/app', commit: sha, ref: 'refs/heads/feature/x' })).toEqual({
      kind: 'learned',
      learnedOn: { commit: sha, ref: 'feature/x' },
      from: 'explicit',
    });
  });

  it('falls back to GITHUB_SHA and GITHUB_HEAD_REF, then GITHUB_REF naming a branch', async () => {
    const env = { GITHUB_SHA: sha, GITHUB_HEAD_REF: 'feature/y', GITHUB_REF: 'refs/pull/7/merge' };
    expect(await resolveLearnedOn({ repo: 'acme/app', env })).toEqual({
      kind: 'learned',
      learnedOn: { commit: sha, ref: 'feature/y' },
      from: 'environment',
    });
    const push = { GITHUB_SHA: sha, GITHUB_REF: 'refs/heads/main' };
    expect((await resolveLearnedOn({ repo: 'acme/app', env: push, commit: 'abcdef1' })).kind).toBe('learned');
    expect(await resolveLearnedOn({ repo: 'acme/app', env: push, commit: 'abcdef1' })).toMatchObject({
      learnedOn: { commit: 'abcdef1', ref: 'main' },
      from: 'mixed',
    });
  });

  it('records nothing without a commit or without a branch (a tag push names none)', async () => {
    expect(await resolveLearnedOn({ repo: 'acme/app', env: {} })).toMatchObject({ kind: 'unknown' });
    const tag = { GITHUB_SHA: sha, GITHUB_REF: 'refs/tags/v1' };
    expect(await resolveLearnedOn({ repo: 'acme/app', env: tag })).toMatchObject({
      kind: 'unknown',
      reason: expect.stringMatching(/no branch/),
    });
  });

  it.each([
    ['a commit that is not hex', { commit: 'HEAD~1' }],
    ['a ref that is not a branch name', { ref: 'feature x' }],
  ])('refuses %s', async (_what, given) => {
    await expect(resolveLearnedOn({ repo: 'acme/app', ...given })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
