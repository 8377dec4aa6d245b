import { describe, expect, it } from 'vitest';
import {
  type AncestryRequest,
  type BranchHistory,
  type BranchScope,
  branchFromEnvironment,
  createCommitSet,
  listInScope,
  parseBranchScope,
  resolveBranchScope,
  scopeVerdicts,
} from '../../src/scope/index.js';
import type { LearnedOnFields } from '../../src/verified/index.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

/** A history whose head contains exactly `commits`, counting the questions it is asked. */
function historyOf(commits: readonly string[], names: { current?: string; defaultBranch?: string } = {}) {
  const asked: AncestryRequest[] = [];
  const set = createCommitSet(commits);
  const history: BranchHistory = {
    async ancestry(request) {
      asked.push(request);
      return {
        kind: 'known',
        headCommit: commits[0] ?? '',
        contained: new Set(request.commits.filter((commit) => set.has(commit))),
      };
    },
    async branches() {
      return names;
    },
  };
  return { history, asked };
}

const onFeature: LearnedOnFields = { learned_on: { ref: 'feature', commit: B.slice(0, 7) } };
const onMain: LearnedOnFields = { learned_on: { ref: 'main', commit: C } };
const unrecorded: LearnedOnFields = {};
const quarantined: LearnedOnFields = {
  learned_on: { ref: 'feature', commit: B },
  quarantine: { reason: 'pull-request-closed', ref: 'feature', at: '2026-01-01T00:00:00Z' },
};

describe('createCommitSet', () => {
  it('matches full ids exactly and abbreviations by prefix, case-insensitively', () => {
    const set = createCommitSet([A, B, ` ${C.toUpperCase()} `]);
    expect(set.size).toBe(3);
    expect(set.has(A)).toBe(true);
    expect(set.has('bbbbbbb')).toBe(true);
    expect(set.has('CCCCCCCCCC')).toBe(true);
    expect(set.has('d'.repeat(40))).toBe(false);
    expect(set.has('abbbbbb')).toBe(false);
    expect(set.has('')).toBe(false);
  });
});

describe('scopeVerdicts', () => {
  const scope = (ref?: string): BranchScope => ({ ...(ref === undefined ? {} : { ref }), defaultBranch: 'main' });

  it('serves unrecorded and default-branch records everywhere without asking the history', async () => {
    const { history, asked } = historyOf([]);
    const verdicts = await scopeVerdicts([unrecorded, onMain], scope('other'), history, 'acme/app');
    expect(verdicts).toEqual([
      { kind: 'in_scope', reason: 'unrecorded' },
      { kind: 'in_scope', reason: 'default-branch' },
    ]);
    expect(asked).toEqual([]);
  });

  it('serves a branch record on its branch even when the branch no longer contains its commit (force-push)', async () => {
    const { history, asked } = historyOf([A]);
    expect(await scopeVerdicts([onFeature], scope('feature'), history, 'acme/app')).toEqual([
      { kind: 'in_scope', reason: 'same-branch' },
    ]);
    expect(asked).toEqual([]);
  });

  it('serves a branch record on refs that contain its commit (abbreviated) and nowhere else', async () => {
    const contains = historyOf([A, B]);
    expect(await scopeVerdicts([onFeature], scope('main'), contains.history, 'acme/app')).toEqual([
      { kind: 'in_scope', reason: 'contained' },
    ]);
    const lacks = historyOf([A]);
    const [verdict] = await scopeVerdicts([onFeature], scope('main'), lacks.history, 'acme/app');
    expect(verdict).toMatchObject({ kind: 'out_of_scope', reason: 'not-contained' });
    expect(verdict?.kind === 'out_of_scope' && verdict.message).toContain('learned on feature at bbbbbbb');
  });

  it('asks the history once for the distinct commits of many records', async () => {
    const { history, asked } = historyOf([B]);
    const records = Array.from({ length: 100 }, (_, index) => (index % 2 === 0 ? onFeature : onMain));
    const verdicts = await scopeVerdicts(records, scope('other'), history, 'acme/app');
    expect(verdicts.every((verdict) => verdict.kind === 'in_scope')).toBe(true);
    expect(asked.map((request) => request.commits)).toEqual([['bbbbbbb']]);
  });

  it('never serves a quarantined record, not even on its own or the default branch', async () => {
    const { history } = historyOf([B]);
    for (const ref of ['feature', 'main']) {
      const [verdict] = await scopeVerdicts([quarantined], scope(ref), history, 'acme/app');
      expect(verdict).toMatchObject({ kind: 'out_of_scope', reason: 'quarantined' });
    }
  });

  it('fails closed when the history cannot be read or the reader has no history', async () => {
    const unknown: BranchHistory = { ancestry: async () => ({ kind: 'unknown', reason: 'no git here' }) };
    for (const history of [unknown, undefined]) {
      const [verdict] = await scopeVerdicts([onFeature], scope('main'), history, 'acme/app');
      expect(verdict).toMatchObject({ kind: 'out_of_scope', reason: 'history-unknown' });
    }
  });
});

describe('resolveBranchScope', () => {
  it('takes the branch, else a ref that is a branch name, else the reader current branch', async () => {
    const { history } = historyOf([], { current: 'topic', defaultBranch: 'trunk' });
    expect(await resolveBranchScope({ branch: 'refs/heads/feature/x' }, history, 'acme/app')).toEqual({
      ref: 'feature/x',
      defaultBranch: 'trunk',
    });
    expect(await resolveBranchScope({ ref: 'feature' }, history, 'acme/app')).toEqual({
      ref: 'feature',
      head: 'feature',
      defaultBranch: 'trunk',
    });
    expect(await resolveBranchScope({ ref: 'a'.repeat(40) }, history, 'acme/app')).toEqual({
      ref: 'topic',
      head: 'a'.repeat(40),
      defaultBranch: 'trunk',
    });
    expect(await resolveBranchScope({ ref: 'HEAD~1' }, history, 'acme/app')).toEqual({
      ref: 'topic',
      head: 'HEAD~1',
      defaultBranch: 'trunk',
    });
    expect(await resolveBranchScope({ defaultBranch: 'main' }, undefined, 'acme/app')).toEqual({
      defaultBranch: 'main',
    });
    expect(await resolveBranchScope({}, undefined, 'acme/app')).toEqual({ defaultBranch: 'main' });
  });

  it('treats a reader that fails to name branches as not knowing them', async () => {
    const failing: BranchHistory = {
      branches: async () => {
        throw new Error('offline');
      },
    };
    expect(await resolveBranchScope({}, failing, 'acme/app')).toEqual({ defaultBranch: 'main' });
  });

  it('refuses a branch or default branch that is not a branch name, and a blank ref', async () => {
    await expect(resolveBranchScope({ branch: 'a..b' }, undefined, 'acme/app')).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(resolveBranchScope({ branch: 'x', defaultBranch: '-main' }, undefined, 'acme/app')).rejects.toThrow(
      /default branch "-main" is not a branch name/,
    );
    await expect(resolveBranchScope({ ref: ' ' }, undefined, 'acme/app')).rejects.toThrow(/invalid ref/);
    expect(() => parseBranchScope({ head: '', defaultBranch: 'main' })).toThrow(/scope head/);
  });
});

describe('listInScope', () => {
  it('reads growing pages until it has limit records in scope, in order', async () => {
    const records: (LearnedOnFields & { n: number })[] = Array.from({ length: 30 }, (_, n) => ({
      n,
      ...(n < 20 ? quarantined : unrecorded),
    }));
    const pages: number[] = [];
    const listed = await listInScope(
      async (limit) => {
        pages.push(limit);
        return records.slice(0, limit);
      },
      5,
      (page) => scopeVerdicts(page, { defaultBranch: 'main' }, undefined, 'acme/app'),
    );
    expect(listed.inScope.map((record) => record.n)).toEqual([20, 21, 22, 23, 24]);
    expect(listed.outOfScope).toHaveLength(20);
    expect(pages).toEqual([5, 20, 80]);
  });
});

describe('branchFromEnvironment', () => {
  it('takes GITHUB_HEAD_REF, else a GITHUB_REF naming a branch, else none', () => {
    expect(branchFromEnvironment({ GITHUB_HEAD_REF: 'feature/x', GITHUB_REF: 'refs/pull/3/merge' })).toEqual({
      kind: 'branch',
      branch: 'feature/x',
      variable: 'GITHUB_HEAD_REF',
    });
    expect(branchFromEnvironment({ GITHUB_REF: 'refs/heads/release/1.2' })).toMatchObject({ branch: 'release/1.2' });
    expect(branchFromEnvironment({ GITHUB_REF: 'refs/tags/v1' })).toEqual({ kind: 'none' });
    expect(branchFromEnvironment({})).toEqual({ kind: 'none' });
  });

  it('says which variable holds something that is not a branch name', () => {
    expect(branchFromEnvironment({ GITHUB_REF: 'refs/heads/a..b' })).toMatchObject({
      kind: 'invalid',
      variable: 'GITHUB_REF',
      message: expect.stringContaining('$GITHUB_REF "refs/heads/a..b" is not a branch name'),
    });
  });
});
