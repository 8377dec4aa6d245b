// Why: `update`, `search` and `init` on every kind of store, through `runCli` with real temp
// directories, SQLite files and git repositories: the embedded default created on first write,
// `--store sqlite:`/`git:`, `$REPOMEM_STORE`, repository scopes, the git CLI reading what was
// written, and bad specs that fail clearly and create nothing.
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliResult, cli, git, jsonOf, makeRepository } from './in-process.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir('repomem-cli-stores-');
afterAll(() => temp.remove());
let counter = 0;

/** A fresh empty directory under the temp root. */
function freshDir(): string {
  counter += 1;
  const dir = join(temp.path, `w${counter}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

const add = (text: string, ...extra: string[]) => [
  'update',
  'add',
  '--file',
  'MEMORY.md',
  '--section',
  'Durable',
  ...extra,
  text,
];

describe('the embedded default store', () => {
  it('is sqlite:.repomem/repomem.db in the working directory, created with its directory on the first write', async () => {
    const cwd = freshDir();
    const searchFirst = await cli(['search', 'pnpm'], { cwd });
    expect(searchFirst.code).toBe(2);
    expect(searchFirst.stderr).toContain(`store not found: sqlite:${cwd}/.repomem/repomem.db`);
    expect(existsSync(join(cwd, '.repomem'))).toBe(false);

    expect(await cli(add('Use pnpm'), { cwd })).toEqual({ code: 0, stdout: 'added bullet to MEMORY.md\n', stderr: '' });
    expect(existsSync(join(cwd, '.repomem', 'repomem.db'))).toBe(true);
    expect(readdirSync(cwd)).toEqual(['.repomem']);

    const found = await cli(['search', '--json', 'pnpm'], { cwd });
    expect(found.code).toBe(0);
    const json = jsonOf(found);
    expect(json).toMatchObject({ query: 'pnpm', store: `sqlite:${cwd}/.repomem/repomem.db`, resultCount: 1 });
    expect(json).not.toHaveProperty('memoryDir');
    expect((json.results as { path: string }[])[0]).toMatchObject({ path: 'MEMORY.md' });
    expect((json.results as Record<string, unknown>[])[0]).not.toHaveProperty('absolutePath');

    const text = await cli(['search', 'pnpm'], { cwd });
    expect(text.stdout).toContain(`Memory search: "pnpm"  (1 file in sqlite:${cwd}/.repomem/repomem.db)`);
    expect(text.stdout).toContain('L4: - Use pnpm');
  });

  it('init seeds it and reports the store', async () => {
    const cwd = freshDir();
    const first = await cli(['init', '--json'], { cwd });
    expect(first.code).toBe(0);
    expect(jsonOf(first)).toMatchObject({ ok: true, store: `sqlite:${cwd}/.repomem/repomem.db` });
    expect(jsonOf(first).created).toContain('MEMORY.md');
    const again = await cli(['init'], { cwd });
    expect(again.stdout).toBe(
      `memory tree already initialised in sqlite:${cwd}/.repomem/repomem.db (nothing created)\n`,
    );
  });

  it('keeps Sepo behaviour when $MEMORY_DIR or --dir is given (no database is created)', async () => {
    const cwd = freshDir();
    mkdirSync(join(cwd, 'mem'));
    expect(await cli(add('via env'), { cwd, env: { MEMORY_DIR: 'mem' } })).toMatchObject({
      code: 0,
      stdout: 'added bullet to mem/MEMORY.md\n',
    });
    expect(await cli(add('via flag', '--dir', 'mem'), { cwd })).toMatchObject({
      stdout: 'added bullet to mem/MEMORY.md\n',
    });
    expect(readFileSync(join(cwd, 'mem', 'MEMORY.md'), 'utf8')).toBe('# Memory\n\n## Durable\n- via env\n- via flag\n');
    expect(existsSync(join(cwd, '.repomem'))).toBe(false);
  });
});

describe('--store sqlite:, $REPOMEM_STORE and repository scopes', () => {
  it('writes and searches a named database; --repo and $GITHUB_REPOSITORY keep repositories apart', async () => {
    const cwd = freshDir();
    const store = ['--store', 'sqlite:data/shared.db'];
    expect((await cli(add('alpha fact', ...store, '--repo', 'acme/alpha'), { cwd })).code).toBe(0);
    expect((await cli(add('beta fact', ...store), { cwd, env: { GITHUB_REPOSITORY: 'acme/beta' } })).code).toBe(0);
    expect((await cli(add('default fact', ...store), { cwd })).code).toBe(0);

    const search = async (repoArgs: string[], env: Record<string, string> = {}) =>
      jsonOf(await cli(['search', '--json', ...store, ...repoArgs, 'fact'], { cwd, env })).resultCount;
    expect(await search(['--repo', 'acme/alpha'])).toBe(1);
    const alpha = await cli(['search', ...store, '--repo', 'acme/alpha', 'fact'], { cwd });
    expect(alpha.stdout).toContain('alpha fact');
    expect(alpha.stdout).not.toContain('beta fact');
    const beta = await cli(['search', ...store, 'fact'], { cwd, env: { GITHUB_REPOSITORY: 'acme/beta' } });
    expect(beta.stdout).toContain('beta fact');
    expect(beta.stdout).not.toContain('alpha fact');
    const local = await cli(['search', ...store, 'fact'], { cwd });
    expect(local.stdout).toContain('default fact');
    expect(local.stdout).not.toMatch(/alpha fact|beta fact/);
    expect(existsSync(join(cwd, 'data', 'shared.db'))).toBe(true);
  });

  it('uses $REPOMEM_STORE when no flag names a store, and flags beat it', async () => {
    const cwd = freshDir();
    const env = { REPOMEM_STORE: 'sqlite:env.db' };
    expect((await cli(add('from env store'), { cwd, env })).stdout).toBe('added bullet to MEMORY.md\n');
    expect(existsSync(join(cwd, 'env.db'))).toBe(true);
    expect((await cli(['search', 'env', 'store'], { cwd, env })).stdout).toContain('from env store');
    mkdirSync(join(cwd, 'm'));
    expect((await cli(add('flag wins', '--dir', 'm'), { cwd, env })).stdout).toBe('added bullet to m/MEMORY.md\n');
    expect((await cli(add('store flag wins', '--store', 'dir:m'), { cwd, env })).stdout).toBe(
      'added bullet to m/MEMORY.md\n',
    );
  });

  it('update --json names the store', async () => {
    const cwd = freshDir();
    const result = await cli(add('x', '--json', '--store', 'sqlite:a.db'), { cwd });
    expect(jsonOf(result)).toMatchObject({
      ok: true,
      outcome: 'added',
      path: 'MEMORY.md',
      documentPath: 'MEMORY.md',
      store: `sqlite:${cwd}/a.db`,
    });
  });
});

describe('--store git:', () => {
  it('update, search and init on a branch, read back by the git CLI; the checkout is untouched', async () => {
    const cwd = freshDir();
    const repo = join(cwd, 'repo');
    makeRepository(repo, { 'src/app.ts': 'export {};\n' });
    const store = ['--store', 'git:repo'];
    const init = await cli(['init', ...store, '--json'], { cwd });
    expect(init.code).toBe(0);
    expect(jsonOf(init)).toMatchObject({ ok: true, store: `git:${repo}` });
    expect(await cli(add('Run the linter first', ...store), { cwd })).toEqual({
      code: 0,
      stdout: 'added bullet to MEMORY.md\n',
      stderr: '',
    });
    expect(git(repo, 'show', 'agent/memory:MEMORY.md')).toContain('- Run the linter first\n');
    expect(git(repo, 'log', '--format=%s', 'agent/memory')).toMatch(/^chore\(memory\): .*MEMORY\.md/);
    git(repo, 'fsck', '--strict');
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(git(repo, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');

    const found = await cli(['search', ...store, 'linter'], { cwd });
    expect(found.code).toBe(0);
    expect(found.stdout).toContain(`(1 file in git:${repo})`);
    expect(found.stdout).toContain('- Run the linter first');

    // Another branch of the same repository is another store.
    const other = await cli(['search', '--store', 'git:repo#agent/other', 'linter'], { cwd });
    expect(other.stdout).toContain('_No matches found._');
  });

  it('refuses a bad branch name and a directory that is not a repository, writing nothing', async () => {
    const cwd = freshDir();
    const repo = join(cwd, 'repo');
    makeRepository(repo, { 'a.txt': 'a\n' });
    const refs = git(repo, 'for-each-ref');
    const badBranch = await cli(add('x', '--store', 'git:repo#bad..name'), { cwd });
    expect(badBranch.code).toBe(1);
    expect(badBranch.stderr).toMatch(/^invalid store spec "git:.*repo#bad\.\.name": branch "bad\.\.name"/);
    expect(git(repo, 'for-each-ref')).toBe(refs);

    const notRepo = await cli(add('x', '--store', 'git:.'), { cwd });
    expect(notRepo.code).toBe(2);
    expect(notRepo.stderr).toContain(`store not found: git:${cwd}`);
    expect(readdirSync(cwd)).toEqual(['repo']);
  });
});

describe('bad store input fails clearly and creates nothing', () => {
  it.each([
    [['--store', 'bogus:x'], 'invalid store spec "bogus:x": unknown scheme "bogus:"'],
    [['--store', 'sqlite:'], 'invalid store spec "sqlite:": the database path is empty'],
    [['--store', 'nothing'], 'invalid store spec "nothing": no scheme'],
    [['--store', 'dir:m', '--dir', 'm'], '--store and --dir both name a store; give only one'],
    [['--store', 'sqlite:a.db', '--repo', 'not-a-slug'], 'invalid --repo "not-a-slug"'],
  ])('%j exits 1 with the message and usage', async (args, message) => {
    const cwd = freshDir();
    for (const command of [add('x', ...args), ['search', ...args, 'q'], ['init', ...args]]) {
      const result = await cli(command, { cwd });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.startsWith(message)).toBe(true);
      expect(result.stderr).toContain('Usage: repomem');
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('names a bad $REPOMEM_STORE and a bad $GITHUB_REPOSITORY (only for SQLite stores)', async () => {
    const cwd = freshDir();
    const badStore = await cli(['search', 'q'], { cwd, env: { REPOMEM_STORE: 'ftp:x' } });
    expect(badStore.code).toBe(1);
    expect(badStore.stderr).toMatch(/^\$REPOMEM_STORE: invalid store spec "ftp:x"/);
    const badRepo = await cli(add('x'), { cwd, env: { GITHUB_REPOSITORY: 'nope' } });
    expect(badRepo.code).toBe(1);
    expect(badRepo.stderr).toMatch(/^invalid \$GITHUB_REPOSITORY "nope"/);
    expect(readdirSync(cwd)).toEqual([]);
    mkdirSync(join(cwd, 'm'));
    expect((await cli(add('x', '--dir', 'm'), { cwd, env: { GITHUB_REPOSITORY: 'nope' } })).code).toBe(0);
  });

  it('an unknown scheme names the schemes the registry knows, also with --store before the command', async () => {
    const cwd = freshDir();
    const known = 'known: agentcore:, dir:, dynamodb:, git:, postgres:, postgresql:, sqlite:';
    for (const args of [
      ['--store', 'nosuch:x', 'search', 'q'],
      ['--store=nosuch:x', 'search', 'q'],
      ['search', '--store', 'nosuch:x', 'q'],
    ]) {
      const result = await cli(args, { cwd });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.startsWith(`invalid store spec "nosuch:x": unknown scheme "nosuch:" (${known})\n\n`)).toBe(
        true,
      );
      expect(result.stderr).toContain('Usage: repomem search');
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('never shows the password of a URL spec, whatever names it and however the error is printed', async () => {
    const cwd = freshDir();
    const spec = 'postgres://user:secret@host/db';
    const runs = [
      await cli(['search', '--store', spec, 'q'], { cwd }),
      await cli(['--store', spec, 'search', '--json', 'q'], { cwd }),
      await cli(add('x', '--store', spec), { cwd }),
      await cli(['memories', 'stats', '--store', spec], { cwd }),
      await cli(['search', 'q'], { cwd, env: { REPOMEM_STORE: spec } }),
      await cli(['search', '--json', 'q'], { cwd, env: { REPOMEM_STORE: spec } }),
      await cli(['history', '--store', spec], { cwd }),
    ];
    for (const result of runs) {
      expect(result.code).toBe(1);
      expect(`${result.stdout}${result.stderr}`).not.toContain('secret');
      // The CLI ships the PostgreSQL store: the message names the unreachable server, not the password.
      expect(`${result.stdout}${result.stderr}`).toContain('host:5432');
    }
    expect(jsonOf(runs[1] as CliResult)).toMatchObject({ ok: false, outcome: 'error', code: 'BACKEND_UNAVAILABLE' });
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('a --json failure is one JSON object', async () => {
    const cwd = freshDir();
    const result = await cli(['search', '--json', '--store', 'x:y', 'q'], { cwd });
    expect(result.code).toBe(1);
    expect(jsonOf(result)).toMatchObject({ ok: false, outcome: 'error', code: 'INVALID_ARGUMENT' });
  });
});
