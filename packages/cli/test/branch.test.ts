// Why: the git branch commands through `runCli` on real repositories built with the git CLI:
// bootstrap (refused when the branch exists), init, history with trailers, checkpoints (object
// mode and from a mount), mount/commit with the secret gate, and the git CLI reading the result.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { cli, git, jsonOf, makeRepository } from './in-process.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir('repomem-cli-branch-');
afterAll(() => temp.remove());

let counter = 0;
let work: string;
let repo: string;
const run = (...args: string[]) => cli(args, { cwd: work });
const STORE = ['--store', 'git:repo'];

beforeEach(() => {
  counter += 1;
  work = join(temp.path, `case${counter}`);
  repo = join(work, 'repo');
  makeRepository(repo, { 'README.md': '# app\n' });
});

describe('bootstrap and init', () => {
  it('creates the branch once; a second bootstrap is refused (exit 2); init adds missing seeds', async () => {
    const created = await run('bootstrap', ...STORE, '--json');
    expect(created.code).toBe(0);
    const json = jsonOf(created) as { outcome: string; branch: string; commit: string; files: string[] };
    expect(json).toMatchObject({
      ok: true,
      outcome: 'created',
      branch: 'agent/memory',
      ref: 'refs/heads/agent/memory',
    });
    expect(json.files).toContain('MEMORY.md');
    expect(git(repo, 'rev-parse', 'agent/memory').trim()).toBe(json.commit);
    git(repo, 'fsck', '--strict');

    const again = await run('bootstrap', ...STORE);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^branch agent\/memory already exists/);
    expect(git(repo, 'rev-parse', 'agent/memory').trim()).toBe(json.commit);

    const init = await run('init', ...STORE);
    expect(init).toEqual({
      code: 0,
      stdout: `memory tree already initialised in git:${repo} (nothing created)\n`,
      stderr: '',
    });
    const other = await run('bootstrap', '--store', 'git:repo#team/memory');
    expect(other.stdout).toMatch(/^created branch team\/memory at [0-9a-f]{12} \(\d+ seeded files\)\n$/);
  });

  it('needs a git store and an existing repository', async () => {
    const noStore = await run('bootstrap');
    expect(noStore.code).toBe(1);
    expect(noStore.stderr).toMatch(
      /^bootstrap needs a git store: --store git:<repo-dir>\[#<branch>\] or \$REPOMEM_STORE \(no git store named\)/,
    );
    const sqlite = await run('history', '--store', 'sqlite:x.db');
    expect(sqlite.code).toBe(1);
    expect(sqlite.stderr).toContain(`sqlite:${work}/x.db is not a git store`);
    expect(existsSync(join(work, 'x.db'))).toBe(false);
    const missing = await run('history', '--store', 'git:nowhere');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`store not found: git:${work}/nowhere`);
    const viaEnv = await cli(['history'], { cwd: work, env: { REPOMEM_STORE: 'git:repo' } });
    expect(viaEnv).toEqual({ code: 0, stdout: `no revisions in git:${repo}\n`, stderr: '' });
  });
});

describe('history and checkpoints', () => {
  it('lists revisions newest first, per path, with trailers; checkpoints commit changes only', async () => {
    await run('bootstrap', ...STORE);
    const add = await run('update', 'add', ...STORE, '--file', 'MEMORY.md', '--section', 'Durable', 'Use pnpm');
    expect(add.code).toBe(0);
    await run('update', 'daily-append', ...STORE, 'did a thing');

    const all = await run('history', ...STORE);
    const lines = all.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^[0-9a-f]{12} {2}\d{4}-\d\d-\d\dT[\d:.]+Z {2}chore\(memory\): bootstrap memory branch$/);
    const memory = jsonOf(await run('history', 'MEMORY.md', ...STORE, '--json')) as {
      count: number;
      path: string;
      revisions: { message: string }[];
    };
    expect(memory).toMatchObject({ ok: true, outcome: 'history', path: 'MEMORY.md', count: 2 });
    expect(memory.revisions.map((revision) => revision.message)).toEqual([
      expect.stringContaining('MEMORY.md'),
      'chore(memory): bootstrap memory branch',
    ]);
    expect((await run('history', ...STORE, '--limit', '1')).stdout.trim().split('\n')).toHaveLength(1);

    const noop = await run('checkpoint', 'nothing', 'new', ...STORE, '--json');
    expect(noop.code).toBe(0);
    expect(jsonOf(noop)).toMatchObject({ ok: true, outcome: 'nothing_to_commit', note: 'nothing new' });

    const into = join(work, 'mount');
    expect((await run('mount', '--into', 'mount', ...STORE)).stdout).toMatch(
      /^mounted [0-9a-f]{12} into .*mount \(\d+ written, 0 removed\)\n$/,
    );
    writeFileSync(join(into, 'MEMORY.md'), `${readFileSync(join(into, 'MEMORY.md'), 'utf8')}- checkpointed bullet\n`);
    const checkpoint = await run('checkpoint', 'before', 'refactor', '--into', 'mount', '--trailer', 'Task-Id=42');
    expect(checkpoint.code).toBe(0);
    expect(checkpoint.stdout).toMatch(
      /^checkpoint [0-9a-f]{12} from .*mount \(1 changed\)\n {2}modified MEMORY\.md\n$/,
    );
    expect(git(repo, 'log', '-1', '--format=%s%n%(trailers:key=Task-Id,valueonly)', 'agent/memory').trim()).toBe(
      'checkpoint: before refactor\n42',
    );
    const top = jsonOf(await run('history', ...STORE, '--limit', '1', '--json')) as {
      revisions: { trailers: object }[];
    };
    expect(top.revisions[0]?.trailers).toEqual({ 'Task-Id': '42' });
  });
});

describe('mount and commit', () => {
  it('commits a mount edit, skips secrets with a warning, and makes no empty commit', async () => {
    await run('bootstrap', ...STORE);
    const mounted = await run('mount', '--into', 'm', ...STORE, '--json');
    expect(jsonOf(mounted)).toMatchObject({ ok: true, outcome: 'mounted', fresh: true });
    const into = join(work, 'm');
    mkdirSync(join(into, 'notes'), { recursive: true });
    writeFileSync(join(into, 'notes', 'a.md'), 'note\n');
    writeFileSync(join(into, '.env'), 'TOKEN=secret\n');

    // The semantic CLI works in the mount.
    expect(
      (await run('update', 'add', '--dir', 'm', '--file', 'MEMORY.md', '--section', 'Durable', 'mounted edit')).code,
    ).toBe(0);

    const committed = await run(
      'commit',
      '--into',
      'm',
      '-m',
      'chore(memory): agent edits',
      '--trailer',
      'Thread-Key=abc',
    );
    expect(committed.code).toBe(0);
    expect(committed.stderr).toBe(
      'warning: skipped .env: looks like a secret (matches .env); secrets are never committed\n',
    );
    expect(committed.stdout).toContain('  added notes/a.md\n');
    expect(committed.stdout).toContain('  modified MEMORY.md\n');
    expect(git(repo, 'show', 'agent/memory:MEMORY.md')).toContain('- mounted edit');
    expect(() => git(repo, 'show', 'agent/memory:.env')).toThrow();
    expect(git(repo, 'log', '-1', '--format=%s', 'agent/memory').trim()).toBe('chore(memory): agent edits');
    git(repo, 'fsck', '--strict');

    const tip = git(repo, 'rev-parse', 'agent/memory').trim();
    const nothing = await run('commit', '--into', 'm', '--json');
    expect(nothing.code).toBe(0);
    expect(jsonOf(nothing)).toMatchObject({ ok: true, outcome: 'nothing_to_commit' });
    expect(git(repo, 'rev-parse', 'agent/memory').trim()).toBe(tip);
  });

  it('refuses to mount a missing branch and to commit a directory that is not a mount (exit 2)', async () => {
    const missing = await run('mount', '--into', 'm', ...STORE);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('agent/memory');
    mkdirSync(join(work, 'plain'));
    const notMount = await run('commit', '--into', 'plain');
    expect(notMount.code).toBe(2);
    expect(notMount.stdout).toBe('');
  });
});
