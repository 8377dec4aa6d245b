import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { isRepomemError, type RepomemError } from '@repomem/core';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchMemoryBranch, openGitStore, pushMemoryBranch, syncMemoryBranch } from '../src/index.js';
import { type RemoteFixture, startRemoteFixture } from './support/git-http-server.js';
import { freshDirectory, freshRepository, git, gitEnv, removeDirectory, utf8 } from './support.js';

const BRANCH = 'agent/memory';
const cleanup: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function fixture(options: { token?: string } = {}): Promise<RemoteFixture> {
  const made = await startRemoteFixture(options);
  cleanup.push(() => made.dispose());
  return made;
}

async function repository(): Promise<string> {
  const dir = await freshRepository();
  cleanup.push(() => removeDirectory(dir));
  return dir;
}

/** A local branch with one commit; returns its id. */
async function commitLocally(dir: string): Promise<string> {
  const store = await openGitStore({ dir });
  const result = await store.commitWith([{ kind: 'put', path: 'MEMORY.md', content: utf8('# Memory\n- keep me\n') }]);
  await store.close();
  if (result.status !== 'committed') throw new Error('expected a commit');
  return result.revision;
}

async function caught(action: () => Promise<unknown>): Promise<RepomemError> {
  try {
    await action();
  } catch (error) {
    if (isRepomemError(error)) return error;
    throw error;
  }
  throw new Error('expected a RepomemError');
}

/** A loopback port nobody listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('remote sync: bad input and failures lose nothing', () => {
  it('an unreachable remote fails with BACKEND_UNAVAILABLE naming the remote; the local commit is kept', async () => {
    const dir = await repository();
    const port = await closedPort();
    git(dir, ['remote', 'add', 'origin', `http://127.0.0.1:${port}/memory.git`]);
    const commit = await commitLocally(dir);
    const error = await caught(() => syncMemoryBranch({ dir }));
    expect(error.code).toBe('BACKEND_UNAVAILABLE');
    expect(error.message).toContain('cannot reach remote origin');
    expect(error.message).toContain(`local commit ${commit}`);
    expect(error.message).toContain('is kept');
    expect(error.details).toMatchObject({ remote: 'origin', reason: 'unreachable', localCommit: commit });
    expect(git(dir, ['rev-parse', BRANCH])).toBe(commit);
    const push = await caught(() => pushMemoryBranch({ dir }));
    expect(push.code).toBe('BACKEND_UNAVAILABLE');
    expect(git(dir, ['rev-parse', BRANCH])).toBe(commit);
  });

  it('a rejected or missing token is an authentication failure; the right token works', async () => {
    const remote = await fixture({ token: 's3cret' });
    const dir = await remote.clone();
    const commit = await commitLocally(dir);
    const wrong = await caught(() => syncMemoryBranch({ dir, token: 'nope' }));
    expect(wrong.code).toBe('BACKEND_UNAVAILABLE');
    expect(wrong.message).toMatch(/authentication failed for remote origin .*HTTP 401; the token was rejected/);
    expect(wrong.message).toContain(`local commit ${commit}`);
    expect(wrong.details).toMatchObject({ reason: 'authentication_failed', status: 401 });
    const missing = await caught(() => fetchMemoryBranch({ dir }));
    expect(missing.message).toMatch(/authentication failed .*needs a token and none was given/);
    expect(git(dir, ['rev-parse', BRANCH])).toBe(commit);
    expect(await syncMemoryBranch({ dir, token: 's3cret' })).toMatchObject({ status: 'pushed', commit });
    expect(
      execFileSync('git', ['--git-dir', remote.bare, 'rev-parse', BRANCH], { env: gitEnv }).toString().trim(),
    ).toBe(commit);
  });

  it('a remote name that is not configured is NOT_FOUND naming it', async () => {
    const dir = await repository();
    const commit = await commitLocally(dir);
    const error = await caught(() => syncMemoryBranch({ dir, remote: 'upstream' }));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain('remote "upstream" is not configured');
    const origin = await caught(() => fetchMemoryBranch({ dir }));
    expect(origin.code).toBe('NOT_FOUND');
    expect(origin.message).toContain('"origin"');
    expect(git(dir, ['rev-parse', BRANCH])).toBe(commit);
  });

  it('a repository missing on the server is NOT_FOUND; a non-HTTP remote is UNSUPPORTED; a bad name or URL is INVALID_ARGUMENT', async () => {
    const remote = await fixture();
    const dir = await repository();
    const commit = await commitLocally(dir);
    const absent = await caught(() => syncMemoryBranch({ dir, url: remote.server.url('nothing-here.git') }));
    expect(absent.code).toBe('NOT_FOUND');
    expect(absent.message).toContain('no git repository at');
    git(dir, ['remote', 'add', 'ssh', 'git@example.com:o/r.git']);
    const ssh = await caught(() => syncMemoryBranch({ dir, remote: 'ssh' }));
    expect(ssh.code).toBe('UNSUPPORTED');
    expect(ssh.message).toContain('only http:// and https:// remotes are supported');
    expect((await caught(() => syncMemoryBranch({ dir, remote: 'bad name' }))).code).toBe('INVALID_ARGUMENT');
    expect((await caught(() => syncMemoryBranch({ dir, url: 'not a url' }))).code).toBe('INVALID_ARGUMENT');
    expect((await caught(() => syncMemoryBranch({ dir, token: '' }))).code).toBe('INVALID_ARGUMENT');
    expect((await caught(() => syncMemoryBranch({ dir, retries: -1 }))).code).toBe('INVALID_ARGUMENT');
    expect((await caught(() => syncMemoryBranch({ dir, branch: 'bad..name' }))).code).toBe('INVALID_ARGUMENT');
    expect(git(dir, ['rev-parse', BRANCH])).toBe(commit);
  });

  it('a directory that is not a repository is NOT_FOUND', async () => {
    const dir = await freshDirectory();
    cleanup.push(() => removeDirectory(dir));
    const error = await caught(() => syncMemoryBranch({ dir, url: 'http://127.0.0.1:1/x.git' }));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain('not a git repository');
  });

  it('pushing a branch that does not exist locally is NOT_FOUND', async () => {
    const remote = await fixture();
    const dir = await remote.clone();
    const error = await caught(() => pushMemoryBranch({ dir }));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain('branch agent/memory does not exist');
    expect(await syncMemoryBranch({ dir })).toEqual({ status: 'up_to_date', commit: null });
  });

  it('a server hook that refuses the push fails clearly without retrying forever; the local commit is kept', async () => {
    const remote = await fixture();
    const hook = join(remote.bare, 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\necho "memory is frozen" >&2\nexit 1\n');
    chmodSync(hook, 0o755);
    const dir = await remote.clone();
    const commit = await commitLocally(dir);
    const error = await caught(() => syncMemoryBranch({ dir, minRetryDelayMs: 1, maxRetryDelayMs: 5 }));
    expect(error.code).toBe('BACKEND_UNAVAILABLE');
    expect(error.message).toMatch(/refused to update refs\/heads\/agent\/memory: pre-receive hook declined/);
    expect(error.message).toContain(`local commit ${commit}`);
    expect(git(dir, ['rev-parse', BRANCH])).toBe(commit);
  });
});
