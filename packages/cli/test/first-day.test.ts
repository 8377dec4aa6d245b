// Why: what a first day in a clone trips over, through the built binary in real git clones: the
// repository is named by the `origin` remote (said once on stderr, never in --json stdout, and
// never touching Sepo's --dir commands), the default store is the clone's wherever the command
// runs (`init` in a subdirectory), `learnings list` shows what is stored, and `episode write
// --outcome` records a pull request's outcome in the webhook's order.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteUrlOfConfig, repoSlugOfRemoteUrl } from '../src/git-clone.js';
import { git, makeRepository } from './in-process.js';
import { assertBuilt, cleanEnv, makeTempDir, type RunResult, repomem } from './support.js';

const temp = makeTempDir('repomem-first-day-');
afterAll(() => temp.remove());
beforeAll(() => assertBuilt());

const ORIGIN_NOTICE = /^repomem: repository acme\/shop \(from the origin remote [^\n]+\)\n/;

/** A real clone of a local repository whose origin then points at GitHub (`url`). */
function cloneOf(name: string, url: string): string {
  const upstream = join(temp.path, `${name}-upstream`);
  makeRepository(upstream, { 'README.md': '# shop\n', 'src/deep/index.ts': 'export {};\n' });
  const clone = join(temp.path, name);
  git(temp.path, 'clone', '-q', upstream, clone);
  git(clone, 'remote', 'set-url', 'origin', url);
  return clone;
}

const run = (cwd: string, ...args: string[]): Promise<RunResult> => repomem(args, { cwd });
const SEED = ['update', 'add', '--file', 'MEMORY.md', '--section', 'Durable', 'Run pnpm test before pushing'];

describe('remote URLs', () => {
  it.each([
    ['git@github.com:acme/shop.git', 'acme/shop'],
    ['git@github.com:acme/shop', 'acme/shop'],
    ['github.com:acme/shop.git/', 'acme/shop'],
    ['ssh://git@github.com/acme/shop.git', 'acme/shop'],
    ['ssh://git@ghe.example.com:2222/acme/shop', 'acme/shop'],
    ['https://github.com/acme/shop.git', 'acme/shop'],
    ['https://github.com/acme/shop', 'acme/shop'],
    ['https://x-access-token:secret@ghe.example.com/acme/shop.git', 'acme/shop'],
    ['http://ghe.internal/acme/my.app/', 'acme/my.app'],
    ['git://github.com/acme/shop.git', 'acme/shop'],
    ['/srv/git/shop.git', undefined],
    ['../shop', undefined],
    ['file:///srv/git/acme/shop.git', undefined],
    ['https://gitlab.com/group/sub/shop.git', undefined],
    ['C:\\repos\\shop', undefined],
  ])('%s -> %s', (url, slug) => {
    expect(repoSlugOfRemoteUrl(url)).toBe(slug);
  });

  it('reads the last url of [remote "origin"], quoted or with a comment, never another remote', () => {
    const config = [
      '[core]',
      '\tbare = false',
      '[remote "upstream"]',
      '\turl = git@github.com:other/repo.git',
      '[Remote "origin"]',
      '\turl = git@github.com:old/name.git',
      '\tURL = "git@github.com:acme/shop.git" ; moved',
      '\tfetch = +refs/heads/*:refs/remotes/origin/*',
    ].join('\n');
    expect(remoteUrlOfConfig(config)).toBe('git@github.com:acme/shop.git');
    expect(remoteUrlOfConfig('[remote "Origin"]\n\turl = a:b/c\n')).toBeUndefined();
  });
});

describe('the repository from the origin remote', () => {
  it('scopes a clone of github.com/acme/shop to acme/shop and says so once on stderr', async () => {
    const clone = cloneOf('ssh-clone', 'git@github.com:acme/shop.git');
    const added = await run(clone, ...SEED);
    expect(added.code).toBe(0);
    expect(added.stdout).toBe('added bullet to MEMORY.md\n');
    expect(added.stderr).toMatch(ORIGIN_NOTICE);
    expect(added.stderr.match(/repomem: repository/g)).toHaveLength(1);

    // --json: stdout is the JSON object alone.
    const found = await run(clone, 'search', 'pnpm test', '--json');
    expect(found.code).toBe(0);
    expect(JSON.parse(found.stdout)).toMatchObject({ results: [{ path: 'MEMORY.md' }] });
    expect(found.stderr).toMatch(ORIGIN_NOTICE);

    // The bullet is acme/shop's, not local/default's.
    expect((await run(clone, 'search', 'pnpm test', '--repo', 'acme/shop')).stdout).toContain('MEMORY.md');
    expect((await run(clone, 'search', 'pnpm test', '--repo', 'local/default')).stdout).not.toContain('MEMORY.md');
  });

  it('takes HTTPS and GitHub Enterprise URLs, in a subdirectory and in a linked worktree', async () => {
    const clone = cloneOf('ghe-clone', 'https://ghe.example.com/acme/shop');
    const deep = join(clone, 'src', 'deep');
    expect((await run(deep, ...SEED)).stderr).toMatch(ORIGIN_NOTICE);
    const worktree = join(temp.path, 'ghe-worktree');
    git(clone, 'worktree', 'add', '-q', worktree);
    const listed = await run(worktree, 'learnings', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe('no learnings for acme/shop\n');
    expect(listed.stderr).toMatch(ORIGIN_NOTICE);
  });

  it('a token in the remote URL is never printed', async () => {
    const clone = cloneOf('token-clone', 'https://x-access-token:ghs_notareal0token@github.com/acme/shop.git');
    const listed = await run(clone, 'learnings', 'list');
    expect(listed.stderr).toContain('from the origin remote https://github.com/acme/shop.git;');
    expect(listed.stderr).not.toContain('ghs_');
  });

  it('--repo and $GITHUB_REPOSITORY win, silently; no usable origin is local/default', async () => {
    const clone = cloneOf('env-clone', 'git@github.com:acme/shop.git');
    const withEnv = await repomem(['learnings', 'list'], {
      cwd: clone,
      env: cleanEnv({ GITHUB_REPOSITORY: 'acme/other' }),
    });
    expect(withEnv).toMatchObject({ code: 0, stdout: 'no learnings for acme/other\n', stderr: '' });
    expect(await run(clone, 'learnings', 'list', '--repo', 'a/b')).toMatchObject({ stderr: '' });
    git(clone, 'remote', 'set-url', 'origin', '/srv/git/shop.git');
    expect(await run(clone, 'learnings', 'list')).toMatchObject({
      stdout: 'no learnings for local/default\n',
      stderr: '',
    });
  });

  it("leaves Sepo's --dir commands exactly as they were", async () => {
    const clone = cloneOf('sepo-clone', 'git@github.com:acme/shop.git');
    const outside = join(temp.path, 'not-a-clone');
    mkdirSync(outside);
    for (const cwd of [clone, outside]) {
      expect((await run(cwd, 'init', '--dir', 'memory')).code).toBe(0);
      const added = await run(cwd, 'update', 'add', '--dir', 'memory', ...SEED.slice(2));
      expect(added).toEqual({ code: 0, stdout: 'added bullet to memory/MEMORY.md\n', stderr: '' });
      const found = await run(cwd, 'search', '--dir', 'memory', 'pnpm', '--json');
      expect(found.stderr).toBe('');
      expect(JSON.parse(found.stdout)).toMatchObject({ results: [{ path: 'MEMORY.md' }] });
    }
  });
});

describe('the default store of a clone', () => {
  it('init in a subdirectory uses the clone root; an explicit spec stays relative to the working directory', async () => {
    const clone = cloneOf('init-clone', 'git@github.com:acme/shop.git');
    const deep = join(clone, 'src', 'deep');
    const init = await run(deep, 'init');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(join(clone, '.repomem', 'repomem.db'));
    expect(existsSync(join(clone, '.repomem', 'repomem.db'))).toBe(true);
    expect(existsSync(join(deep, '.repomem'))).toBe(false);
    // The same store from the root: what was added below is found above.
    expect((await run(deep, ...SEED)).code).toBe(0);
    expect((await run(clone, 'search', 'pnpm')).stdout).toContain('MEMORY.md');

    expect((await run(deep, 'init', '--store', 'sqlite:.repomem/own.db')).code).toBe(0);
    expect(existsSync(join(deep, '.repomem', 'own.db'))).toBe(true);
  });
});

describe('repomem learnings list', () => {
  it('lists the active learnings newest first, --all the superseded too, --json the records', async () => {
    const clone = cloneOf('learnings-clone', 'git@github.com:acme/shop.git');
    const add = (text: string) => run(clone, 'learnings', 'add', '--task-id', 't-1', '--text', text);
    expect((await add('**[CI]:** Integration tests need Docker.')).code).toBe(0);
    expect((await add('**[Deploys]:** Deploys need a green staging run.')).code).toBe(0);
    expect((await add('**[CI]:** Integration tests need Docker and 4 GB of memory.')).code).toBe(0);

    const listed = await run(clone, 'learnings', 'list');
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^k-[0-9a-f]{24} {2}\S+ {2}CI: Integration tests need Docker and 4 GB of memory\.$/);
    expect(lines[1]).toContain('Deploys: Deploys need a green staging run.');

    const all = await run(clone, 'learnings', 'list', '--all');
    expect(all.stdout).toMatch(/CI: Integration tests need Docker\. \[superseded by k-[0-9a-f]{24}\]/);

    const json = await run(clone, 'learnings', 'list', '--json', '--limit', '1');
    const parsed = JSON.parse(json.stdout) as { ok: boolean; learnings: { data: { subject: string } }[] };
    expect(parsed.ok).toBe(true);
    expect(parsed.learnings.map((learning) => learning.data.subject)).toEqual(['CI']);
  });
});

describe('repomem episode write --outcome', () => {
  const T1 = '2026-11-01T10:00:00Z';
  const T2 = '2026-11-01T11:00:00Z';
  const T3 = '2026-11-02T09:00:00Z';

  it('records merged as positive and closed as negative, ordered by the state times', async () => {
    const clone = cloneOf('outcome-clone', 'git@github.com:acme/shop.git');
    const write = await run(clone, 'episode', 'write', '--task-id', 't-7', '--status', 'completed', '--pr-number', '7');
    expect(write.code).toBe(0);
    const outcome = (...args: string[]) =>
      run(clone, 'episode', 'write', '--outcome', ...args).then((result) => ({
        ...result,
        // A failure's JSON is on stderr, after the line naming the repository.
        json: JSON.parse(result.code === 0 ? result.stdout : (result.stderr.trimEnd().split('\n').pop() ?? '')),
      }));

    const closed = await outcome('closed', '--pr-number', '7', '--at', T2, '--json');
    expect(closed.json).toMatchObject({ ok: true, outcome: 'negative', stale: [], episodes: [{ id: 't-7' }] });
    expect(closed.json.episodes[0].data).toMatchObject({
      outcome: 'negative',
      outcome_event_at: '2026-11-01T11:00:00.000Z',
    });

    // An older state (a late signal) changes nothing; a newer merge wins.
    const late = await outcome('merged', '--pr-number', '7', '--at', T1, '--json');
    expect(late.json).toMatchObject({ stale: ['t-7'], episodes: [{ data: { outcome: 'negative' } }] });
    const merged = await run(clone, 'episode', 'write', '--outcome', 'merged', '--pr-number', '7', '--at', T3);
    expect(merged).toMatchObject({ code: 0, stdout: 'episode t-7 positive\n' });
    expect((await run(clone, 'episode', 'get', '--task-id', 't-7')).stdout).toContain('"outcome": "positive"');

    const none = await outcome('merged', '--pr-number', '8', '--json');
    expect(none).toMatchObject({ code: 2, stdout: '', json: { ok: false, outcome: 'not_found', pr_number: 8 } });
  });

  it('refuses an unknown outcome, task-end fields, no target and --at without --outcome', async () => {
    const clone = cloneOf('outcome-misuse', 'git@github.com:acme/shop.git');
    const refused = async (...args: string[]) => {
      const result = await run(clone, 'episode', 'write', ...args);
      expect(result.code).toBe(1);
      return result.stderr;
    };
    expect(await refused('--outcome', 'approved', '--pr-number', '7')).toContain('--outcome must be merged or closed');
    expect(await refused('--outcome', 'merged', '--pr-number', '7', '--status', 'completed')).toContain(
      'drop --status',
    );
    expect(await refused('--outcome', 'merged')).toContain('needs --pr-number, --pr-url or --task-id');
    expect(await refused('--outcome', 'merged', '--pr-number', '7', '--at', 'yesterday')).toContain(
      '--at must be an ISO 8601 time',
    );
    expect(await refused('--task-id', 't', '--status', 'completed', '--at', T1)).toContain('--at goes with --outcome');
  });
});
