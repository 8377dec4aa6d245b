// Why: the learned-on fields (issue 26) are the contract the write side (record, promote,
// quarantine) and the read side (branch scope) share; each class of bad input is refused with a
// clear message and records written before the fields existed stay readable.
import { describe, expect, it } from 'vitest';
import { EpisodeDataSchema } from '../../src/tasks/memory/episode-record.js';
import { KnowledgeDataSchema } from '../../src/tasks/memory/knowledge-record.js';
import { RuleDataSchema } from '../../src/tasks/rules/rule-record.js';
import {
  LearnedOnSchema,
  LearnedRefSchema,
  MAX_LEARNED_REF_CHARS,
  PromotedFromSchema,
  QuarantineSchema,
} from '../../src/verified/learned-on.js';
import { VerifiedMemorySchema } from '../../src/verified/record.js';

const sha = 'a'.repeat(40);
const time = '2026-11-27T12:00:00.000Z';

describe('learned-on fields', () => {
  it('keeps a branch name as git branch prints it, stripping refs/heads/', () => {
    expect(LearnedOnSchema.parse({ commit: sha, ref: 'refs/heads/feature/x' })).toEqual({
      commit: sha,
      ref: 'feature/x',
    });
    expect(LearnedOnSchema.parse({ commit: 'ABCDEF1', ref: 'main' })).toEqual({ commit: 'abcdef1', ref: 'main' });
  });

  it.each([
    ['empty', ''],
    ['a double slash', 'feature//x'],
    ['a space', 'feature x'],
    ['..', 'a..b'],
    ['a trailing .lock', 'feature.lock'],
    ['a leading dash', '-x'],
    ['HEAD', 'HEAD'],
    ['@{', 'a@{1}'],
    ['a control character', 'a\u0001b'],
    ['a lone surrogate', 'a\ud800'],
    ['too long', 'x'.repeat(MAX_LEARNED_REF_CHARS + 1)],
  ])('refuses a ref with %s', (_what, ref) => {
    const result = LearnedRefSchema.safeParse(ref);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/is not a branch name/);
  });

  it('accepts a ref of exactly the longest length', () => {
    expect(LearnedRefSchema.parse('x'.repeat(MAX_LEARNED_REF_CHARS))).toHaveLength(MAX_LEARNED_REF_CHARS);
  });

  it.each([
    ['too short', 'abc123'],
    ['too long', 'a'.repeat(41)],
    ['not hex', 'g'.repeat(40)],
  ])('refuses a commit %s', (_what, commit) => {
    expect(LearnedOnSchema.safeParse({ commit, ref: 'main' }).success).toBe(false);
  });

  it('refuses an unknown quarantine reason, a bad time and a bad pull request number', () => {
    const quarantine = { reason: 'pull-request-closed', ref: 'feature', pull_request: 7, at: time };
    expect(QuarantineSchema.parse(quarantine)).toEqual(quarantine);
    expect(QuarantineSchema.safeParse({ ...quarantine, reason: 'other' }).success).toBe(false);
    expect(QuarantineSchema.safeParse({ ...quarantine, at: 'yesterday' }).success).toBe(false);
    expect(PromotedFromSchema.safeParse({ ref: 'feature', commit: sha, pull_request: 0 }).success).toBe(false);
    expect(PromotedFromSchema.safeParse({ ref: 'feature', commit: sha, pull_request: 1.5 }).success).toBe(false);
  });

  it('is optional on every record kind, so records written before it stay readable', () => {
    const memory = {
      id: '0123abcd-0123-4567-89ab-0123456789ab',
      repo: 'acme/app',
      subject: 's',
      fact: 'f',
      scope: null,
      citations: [{ path: 'a.ts', line_start: 1, line_end: 1 }],
      reason: null,
      created_by: null,
      created_at: time,
      refreshed_at: time,
      expires_at: time,
      status: 'active',
      superseded_by: null,
      supersedes: null,
      invalid_reason: null,
      verification_count: 0,
      revision: 1,
    };
    expect(VerifiedMemorySchema.parse(memory).learned_on).toBeUndefined();
    const learned = VerifiedMemorySchema.parse({ ...memory, learned_on: { commit: sha, ref: 'refs/heads/feature' } });
    expect(learned.learned_on).toEqual({ commit: sha, ref: 'feature' });
    const episode = { task_id: 't1', status: 'completed', minimal: false, written_at: time };
    expect(EpisodeDataSchema.parse({ ...episode, learned_on: { commit: sha, ref: 'f' } }).learned_on?.ref).toBe('f');
    const knowledge = {
      subject: 's',
      scope: null,
      fact: 'f',
      insight_type: 'repo_learning',
      status: 'active',
      created_at: time,
    };
    expect(
      KnowledgeDataSchema.parse({ ...knowledge, quarantine: { reason: 'pull-request-closed', ref: 'f', at: time } })
        .quarantine?.ref,
    ).toBe('f');
    expect(KnowledgeDataSchema.safeParse({ ...knowledge, learned_on: { commit: sha, ref: 'a b' } }).success).toBe(
      false,
    );
    expect(Object.keys(RuleDataSchema.shape)).toEqual(
      expect.arrayContaining(['learned_on', 'promoted_from', 'quarantine']),
    );
  });
});
