// Why: issue 26's first reproduction, carried to the end, on a real repository the test builds
// with the git CLI: on branch `feature` a memory citing `src/net.ts:1` (a file the branch adds)
// records `learned_on {ref: feature}` (from the clone, through the git reader); the branch merges
// in a real merge commit and promotion moves it to main's scope, re-verified against the merge
// commit and valid. And the closed-unmerged case: quarantined, not served, listed, deletable.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createDocumentRecordBackend,
  createInMemoryStore,
  deleteQuarantinedMemories,
  listQuarantinedMemories,
  openVerifiedMemory,
  promoteBranchMemories,
  quarantineBranchMemories,
  resolveLearnedOn,
} from '@repomem/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitCitationReader } from '../src/index.js';
import { freshRepository, git, removeDirectory } from './support.js';

const IDENTITY = ['-c', 'user.name=Promotion Test', '-c', 'user.email=promotion@example.com'];
const REPO = 'acme/widgets';

let dir: string;

function write(path: string, content: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), content);
}

function commit(message: string): string {
  git(dir, ['add', '-A']);
  git(dir, [...IDENTITY, 'commit', '-q', '-m', message]);
  return git(dir, ['rev-parse', 'HEAD']);
}

function open() {
  const backend = createDocumentRecordBackend(createInMemoryStore());
  const reader = createGitCitationReader({ dir });
  const service = openVerifiedMemory({ backend, citations: reader, defaultBranch: 'main' });
  return { backend, reader, service };
}

/** Store a memory as `repomem memories store` does: learned_on resolved from the clone. */
async function storeHere(opened: ReturnType<typeof open>, subject: string, path: string, line: number) {
  const resolved = await resolveLearnedOn({ repo: REPO, history: opened.reader, env: {} });
  if (resolved.kind !== 'learned') throw new Error(`no learned_on: ${JSON.stringify(resolved)}`);
  const outcome = await opened.service.store({
    repo: REPO,
    subject,
    fact: `${subject} is configured in ${path}`,
    citations: [{ path, line_start: line, line_end: line }],
    learned_on: resolved.learnedOn,
  });
  if (outcome.kind !== 'stored') throw new Error(`not stored: ${JSON.stringify(outcome)}`);
  return outcome.memory;
}

beforeAll(async () => {
  dir = await freshRepository();
  write('README.md', '# widgets\n');
  commit('initial');
});

afterAll(async () => {
  await removeDirectory(dir);
});

describe('promotion and quarantine on a real repository', () => {
  it('a memory learned on feature is promoted to main by the merge, re-verified at the merge commit', async () => {
    const opened = open();
    git(dir, ['checkout', '-q', '-b', 'feature']);
    write('src/net.ts', 'export const TIMEOUT_MS = 500;\nexport const RETRIES = 3;\n');
    const featureCommit = commit('add the network client');
    const memory = await storeHere(opened, 'Network timeout', 'src/net.ts', 1);
    expect(memory.learned_on).toEqual({ ref: 'feature', commit: featureCommit });

    git(dir, ['checkout', '-q', 'main']);
    write('docs/notes.md', 'main moved on\n');
    commit('main moves on');
    git(dir, [...IDENTITY, 'merge', '-q', '--no-ff', '-m', 'Merge pull request #7 from feature', 'feature']);
    const mergeCommit = git(dir, ['rev-parse', 'HEAD']);
    expect(git(dir, ['rev-list', '--parents', '-n', '1', 'HEAD']).split(' ')).toHaveLength(3);

    const options = {
      repo: REPO,
      verified: opened.backend,
      citations: opened.reader,
      ref: 'feature',
      mergeCommit,
      defaultBranch: 'main',
      pullRequest: 7,
    };
    const report = await promoteBranchMemories(options);
    expect(report.promoted.map((record) => [record.id, record.verification])).toEqual([[memory.id, 'valid']]);
    const promoted = await opened.backend.get(REPO, memory.id);
    expect(promoted?.status).toBe('active');
    expect(promoted?.learned_on).toEqual({ ref: 'main', commit: mergeCommit });
    expect(promoted?.promoted_from).toEqual({ ref: 'feature', commit: featureCommit, pull_request: 7 });
    expect(promoted?.verification_count).toBe(1);
    expect(promoted?.citations[0]?.verified_commit).toBe(mergeCommit.slice(0, 12));

    // Idempotent: nothing changes the second time.
    expect((await promoteBranchMemories(options)).promoted).toEqual([]);
    expect(await opened.backend.get(REPO, memory.id)).toEqual(promoted);

    // Main serves it now, and so does a branch started from main later.
    const onMain = await opened.service.getRecent(REPO, 50, { ref: 'main' });
    expect(onMain.map((found) => found.id)).toEqual([memory.id]);
    const recalled = await opened.service.recall(REPO, { ref: 'main' });
    expect(recalled.memories.map((found) => found.id)).toEqual([memory.id]);
    expect(recalled.invalidated).toEqual([]);
  });

  it('a branch rebased (force-pushed) and squash-merged keeps a memory whose cited lines still exist', async () => {
    const opened = open();
    git(dir, ['checkout', '-q', '-b', 'rebased']);
    write('src/queue.ts', 'export const QUEUE_SIZE = 64;\nexport const WORKERS = 4;\n');
    commit('add the queue');
    const memory = await storeHere(opened, 'Queue size', 'src/queue.ts', 1);
    const learnedAt = memory.learned_on?.commit;
    // main moves on; the branch is rebased onto it (new commit ids: what a force-push publishes).
    git(dir, ['checkout', '-q', 'main']);
    write('docs/queue.md', 'queue notes\n');
    commit('main moves on again');
    git(dir, ['checkout', '-q', 'rebased']);
    git(dir, [...IDENTITY, 'rebase', '-q', 'main']);
    expect(git(dir, ['rev-list', 'HEAD']).split('\n')).not.toContain(learnedAt);
    // Squash-merged: the branch's commits never reach main, only one new commit does.
    git(dir, ['checkout', '-q', 'main']);
    git(dir, ['merge', '-q', '--squash', 'rebased']);
    const squash = commit('Queue (#9)');
    const report = await promoteBranchMemories({
      repo: REPO,
      verified: opened.backend,
      citations: opened.reader,
      ref: 'rebased',
      mergeCommit: squash,
      defaultBranch: 'main',
      pullRequest: 9,
    });
    expect(report.promoted.map((record) => [record.id, record.verification])).toEqual([[memory.id, 'valid']]);
    const stored = await opened.backend.get(REPO, memory.id);
    expect(stored?.learned_on).toEqual({ ref: 'main', commit: squash });
    expect(stored?.promoted_from).toEqual({ ref: 'rebased', commit: learnedAt, pull_request: 9 });
    expect((await opened.service.getRecent(REPO, 50, { ref: 'main' })).map((found) => found.id)).toContain(memory.id);
  });

  it('a memory whose cited lines the merge changed is promoted invalidated', async () => {
    const opened = open();
    git(dir, ['checkout', '-q', '-b', 'feature-conflict']);
    write('src/limits.ts', 'export const MAX_ITEMS = 10;\n');
    commit('add limits');
    const memory = await storeHere(opened, 'Item limit', 'src/limits.ts', 1);
    // Before merging, the branch rewrites the cited line; the merge carries the new line.
    write('src/limits.ts', 'export const MAX_ITEMS = 99;\n');
    commit('raise the limit');
    git(dir, ['checkout', '-q', 'main']);
    git(dir, [...IDENTITY, 'merge', '-q', '--no-ff', '-m', 'Merge feature-conflict', 'feature-conflict']);
    const report = await promoteBranchMemories({
      repo: REPO,
      verified: opened.backend,
      citations: opened.reader,
      ref: 'feature-conflict',
      mergeCommit: git(dir, ['rev-parse', 'HEAD']),
      defaultBranch: 'main',
    });
    expect(report.promoted.map((record) => [record.id, record.verification])).toEqual([[memory.id, 'invalidated']]);
    const stored = await opened.backend.get(REPO, memory.id);
    expect(stored?.status).toBe('invalid');
    expect(stored?.invalid_reason).toMatch(/at the merge commit/);
  });

  it('a memory learned on a branch whose pull request closed unmerged is quarantined, not served, listed, deletable', async () => {
    const opened = open();
    git(dir, ['checkout', '-q', '-b', 'abandoned']);
    write('src/cache.ts', 'export const CACHE_TTL = 60;\n');
    commit('add a cache');
    const memory = await storeHere(opened, 'Cache lifetime', 'src/cache.ts', 1);
    expect(memory.learned_on?.ref).toBe('abandoned');
    expect((await opened.service.getRecent(REPO, 50, { ref: 'abandoned' })).map((found) => found.id)).toEqual([
      memory.id,
    ]);

    const report = await quarantineBranchMemories({
      repo: REPO,
      verified: opened.backend,
      ref: 'abandoned',
      pullRequest: 8,
    });
    expect(report.quarantined.map((record) => record.id)).toEqual([memory.id]);
    expect(await opened.service.getRecent(REPO, 50, { ref: 'abandoned' })).toEqual([]);
    expect((await opened.service.recall(REPO, { ref: 'abandoned' })).memories).toEqual([]);
    const stored = await opened.backend.get(REPO, memory.id);
    expect(stored?.status).toBe('active');
    expect(stored?.quarantine).toMatchObject({ reason: 'pull-request-closed', ref: 'abandoned', pull_request: 8 });

    const listed = await listQuarantinedMemories({ repo: REPO, verified: opened.backend });
    expect(listed.map((record) => [record.id, record.summary])).toEqual([[memory.id, 'Cache lifetime']]);
    const deleted = await deleteQuarantinedMemories({ repo: REPO, verified: opened.backend, ids: [memory.id] });
    expect(deleted.deleted.map((record) => record.id)).toEqual([memory.id]);
    expect(await opened.backend.get(REPO, memory.id)).toBeUndefined();
    git(dir, ['checkout', '-q', 'main']);
  });

  it('a detached clone records no branch rather than a guessed one', async () => {
    const reader = createGitCitationReader({ dir });
    git(dir, ['checkout', '-q', '--detach', 'HEAD']);
    try {
      const resolved = await resolveLearnedOn({ repo: REPO, history: reader, env: {} });
      expect(resolved).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/detached/) });
      const inActions = await resolveLearnedOn({ repo: REPO, history: reader, env: { GITHUB_HEAD_REF: 'feature' } });
      expect(inActions).toMatchObject({
        kind: 'learned',
        learnedOn: { ref: 'feature', commit: git(dir, ['rev-parse', 'HEAD']) },
        from: 'mixed',
      });
    } finally {
      git(dir, ['checkout', '-q', 'main']);
    }
  });
});
