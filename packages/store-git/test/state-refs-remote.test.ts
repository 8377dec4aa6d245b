import { execFileSync } from 'node:child_process';
import { isRepomemError } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fetchStateRef, pushStateRef, readStateRef, writeStateRef } from '../src/index.js';
import { type RemoteFixture, startRemoteFixture } from './support/git-http-server.js';
import { fsckStrict, git, gitAsync, gitEnv } from './support.js';

const REPO = 'octo/memory';
const SYNC_REF = 'refs/agent-memory-state/sync';
let remote: RemoteFixture;

beforeEach(async () => {
  remote = await startRemoteFixture();
});
afterEach(async () => {
  await remote.dispose();
});

function state(run: string): Record<string, unknown> {
  return { repo_slug: REPO, last_sync_at: '2025-03-01T10:00:00Z', last_run_url: `https://example.com/run/${run}` };
}

function bareRef(ref: string): string | null {
  try {
    return execFileSync('git', ['--git-dir', remote.bare, 'rev-parse', '--verify', '-q', ref], { env: gitEnv })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

async function write(dir: string, run: string, expected: string | null): Promise<string> {
  const result = await writeStateRef({ dir, ref: 'sync', state: state(run), expected, repo: REPO });
  if (result.status !== 'written') throw new Error(`expected written, got ${result.status}`);
  return result.commit;
}

describe('state refs on the remote, with lease semantics', () => {
  it('pushes a state ref, fetches it into another clone, and the git CLI sees it on the server', async () => {
    const a = await remote.clone();
    const b = await remote.clone();
    expect(await fetchStateRef({ dir: b, ref: 'sync' })).toEqual({
      status: 'remote_missing',
      ref: SYNC_REF,
      local: null,
    });
    const first = await write(a, '1', null);
    expect(await pushStateRef({ dir: a, ref: 'sync' })).toEqual({
      status: 'pushed',
      ref: SYNC_REF,
      commit: first,
      previous: null,
    });
    expect(bareRef(SYNC_REF)).toBe(first);
    expect(
      JSON.parse(
        execFileSync('git', ['--git-dir', remote.bare, 'show', `${SYNC_REF}:state.json`], { env: gitEnv }).toString(),
      ),
    ).toMatchObject(state('1'));
    fsckStrict(remote.bare);
    expect(await pushStateRef({ dir: a, ref: 'sync' })).toEqual({ status: 'up_to_date', ref: SYNC_REF, commit: first });
    expect(await fetchStateRef({ dir: b, ref: 'sync' })).toEqual({
      status: 'fetched',
      ref: SYNC_REF,
      commit: first,
      previous: null,
    });
    expect(await readStateRef({ dir: b, ref: 'sync', repo: REPO })).toMatchObject({
      status: 'found',
      commit: first,
      state: state('1'),
    });
    // b builds on what it fetched and pushes: the lease (the fetched id) still holds.
    const second = await write(b, '2', first);
    expect(await pushStateRef({ dir: b, ref: 'sync' })).toEqual({
      status: 'pushed',
      ref: SYNC_REF,
      commit: second,
      previous: first,
    });
    expect(await fetchStateRef({ dir: a, ref: 'sync' })).toMatchObject({
      status: 'fetched',
      commit: second,
      previous: first,
    });
    expect(await fetchStateRef({ dir: a, ref: 'sync' })).toMatchObject({ status: 'up_to_date', commit: second });
    // The git CLI fetches it too.
    expect((await gitAsync(a, ['fetch', '-q', 'origin', `+${SYNC_REF}:refs/check/sync`])).code).toBe(0);
    expect(git(a, ['rev-parse', 'refs/check/sync'])).toBe(second);
  });

  it('a push whose lease no longer holds is lease_broken and leaves the remote as it was', async () => {
    const a = await remote.clone();
    const b = await remote.clone();
    const base = await write(a, 'base', null);
    await pushStateRef({ dir: a, ref: 'sync' });
    await fetchStateRef({ dir: b, ref: 'sync' });
    const fromA = await write(a, 'a', base);
    const fromB = await write(b, 'b', base);
    expect(await pushStateRef({ dir: a, ref: 'sync' })).toMatchObject({ status: 'pushed', commit: fromA });
    expect(await pushStateRef({ dir: b, ref: 'sync' })).toEqual({
      status: 'lease_broken',
      ref: SYNC_REF,
      commit: fromB,
      expected: base,
      actual: fromA,
    });
    expect(bareRef(SYNC_REF)).toBe(fromA);
    // A lease given explicitly is honoured too (and may be "must not exist").
    expect(await pushStateRef({ dir: b, ref: 'sync', lease: null })).toMatchObject({
      status: 'lease_broken',
      actual: fromA,
    });
    // The loser recovers the Sepo way: fetch, re-apply its change, write, push.
    await fetchStateRef({ dir: b, ref: 'sync' });
    const redone = await write(b, 'b', fromA);
    expect(await pushStateRef({ dir: b, ref: 'sync' })).toMatchObject({
      status: 'pushed',
      commit: redone,
      previous: fromA,
    });
    expect(bareRef(SYNC_REF)).toBe(redone);
    fsckStrict(remote.bare);
  });

  it('a new state never overwrites one created concurrently on the remote', async () => {
    const a = await remote.clone();
    const b = await remote.clone();
    await write(a, 'a', null);
    await write(b, 'b', null);
    const pushed = await pushStateRef({ dir: a, ref: 'sync' });
    expect(pushed.status).toBe('pushed');
    expect(await pushStateRef({ dir: b, ref: 'sync' })).toMatchObject({ status: 'lease_broken', expected: null });
    expect(bareRef(SYNC_REF)).toBe(pushed.status === 'pushed' ? pushed.commit : '');
  });

  it('thread state refs travel the same way', async () => {
    const a = await remote.clone();
    const thread = `${REPO}:pull_request:7:review:default`;
    const written = await writeStateRef({
      dir: a,
      ref: `thread:${thread}`,
      state: { thread_key: thread },
      expected: null,
    });
    expect(written.status).toBe('written');
    expect(await pushStateRef({ dir: a, ref: `thread:${thread}` })).toMatchObject({ status: 'pushed' });
    expect(bareRef('refs/agent-state/octo%2Fmemory--pull_request--7--review--default')).not.toBeNull();
  });

  it('bad input: missing local ref, malformed lease, unknown ref name', async () => {
    const a = await remote.clone();
    const code = async (action: () => Promise<unknown>): Promise<string> => {
      try {
        await action();
        return 'no error';
      } catch (error) {
        return isRepomemError(error) ? `${error.code}: ${error.message}` : String(error);
      }
    };
    expect(await code(() => pushStateRef({ dir: a, ref: 'scan' }))).toMatch(
      /^NOT_FOUND: refs\/agent-memory-state\/scan does not exist/,
    );
    await write(a, '1', null);
    expect(await code(() => pushStateRef({ dir: a, ref: 'sync', lease: 'main' }))).toMatch(
      /^INVALID_ARGUMENT: lease must be/,
    );
    expect(await code(() => fetchStateRef({ dir: a, ref: 'syncs' as 'sync' }))).toMatch(
      /^INVALID_ARGUMENT: unknown state ref/,
    );
    expect(bareRef(SYNC_REF)).toBeNull();
  });
});
