import { beforeEach, describe, expect, it } from 'vitest';
import { type BranchHistory, createCommitSet } from '../../src/scope/index.js';
import type { LearnedOnFields, VerifiedMemory } from '../../src/verified/index.js';
import { createMapCitationReader, numberedLines } from '../citations/support.js';
import { openFixture, type ServiceFixture } from './support.js';

const repo = 'acme/app';
const FEATURE_COMMIT = 'f'.repeat(40);
const MAIN_COMMIT = 'e'.repeat(40);

/**
 * A map reader (one revision: the working tree) on branch `current` whose history holds
 * `commits`; the test edits both. Stands in for a clone, as the other verified-memory tests do.
 */
function branchReader(current: { branch: string | undefined; commits: string[] }) {
  const reader = createMapCitationReader({ 'src/net.ts': `${numberedLines(3)}` });
  const history: Required<BranchHistory> = {
    async ancestry(request) {
      const set = createCommitSet(current.commits);
      return {
        kind: 'known',
        headCommit: current.commits[0] ?? '',
        contained: new Set(request.commits.filter((commit) => set.has(commit))),
      };
    },
    async branches() {
      return { ...(current.branch === undefined ? {} : { current: current.branch }), defaultBranch: 'main' };
    },
  };
  return Object.assign(reader, history);
}

describe('verified memory with branch scope', () => {
  let fixture: ServiceFixture;
  let working: { branch: string | undefined; commits: string[] };
  let reader: ReturnType<typeof branchReader>;

  beforeEach(() => {
    working = { branch: 'feature', commits: [FEATURE_COMMIT, MAIN_COMMIT] };
    reader = branchReader(working);
    fixture = openFixture({ reader });
  });

  /** Store a memory citing src/net.ts:1, then mark where it was learned (item 1 writes this). */
  async function storeLearned(subject: string, fields: LearnedOnFields): Promise<VerifiedMemory> {
    const outcome = await fixture.service.store({
      repo,
      subject,
      fact: `${subject} holds`,
      citations: [{ path: 'src/net.ts', line_start: 1, line_end: 1 }],
    });
    if (outcome.kind !== 'stored') throw new Error(`not stored: ${outcome.kind}`);
    const record = { ...outcome.memory, ...fields, revision: outcome.memory.revision + 1 };
    const applied = await fixture.backend.apply([{ record, expectedRevision: outcome.memory.revision }], []);
    if (!applied.ok) throw new Error('conflict');
    return record;
  }

  const onFeature = { learned_on: { ref: 'feature', commit: FEATURE_COMMIT.slice(0, 12) } };

  it('a memory learned on a branch is recalled there and neither served nor verified on main', async () => {
    const memory = await storeLearned('net client', onFeature);
    const shared = await storeLearned('shared fact', {});

    const onBranch = await fixture.service.recall(repo);
    expect(onBranch.memories.map((item) => item.id).sort()).toEqual([memory.id, shared.id].sort());
    expect(onBranch.outOfScope).toBe(0);

    // Check out main: the file the branch added is gone and its commit is not in main's history.
    working.branch = 'main';
    working.commits = [MAIN_COMMIT];
    reader.files.delete('src/net.ts');
    reader.files.set('README', 'x\n');
    const onMain = await fixture.service.recall(repo, { branch: 'main' });
    expect(onMain.memories).toEqual([]);
    expect(onMain.outOfScope).toBe(1);
    expect(onMain.invalidated.map((item) => item.memory.id)).toEqual([shared.id]);

    const verified = await fixture.service.verify(repo, memory.id);
    expect(verified.kind).toBe('out_of_scope');
    if (verified.kind === 'out_of_scope') {
      expect(verified.verdict.reason).toBe('not-contained');
      expect(verified.verdict.message).toContain('learned on feature');
    }
    expect((await fixture.service.get(repo, memory.id))?.status).toBe('active');
  });

  it('a memory learned on a branch is served on a ref whose history contains its commit (merged)', async () => {
    const memory = await storeLearned('net client', onFeature);
    working.branch = 'main';
    working.commits = [MAIN_COMMIT.replace(/^e/, 'd'), FEATURE_COMMIT, MAIN_COMMIT];
    expect((await fixture.service.recall(repo)).memories.map((item) => item.id)).toEqual([memory.id]);
    expect((await fixture.service.search(repo, 'net client')).map((item) => item.id)).toEqual([memory.id]);
  });

  it('search, getRecent and searchByPath leave out memories of other branches and quarantined ones', async () => {
    const memory = await storeLearned('net client', onFeature);
    await storeLearned('closed branch fact', {
      learned_on: { ref: 'feature', commit: FEATURE_COMMIT },
      quarantine: { reason: 'pull-request-closed', ref: 'feature', at: '2026-01-01T00:00:00Z' },
    });
    expect((await fixture.service.search(repo, 'fact')).map((item) => item.id)).toEqual([]);
    expect((await fixture.service.getRecent(repo)).map((item) => item.id)).toEqual([memory.id]);
    expect((await fixture.service.search(repo, 'net', 10, { branch: 'other' })).map((item) => item.id)).toEqual(
      [memory.id], // `other` was forked from feature: its history (the reader's) contains the commit
    );
    working.commits = [MAIN_COMMIT];
    expect(await fixture.service.search(repo, 'net', 10, { branch: 'other' })).toEqual([]);
    expect(await fixture.service.searchByPath(repo, 'src/net.ts', { branch: 'other' })).toEqual([]);
    expect((await fixture.service.searchByPath(repo, 'src/net.ts')).map((item) => item.id)).toEqual([memory.id]);
  });

  it('keeps a memory on its own branch after a force-push dropped its commit', async () => {
    const memory = await storeLearned('net client', onFeature);
    working.commits = ['1'.repeat(40), MAIN_COMMIT];
    expect((await fixture.service.recall(repo)).memories.map((item) => item.id)).toEqual([memory.id]);
    expect((await fixture.service.verify(repo, memory.id)).kind).toBe('valid');
  });

  it('verifies a quarantined memory nowhere', async () => {
    const memory = await storeLearned('closed', {
      learned_on: { ref: 'feature', commit: FEATURE_COMMIT },
      quarantine: { reason: 'pull-request-closed', ref: 'feature', pull_request: 7, at: '2026-01-01T00:00:00Z' },
    });
    const outcome = await fixture.service.verify(repo, memory.id);
    expect(outcome).toMatchObject({ kind: 'out_of_scope', verdict: { reason: 'quarantined' } });
    expect((await fixture.service.recall(repo)).memories).toEqual([]);
  });

  it('refuses a branch that is not a branch name, changing nothing', async () => {
    const memory = await storeLearned('net client', onFeature);
    await expect(fixture.service.recall(repo, { branch: 'bad..name' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(fixture.service.verify(repo, memory.id, undefined, { branch: '' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect((await fixture.service.get(repo, memory.id))?.revision).toBe(memory.revision);
  });

  it('refuses scope options that are not an object, and a blank ref', async () => {
    await storeLearned('net client', onFeature);
    await expect(fixture.service.recall(repo, null as never)).rejects.toThrow(/recall options must be an object/);
    await expect(fixture.service.search(repo, 'net', 5, 'main' as never)).rejects.toThrow(
      /scope options must be an object/,
    );
    await expect(fixture.service.getRecent(repo, 5, { ref: '  ' })).rejects.toThrow(/invalid ref/);
  });
});
