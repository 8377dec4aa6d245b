import { execFileSync } from 'node:child_process';
import { isRepomemError } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readStateRef, resolveStateRef, writeStateRef } from '../src/index.js';
import { freshRepository, fsckStrict, git, gitEnv, removeDirectory } from './support.js';

const REPO = 'octo/memory';
const THREAD = `${REPO}:issue:42:implement:default`;
const THREAD_REF = 'refs/agent-state/octo%2Fmemory--issue--42--implement--default';
let dir: string;

beforeEach(async () => {
  dir = await freshRepository();
});
afterEach(async () => {
  await removeDirectory(dir);
});

function syncState(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schema_version: 1,
    repo_slug: REPO,
    last_sync_at: '2025-03-01T10:00:00Z',
    last_activity_at: '2025-03-01T09:59:00Z',
    cursors: { issues: '2025-03-01T09:00:00Z', pulls: '', discussions: '', commits: 'abc' },
    last_run_url: 'https://example.com/run/1',
    created_at: '2025-02-01T00:00:00Z',
    updated_at: '2025-03-01T10:00:00Z',
    ...overrides,
  };
}

/** Write `state.json` into `ref` the way Sepo does (hash-object, mktree, commit-tree, update-ref). */
function sepoWrite(ref: string, json: string): string {
  const run = (args: string[], input?: string): string =>
    execFileSync('git', args, { cwd: dir, env: gitEnv, input }).toString('utf8').trim();
  const blob = run(['hash-object', '-w', '--stdin'], json);
  const tree = run(['mktree'], `100644 blob ${blob}\tstate.json\n`);
  const commit = run(['commit-tree', tree, '-m', 'memory-sync-state: test']);
  run(['update-ref', ref, commit]);
  return commit;
}

async function codeOf(action: () => Promise<unknown>): Promise<string> {
  try {
    await action();
  } catch (error) {
    if (isRepomemError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'no error';
}

describe('state refs', () => {
  it('writes the sync state as Sepo lays it out (a commit whose tree holds state.json) and reads it back', async () => {
    expect(await readStateRef({ dir, ref: 'sync', repo: REPO })).toEqual({
      status: 'missing',
      ref: 'refs/agent-memory-state/sync',
    });
    const written = await writeStateRef({ dir, ref: 'sync', state: syncState(), expected: null, repo: REPO });
    if (written.status !== 'written') throw new Error('expected written');
    expect(git(dir, ['rev-parse', 'refs/agent-memory-state/sync'])).toBe(written.commit);
    expect(git(dir, ['ls-tree', '--name-only', 'refs/agent-memory-state/sync'])).toBe('state.json');
    expect(git(dir, ['log', '--format=%s', 'refs/agent-memory-state/sync'])).toBe(
      'memory-sync-state: 2025-03-01T10:00:00Z',
    );
    const stored = JSON.parse(git(dir, ['show', 'refs/agent-memory-state/sync:state.json']));
    expect(stored).toEqual(syncState());
    const read = await readStateRef({ dir, ref: 'sync', repo: REPO });
    expect(read).toMatchObject({ status: 'found', commit: written.commit, state: syncState() });
    // A second write builds on the first (history of cursor moves) and is visible to git.
    const next = await writeStateRef({
      dir,
      ref: 'sync',
      state: syncState({ last_sync_at: '2025-03-02T10:00:00Z' }),
      expected: written.commit,
    });
    expect(next).toMatchObject({ status: 'written', previous: written.commit });
    expect(git(dir, ['rev-parse', 'refs/agent-memory-state/sync^'])).toBe(written.commit);
    fsckStrict(dir);
    // The memory branch and the worktree are untouched.
    expect(git(dir, ['for-each-ref', '--format=%(refname)', 'refs/heads'])).toBe('');
  });

  it('reads state that Sepo (the git CLI) wrote, defaults filled in', async () => {
    const commit = sepoWrite(
      'refs/agent-memory-state/scan',
      `${JSON.stringify({ repo_slug: REPO, last_scan_at: '2025-01-01T00:00:00Z' })}\n`,
    );
    const read = await readStateRef({ dir, ref: 'scan', repo: REPO });
    expect(read).toEqual({
      status: 'found',
      ref: 'refs/agent-memory-state/scan',
      commit,
      repoSlug: REPO,
      state: {
        schema_version: 1,
        repo_slug: REPO,
        last_scan_at: '2025-01-01T00:00:00Z',
        last_run_url: '',
        created_at: '',
        updated_at: '',
      },
    });
  });

  it('compare-and-swap: a write whose expected id is stale is a conflict and changes nothing', async () => {
    const first = await writeStateRef({ dir, ref: 'sync', state: syncState(), expected: null });
    if (first.status !== 'written') throw new Error('expected written');
    const again = await writeStateRef({ dir, ref: 'sync', state: syncState({ last_run_url: 'x' }), expected: null });
    expect(again).toEqual({
      status: 'conflict',
      ref: 'refs/agent-memory-state/sync',
      expected: null,
      actual: first.commit,
    });
    const stale = await writeStateRef({ dir, ref: 'sync', state: syncState(), expected: 'a'.repeat(40) });
    expect(stale).toMatchObject({ status: 'conflict', actual: first.commit });
    expect(git(dir, ['rev-parse', 'refs/agent-memory-state/sync'])).toBe(first.commit);
    // Two concurrent writers from the same id: exactly one wins.
    const racing = await Promise.all(
      ['a', 'b'].map((run) =>
        writeStateRef({ dir, ref: 'sync', state: syncState({ last_run_url: run }), expected: first.commit }),
      ),
    );
    expect(racing.map((result) => result.status).sort()).toEqual(['conflict', 'written']);
  });

  it('ignores state that belongs to another repository (a copied branch) and refuses to write one', async () => {
    const commit = sepoWrite('refs/agent-memory-state/sync', JSON.stringify(syncState({ repo_slug: 'someone/else' })));
    expect(await readStateRef({ dir, ref: 'sync', repo: REPO })).toEqual({
      status: 'ignored_other_repo',
      ref: 'refs/agent-memory-state/sync',
      commit,
      repoSlug: 'someone/else',
      message: 'refs/agent-memory-state/sync: state belongs to someone/else, not octo/memory; ignored',
    });
    // Without a current repository there is nothing to compare: it is returned.
    expect(await readStateRef({ dir, ref: 'sync' })).toMatchObject({ status: 'found' });
    // Slugs compare case-insensitively, like GitHub's.
    expect(await readStateRef({ dir, ref: 'sync', repo: 'Someone/Else' })).toMatchObject({ status: 'found' });
    expect(
      await codeOf(() =>
        writeStateRef({
          dir,
          ref: 'sync',
          state: syncState({ repo_slug: 'someone/else' }),
          expected: commit,
          repo: REPO,
        }),
      ),
    ).toMatch(/^INVALID_ARGUMENT: refusing to write the state of someone\/else/);
    expect(git(dir, ['rev-parse', 'refs/agent-memory-state/sync'])).toBe(commit);
  });

  it("never replaces one repository's state with another's unless asked; a read without a repository names whose state it got", async () => {
    const ofA = await writeStateRef({
      dir,
      ref: 'sync',
      state: syncState({ repo_slug: 'owner/a' }),
      expected: null,
      repo: 'owner/a',
    });
    expect(ofA.status).toBe('written');
    if (ofA.status !== 'written') return;
    expect(await readStateRef({ dir, ref: 'sync' })).toMatchObject({ status: 'found', repoSlug: 'owner/a' });
    // owner/b's run leasing on owner/a's commit is refused: owner/a's state stays.
    expect(
      await codeOf(() =>
        writeStateRef({
          dir,
          ref: 'sync',
          state: syncState({ repo_slug: 'owner/b' }),
          expected: ofA.commit,
          repo: 'owner/b',
        }),
      ),
    ).toMatch(/^CONFLICT: refusing to replace owner\/a's state at refs\/agent-memory-state\/sync with owner\/b's/);
    expect(git(dir, ['rev-parse', 'refs/agent-memory-state/sync'])).toBe(ofA.commit);
    expect(await readStateRef({ dir, ref: 'sync', repo: 'owner/a' })).toMatchObject({ status: 'found' });
    // Explicitly replacing it works (and owner/a's read then ignores owner/b's state).
    const ofB = await writeStateRef({
      dir,
      ref: 'sync',
      state: syncState({ repo_slug: 'owner/b' }),
      expected: ofA.commit,
      repo: 'owner/b',
      replaceOtherRepository: true,
    });
    expect(ofB.status).toBe('written');
    expect(await readStateRef({ dir, ref: 'sync', repo: 'owner/a' })).toMatchObject({ status: 'ignored_other_repo' });
    fsckStrict(dir);
  });

  it('reports stored garbage as invalid (start fresh) instead of throwing', async () => {
    const notJson = sepoWrite('refs/agent-memory-state/sync', '{oops');
    expect(await readStateRef({ dir, ref: 'sync', repo: REPO })).toMatchObject({
      status: 'invalid',
      commit: notJson,
      reason: 'invalid_json',
    });
    sepoWrite('refs/agent-memory-state/sync', JSON.stringify({ repo_slug: 'no-slash', cursors: [] }));
    const invalid = await readStateRef({ dir, ref: 'sync', repo: REPO });
    expect(invalid).toMatchObject({ status: 'invalid', reason: 'invalid_state' });
    if (invalid.status === 'invalid') expect(invalid.message).toMatch(/repo_slug/);
    // A ref pointing at something that is not a state commit.
    const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: dir, env: gitEnv, input: 'x' })
      .toString()
      .trim();
    git(dir, ['update-ref', 'refs/agent-memory-state/scan', blob]);
    expect(await readStateRef({ dir, ref: 'scan' })).toMatchObject({ status: 'invalid', reason: 'not_a_state_commit' });
  });

  it('thread state lives at refs/agent-state/<encoded key> with its thread key checked', async () => {
    const ref = `thread:${THREAD}` as const;
    expect(resolveStateRef(ref)).toMatchObject({ kind: 'thread', ref: THREAD_REF, threadKey: THREAD });
    expect(resolveStateRef(THREAD_REF)).toMatchObject({ kind: 'thread', threadKey: THREAD });
    const written = await writeStateRef({
      dir,
      ref,
      state: { thread_key: THREAD, status: 'running', attempt_count: 2, acpxSessionId: 's-1' },
      expected: null,
      repo: REPO,
    });
    expect(written.status).toBe('written');
    expect(git(dir, ['log', '--format=%s', THREAD_REF])).toBe('agent-state: running/not_attempted (attempt 2)');
    const read = await readStateRef({ dir, ref, repo: REPO });
    expect(read).toMatchObject({
      status: 'found',
      state: {
        thread_key: THREAD,
        status: 'running',
        resume_status: 'not_attempted',
        attempt_count: 2,
        acpxSessionId: 's-1',
      },
    });
    expect(await readStateRef({ dir, ref, repo: 'other/repo' })).toMatchObject({ status: 'ignored_other_repo' });
    // Legacy Sepo status upgraded on read.
    sepoWrite(THREAD_REF, JSON.stringify({ thread_key: THREAD, status: 'resume_failed' }));
    expect(await readStateRef({ dir, ref })).toMatchObject({
      status: 'found',
      state: { status: 'failed', resume_status: 'failed' },
    });
    // A state recorded under the wrong thread's ref is not trusted.
    sepoWrite(THREAD_REF, JSON.stringify({ thread_key: `${REPO}:issue:7:implement:default` }));
    expect(await readStateRef({ dir, ref })).toMatchObject({ status: 'invalid', reason: 'invalid_state' });
    fsckStrict(dir);
  });

  it('refuses bad ref names, bad expected ids and invalid states with errors naming the problem; nothing is written', async () => {
    expect(await codeOf(() => readStateRef({ dir, ref: 'cursor' as 'sync' }))).toMatch(
      /^INVALID_ARGUMENT: unknown state ref "cursor": expected sync, scan or thread:/,
    );
    expect(await codeOf(() => readStateRef({ dir, ref: 'thread:' }))).toMatch(/needs a thread key/);
    expect(await codeOf(() => readStateRef({ dir, ref: 'thread:octo/memory:issue:x:implement:default' }))).toMatch(
      /^INVALID_ARGUMENT: invalid thread key/,
    );
    expect(await codeOf(() => readStateRef({ dir, ref: 'sync', repo: 'not a slug' }))).toMatch(
      /repo must be "owner\/repo"/,
    );
    expect(await codeOf(() => writeStateRef({ dir, ref: 'sync', state: syncState(), expected: 'HEAD' }))).toMatch(
      /^INVALID_ARGUMENT: expected must be the 40-hex commit id/,
    );
    expect(
      await codeOf(() =>
        writeStateRef({ dir, ref: 'sync', state: syncState({ last_sync_at: 'yesterday' }), expected: null }),
      ),
    ).toMatch(/^INVALID_ARGUMENT: invalid sync state for refs\/agent-memory-state\/sync: last_sync_at: /);
    expect(
      await codeOf(() =>
        writeStateRef({
          dir,
          ref: `thread:${THREAD}`,
          state: { thread_key: THREAD, status: 'sleeping' },
          expected: null,
        }),
      ),
    ).toMatch(/invalid thread state .*status/);
    expect(
      await codeOf(() =>
        writeStateRef({
          dir,
          ref: `thread:${THREAD}`,
          state: { thread_key: `${REPO}:issue:1:implement:default` },
          expected: null,
        }),
      ),
    ).toMatch(/has thread_key/);
    expect(git(dir, ['for-each-ref', '--format=%(refname)'])).toBe('');
    expect(await codeOf(() => readStateRef({ dir: `${dir}/missing`, ref: 'sync' }))).toMatch(
      /^NOT_FOUND: not a git repository/,
    );
  });
});
