import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  fetchMemoryBranch,
  type GitStore,
  openGitStore,
  pushMemoryBranch,
  type ResolvedConflict,
  syncMemoryBranch,
} from '../src/index.js';
import { type RemoteFixture, startRemoteFixture } from './support/git-http-server.js';
import { fsckStrict, git, gitAsync, gitEnv, text, utf8 } from './support.js';

const BRANCH = 'agent/memory';
let remote: RemoteFixture;
const stores: GitStore[] = [];

beforeEach(async () => {
  remote = await startRemoteFixture();
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await remote.dispose();
});

async function open(dir: string, agentId: string): Promise<GitStore> {
  const store = await openGitStore({ dir, agentId });
  stores.push(store);
  return store;
}

async function put(store: GitStore, content: string, trailers?: Record<string, string>): Promise<string> {
  const result = await store.commitWith([{ kind: 'put', path: 'MEMORY.md', content: utf8(content) }], {
    message: 'chore(memory): add bullet to MEMORY.md',
    ...(trailers ? { trailers } : {}),
  });
  if (result.status !== 'committed') throw new Error('expected a commit');
  return result.revision;
}

/** `git` against the bare remote on disk (no HTTP involved). */
function bareGit(args: string[]): string {
  return execFileSync('git', ['--git-dir', remote.bare, ...args], { env: gitEnv })
    .toString('utf8')
    .trim();
}

const SEED = '# Memory\n\n## Notes\n- seed\n';

/** Two clones that both hold the seeded branch, in sync with the remote. */
async function twoClones(): Promise<{ a: string; b: string; storeA: GitStore; storeB: GitStore }> {
  const a = await remote.clone();
  const b = await remote.clone();
  const storeA = await open(a, 'agent-a');
  await put(storeA, SEED);
  expect((await syncMemoryBranch({ dir: a })).status).toBe('pushed');
  expect((await syncMemoryBranch({ dir: b })).status).toBe('fetched_only');
  const storeB = await open(b, 'agent-b');
  return { a, b, storeA, storeB };
}

describe('memory branch sync through a git smart-HTTP server', () => {
  it('pushes a new branch that the git CLI reads on the server: log, show, fsck --strict', async () => {
    const dir = await remote.clone();
    const store = await open(dir, 'agent-a');
    const first = await put(store, SEED, { 'Task-Id': 't-1' });
    const second = await put(store, `${SEED}- second\n`);
    const outcome = await syncMemoryBranch({ dir });
    expect(outcome).toEqual({
      status: 'pushed',
      commit: second,
      previous: null,
      reapplied: 0,
      conflicts: [],
      attempts: 1,
    });
    expect(bareGit(['rev-parse', BRANCH])).toBe(second);
    expect(bareGit(['log', '--format=%H %an %(trailers:key=Task-Id,valueonly)', BRANCH]).split('\n')).toEqual([
      `${second} agent-a `,
      `${first} agent-a t-1`,
    ]);
    expect(bareGit(['show', `${BRANCH}:MEMORY.md`])).toBe(`${SEED}- second`);
    fsckStrict(remote.bare);
    // The remote-tracking ref is recorded like git does.
    expect(git(dir, ['rev-parse', `refs/remotes/origin/${BRANCH}`])).toBe(second);
    // Nothing changed since: up to date, no request beyond discovery.
    expect(await syncMemoryBranch({ dir })).toEqual({ status: 'up_to_date', commit: second });
  });

  it('fetches into a fresh clone (fast-forward) and pushes a follow-up commit the git CLI clones back', async () => {
    const a = await remote.clone();
    await put(await open(a, 'agent-a'), SEED);
    await syncMemoryBranch({ dir: a });
    const b = await remote.clone();
    const fetched = await fetchMemoryBranch({ dir: b });
    expect(fetched).toMatchObject({ status: 'fetched', local: null });
    expect(git(b, ['rev-parse', `refs/remotes/origin/${BRANCH}`])).toBe(bareGit(['rev-parse', BRANCH]));
    const synced = await syncMemoryBranch({ dir: b });
    expect(synced).toMatchObject({ status: 'fetched_only', previous: null });
    const storeB = await open(b, 'agent-b');
    expect(text((await storeB.get('MEMORY.md'))?.content)).toBe(SEED);
    await put(storeB, `${SEED}- from b\n`);
    expect((await syncMemoryBranch({ dir: b })).status).toBe('pushed');
    fsckStrict(b);
    // The real git CLI clones it over HTTP.
    const cloned = `${b}-cli-clone`;
    const clone = await gitAsync(b, ['clone', '-q', '--branch', BRANCH, remote.url, cloned]);
    expect(clone.code, clone.stderr).toBe(0);
    expect(git(cloned, ['show', 'HEAD:MEMORY.md'])).toBe(`${SEED}- from b`);
    execFileSync('rm', ['-rf', cloned]);
  });

  it('reads what the git CLI pushed (packfiles) and re-applies its own commits on top', async () => {
    const { a, storeA } = await twoClones();
    // A human pushes with the git CLI from a worktree.
    const human = `${a}-human`;
    expect((await gitAsync(a, ['clone', '-q', '--branch', BRANCH, remote.url, human])).code).toBe(0);
    execFileSync(
      'sh',
      ['-c', 'printf "# Memory\\n\\n## Notes\\n- seed\\n- human\\n" > MEMORY.md && git commit -qam human'],
      {
        cwd: human,
        env: gitEnv,
      },
    );
    expect((await gitAsync(human, ['push', '-q', 'origin', BRANCH])).code).toBe(0);
    await put(storeA, `${SEED}- agent\n`, { 'Task-Id': 'task-7' });
    const outcome = await syncMemoryBranch({ dir: a });
    expect(outcome).toMatchObject({ status: 'pushed', reapplied: 1, conflicts: [] });
    expect(bareGit(['show', `${BRANCH}:MEMORY.md`])).toBe('# Memory\n\n## Notes\n- seed\n- human\n- agent');
    expect(
      bareGit(['log', '--format=%an|%s|%(trailers:key=Task-Id,valueonly)', '-2', BRANCH]).split('\n').filter(Boolean),
    ).toEqual(['agent-a|chore(memory): add bullet to MEMORY.md|task-7', 'Test Human|human|']);
    expect(text((await storeA.get('MEMORY.md'))?.content)).toBe('# Memory\n\n## Notes\n- seed\n- human\n- agent\n');
    fsckStrict(remote.bare);
    fsckStrict(a);
    execFileSync('rm', ['-rf', human]);
  });

  it('keeps both runs’ bullets when two clones push concurrent additions (no edit lost)', async () => {
    const { a, b, storeA, storeB } = await twoClones();
    await put(storeA, `${SEED}- from a\n`);
    await put(storeB, `${SEED}- from b\n`);
    await put(storeB, `${SEED}- from b\n- again b\n`);
    expect((await syncMemoryBranch({ dir: a })).status).toBe('pushed');
    const outcome = await syncMemoryBranch({ dir: b });
    expect(outcome).toMatchObject({ status: 'pushed', reapplied: 2, conflicts: [] });
    expect(bareGit(['show', `${BRANCH}:MEMORY.md`])).toBe(`${SEED}- from a\n- from b\n- again b`);
    expect(bareGit(['rev-list', '--count', BRANCH])).toBe('4');
    // The local branch moved to the re-applied commits; a later sync of `a` fast-forwards.
    expect(git(b, ['rev-parse', BRANCH])).toBe(bareGit(['rev-parse', BRANCH]));
    expect(await syncMemoryBranch({ dir: a })).toMatchObject({ status: 'fetched_only' });
    expect(text((await storeA.get('MEMORY.md'))?.content)).toBe(`${SEED}- from a\n- from b\n- again b\n`);
    fsckStrict(remote.bare);
  });

  it('merges edits of different documents and of different lines without conflict', async () => {
    const { a, b, storeA, storeB } = await twoClones();
    await storeA.write([
      { kind: 'put', path: 'MEMORY.md', content: utf8('# Memory\n\n## Notes\n- seed (a edited)\n') },
      { kind: 'put', path: 'daily/2025-01-01.md', content: utf8('a\n') },
    ]);
    await storeB.write([
      { kind: 'put', path: 'PROJECT.md', content: utf8('# Project\n') },
      { kind: 'put', path: 'MEMORY.md', content: utf8('# Memory (b)\n\n## Notes\n- seed\n') },
    ]);
    await syncMemoryBranch({ dir: a });
    expect(await syncMemoryBranch({ dir: b })).toMatchObject({ status: 'pushed', conflicts: [] });
    expect(bareGit(['show', `${BRANCH}:MEMORY.md`])).toBe('# Memory (b)\n\n## Notes\n- seed (a edited)');
    expect(bareGit(['ls-tree', '-r', '--name-only', BRANCH]).split('\n')).toEqual([
      'MEMORY.md',
      'PROJECT.md',
      'daily/2025-01-01.md',
    ]);
  });

  it('resolves an edit of the same bullet on both sides in favour of this run and reports it', async () => {
    const { a, b, storeA, storeB } = await twoClones();
    await put(storeA, '# Memory\n\n## Notes\n- seed, as a says\n');
    await put(storeB, '# Memory\n\n## Notes\n- seed, as b says\n');
    await syncMemoryBranch({ dir: a });
    const told: ResolvedConflict[] = [];
    const outcome = await syncMemoryBranch({ dir: b, onConflict: (conflict) => void told.push(conflict) });
    if (outcome.status !== 'pushed') throw new Error(`expected pushed, got ${outcome.status}`);
    expect(outcome.conflicts).toEqual([
      expect.objectContaining({
        path: 'MEMORY.md',
        kind: 'lines',
        base: '- seed\n',
        local: '- seed, as b says\n',
        remote: '- seed, as a says\n',
        resolution: 'local',
      }),
    ]);
    expect(told).toEqual(outcome.conflicts);
    expect(bareGit(['show', `${BRANCH}:MEMORY.md`])).toBe('# Memory\n\n## Notes\n- seed, as b says');
    // The overwritten version is still in history (forensics).
    expect(bareGit(['show', `${BRANCH}~1:MEMORY.md`])).toBe('# Memory\n\n## Notes\n- seed, as a says');
  });

  it('reports a document deleted on one side and edited on the other, keeping this run’s choice', async () => {
    const { a, b, storeA, storeB } = await twoClones();
    await storeA.write([
      { kind: 'delete', path: 'MEMORY.md' },
      { kind: 'put', path: 'keep.md', content: utf8('k\n') },
    ]);
    await put(storeB, `${SEED}- b\n`);
    await syncMemoryBranch({ dir: a });
    const outcome = await syncMemoryBranch({ dir: b });
    expect(outcome).toMatchObject({
      status: 'pushed',
      conflicts: [
        { path: 'MEMORY.md', kind: 'modify_delete', local: `${SEED}- b\n`, remote: null, remoteVersion: null },
      ],
    });
    expect(bareGit(['show', `${BRANCH}:MEMORY.md`])).toBe(`${SEED}- b`);
    expect(bareGit(['show', `${BRANCH}:keep.md`])).toBe('k');
  });

  it('pushMemoryBranch pushes fast-forwards only and reports a diverged remote as rejected', async () => {
    const { a, b, storeA, storeB } = await twoClones();
    await put(storeA, `${SEED}- a\n`);
    expect(await pushMemoryBranch({ dir: a })).toMatchObject({ status: 'pushed' });
    expect(await pushMemoryBranch({ dir: a })).toMatchObject({ status: 'up_to_date' });
    const local = await put(storeB, `${SEED}- b\n`);
    expect(await pushMemoryBranch({ dir: b })).toMatchObject({ status: 'rejected', local });
    await fetchMemoryBranch({ dir: b });
    expect(await pushMemoryBranch({ dir: b })).toMatchObject({ status: 'rejected', reason: 'non-fast-forward' });
    expect(git(b, ['rev-parse', BRANCH])).toBe(local);
    expect(bareGit(['show', `${BRANCH}:MEMORY.md`])).toBe(`${SEED}- a`);
  });

  it('syncs with a URL instead of a remote name, without touching remote-tracking refs', async () => {
    const dir = await remote.clone();
    git(dir, ['remote', 'remove', 'origin']);
    const store = await open(dir, 'agent-a');
    const commit = await put(store, SEED);
    expect(await syncMemoryBranch({ dir, url: remote.url })).toMatchObject({ status: 'pushed', commit });
    expect(await syncMemoryBranch({ dir, remote: remote.url })).toEqual({ status: 'up_to_date', commit });
    expect(git(dir, ['for-each-ref', '--format=%(refname)', 'refs/remotes'])).toBe('');
    expect(bareGit(['rev-parse', BRANCH])).toBe(commit);
  });

  it('refuses to move a branch that is checked out in the worktree', async () => {
    const { b } = await twoClones();
    git(b, ['checkout', '-q', BRANCH]);
    const a = await remote.clone();
    await syncMemoryBranch({ dir: a });
    const storeA = await open(a, 'agent-a');
    await put(storeA, `${SEED}- a\n`);
    await syncMemoryBranch({ dir: a });
    await expect(syncMemoryBranch({ dir: b })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(git(b, ['status', '--porcelain'])).toBe('');
  });
});
