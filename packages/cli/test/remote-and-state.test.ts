// Why: `repomem push` and `repomem state` on real repositories: pushes and fetches go through git's
// own smart-HTTP backend on 127.0.0.1 (with a token), two clones pushing in turn lose nothing, and
// state refs are written with compare-and-swap and read back by the git CLI.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBareRepository, type GitHttpServer, startGitHttpServer } from '@repomem/store-git/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, git, jsonOf, makeRepository } from './in-process.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir('repomem-cli-remote-');
const TOKEN = 'secret-token';
let server: GitHttpServer;
let bare: string;

beforeAll(async () => {
  const root = join(temp.path, 'served');
  mkdirSync(root);
  bare = createBareRepository(root, 'memory.git');
  server = await startGitHttpServer({ root, token: TOKEN });
});
afterAll(async () => {
  await server.stop();
  temp.remove();
});

function clone(name: string): string {
  const dir = join(temp.path, name);
  makeRepository(dir, { 'README.md': `# ${name}\n` });
  git(dir, 'remote', 'add', 'origin', server.url('memory.git'));
  return dir;
}

// $GITHUB_TOKEN is sent only to the GitHub server it belongs to: here the loopback test server.
const withToken: Record<string, string> = { GITHUB_TOKEN: TOKEN };
beforeAll(() => {
  withToken.GITHUB_SERVER_URL = server.baseUrl;
});
const bullet = (dir: string, text: string) =>
  cli(['update', 'add', '--store', 'git:.', '--file', 'MEMORY.md', '--section', 'Durable', text], { cwd: dir });

describe('repomem push', () => {
  it('creates the remote branch, fetches it into another clone, and re-applies a clone that fell behind', async () => {
    const a = clone('a');
    const b = clone('b');
    expect((await cli(['bootstrap', '--store', 'git:.'], { cwd: a })).code).toBe(0);

    const denied = await cli(['push', '--store', 'git:.'], { cwd: a });
    expect(denied.code).not.toBe(0);
    const tipA = git(a, 'rev-parse', 'agent/memory').trim();
    expect(denied.stderr).toContain('nothing was lost');

    const first = await cli(['push', '--store', 'git:.', '--json'], { cwd: a, env: withToken });
    expect(first.code).toBe(0);
    expect(jsonOf(first)).toMatchObject({ ok: true, outcome: 'pushed', commit: tipA, previous: null });
    expect(git(bare, 'rev-parse', 'agent/memory').trim()).toBe(tipA);

    const fetched = await cli(['push', '--store', 'git:.'], { cwd: b, env: withToken });
    expect(fetched.stdout).toBe(`fetched ${tipA.slice(0, 12)} from origin (nothing local to push)\n`);

    expect((await bullet(a, 'from clone a')).code).toBe(0);
    expect((await bullet(b, 'from clone b')).code).toBe(0);
    expect((await cli(['push', '--store', 'git:.'], { cwd: a, env: withToken })).stdout).toMatch(
      /^pushed [0-9a-f]{12} to origin\n$/,
    );
    const raced = await cli(['push', '--store', 'git:.', '--json'], { cwd: b, env: withToken });
    expect(raced.code).toBe(0);
    expect(jsonOf(raced)).toMatchObject({ outcome: 'pushed', reapplied: 1 });
    const remoteMemory = git(bare, 'show', 'agent/memory:MEMORY.md');
    expect(remoteMemory).toContain('- from clone a');
    expect(remoteMemory).toContain('- from clone b');
    git(bare, 'fsck', '--strict');

    const upToDate = await cli(['push', '--store', 'git:.'], { cwd: b, env: withToken });
    expect(upToDate.stdout).toMatch(/^up to date: origin holds [0-9a-f]{12}\n$/);
  });

  it('does not send $GITHUB_TOKEN to a remote that is not the GitHub server it belongs to', async () => {
    const dir = clone('foreign');
    expect((await bullet(dir, 'kept locally')).code).toBe(0);
    const pushed = await cli(['push', '--store', 'git:.'], { cwd: dir, env: { GITHUB_TOKEN: TOKEN } });
    expect(pushed.code).not.toBe(0);
    expect(pushed.stderr).toContain('needs a token and none was given');
  });

  it('names a remote that is not configured (nothing changes)', async () => {
    const c = clone('c');
    const result = await cli(['push', '--store', 'git:.', '--remote', 'upstream'], { cwd: c });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('upstream');
    const both = await cli(['push', '--store', 'git:.', '--remote', 'x', '--url', 'http://127.0.0.1:1/x'], { cwd: c });
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/^push takes --remote <name> or --url <url>, not both/);
  });
});

describe('repomem state', () => {
  const syncState = (at: string) =>
    JSON.stringify({
      schema_version: 1,
      repo_slug: 'acme/app',
      last_sync_at: at,
      last_activity_at: at,
      created_at: at,
      updated_at: at,
    });

  it('writes with compare-and-swap, reads back, and ignores another repository', async () => {
    const dir = clone('state');
    const state = (...args: string[]) => cli(['state', ...args, '--store', 'git:.'], { cwd: dir });

    const missing = await state('read', '--ref', 'sync');
    expect(missing).toEqual({
      code: 2,
      stdout: '',
      stderr: 'no state at refs/agent-memory-state/sync (start fresh)\n',
    });

    const written = await state(
      'write',
      '--ref',
      'sync',
      '--repo',
      'acme/app',
      '--expected',
      'none',
      '--state',
      syncState('2026-01-01T00:00:00Z'),
      '--json',
    );
    expect(written.code).toBe(0);
    const first = jsonOf(written) as { outcome: string; commit: string; ref: string };
    expect(first).toMatchObject({ outcome: 'written', ref: 'refs/agent-memory-state/sync', previous: null });
    expect(JSON.parse(git(dir, 'show', 'refs/agent-memory-state/sync:state.json'))).toMatchObject({
      repo_slug: 'acme/app',
    });

    const read = await state('read', '--ref', 'sync', '--repo', 'acme/app');
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout)).toMatchObject({ repo_slug: 'acme/app', last_sync_at: '2026-01-01T00:00:00Z' });

    const stale = await state(
      'write',
      '--ref',
      'sync',
      '--expected',
      'none',
      '--state',
      syncState('2026-01-02T00:00:00Z'),
    );
    expect(stale.code).toBe(2);
    expect(stale.stderr).toMatch(/^not written: refs\/agent-memory-state\/sync is at [0-9a-f]{12}, expected absent/);
    expect(git(dir, 'rev-parse', 'refs/agent-memory-state/sync').trim()).toBe(first.commit);

    const next = await state(
      'write',
      '--ref',
      'sync',
      '--expected',
      first.commit,
      '--state',
      syncState('2026-01-02T00:00:00Z'),
    );
    expect(next.stdout).toMatch(/^wrote refs\/agent-memory-state\/sync at [0-9a-f]{12}\n$/);

    const other = await state('read', '--ref', 'sync', '--repo', 'acme/other', '--json');
    expect(other.code).toBe(2);
    expect(jsonOf(other)).toMatchObject({ ok: false, outcome: 'ignored_other_repo', repoSlug: 'acme/app' });
  });

  it("never replaces another repository's state, says whose state a read without a repository got, and never echoes a --file", async () => {
    const dir = clone('state-two');
    const state = (...args: string[]) => cli(['state', ...args, '--store', 'git:.'], { cwd: dir });
    const ofRepo = (repo: string) => syncState('2025-03-01T10:00:00Z').replace('acme/app', repo);
    expect((await state('write', '--ref', 'sync', '--repo', 'owner/a', '--state', ofRepo('owner/a'))).code).toBe(0);
    const tip = git(dir, 'rev-parse', 'refs/agent-memory-state/sync').trim();
    const other = await state('write', '--ref', 'sync', '--repo', 'owner/b', '--state', ofRepo('owner/b'));
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain("refusing to replace owner/a's state");
    expect(git(dir, 'rev-parse', 'refs/agent-memory-state/sync').trim()).toBe(tip);

    const unnamed = await cli(['state', 'read', '--ref', 'sync', '--store', 'git:.'], {
      cwd: dir,
      env: { GITHUB_REPOSITORY: '' },
    });
    expect(unnamed.code).toBe(0);
    expect(unnamed.stderr).toContain('this is the state of owner/a');

    const secretFile = join(dir, 'not-json.txt');
    writeFileSync(secretFile, 'root:x:0:0:hunter2-secret-line\n');
    const bad = await state('write', '--ref', 'sync', '--file', secretFile);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('not JSON');
    expect(bad.stderr).not.toContain('root:x');
    expect(bad.stderr).not.toContain('hunter2');
  });

  it('refuses bad input before writing anything', async () => {
    const dir = clone('state-bad');
    const state = (...args: string[]) => cli(['state', ...args, '--store', 'git:.'], { cwd: dir });
    const cases: [string[], string][] = [
      [['read'], '--ref sync|scan|thread:<key> is required for state read'],
      [['delete', '--ref', 'sync'], 'unknown state subcommand: delete'],
      [['write', '--ref', 'sync'], 'state write needs exactly one of --state <json> or --file <path>'],
      [['write', '--ref', 'sync', '--state', '{not json'], 'invalid --state: not JSON'],
      [['write', '--ref', 'sync', '--state', '{}', '--expected', 'HEAD'], 'invalid --expected "HEAD"'],
      [['write', '--ref', 'bogus', '--state', '{}'], 'bogus'],
      [['write', '--ref', 'sync', '--state', '{"repo_slug": 3}'], 'repo_slug'],
    ];
    for (const [args, message] of cases) {
      const result = await state(...args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toContain(message);
    }
    expect(git(dir, 'for-each-ref', 'refs/agent-memory-state', 'refs/agent-state')).toBe('');
  });
});
