// Why: commit attribution against the real git: the installed prepare-commit-msg hook adds
// Task-Id and Prompt-Version trailers on commit and merge, never twice on amend or rebase,
// nothing without a task id, runs a hook it replaced, honours core.hooksPath, and uninstall
// puts everything back.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, jsonOf } from './in-process.js';
import { makeTempDir } from './support.js';

let temp: { path: string; remove: () => void };
let repo: string;

function git(env: Record<string, string>, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: repo,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: temp.path,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
      ...env,
    },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const TASK = { REPOMEM_TASK_ID: 'task-42', REPOMEM_PROMPT_VERSION: 'sha256:abc123' };

function commit(env: Record<string, string>, file: string, message: string): void {
  writeFileSync(join(repo, file), `${file} ${Math.random()}\n`);
  git(env, 'add', file);
  git(env, 'commit', '-q', '-m', message);
}

function message(rev = 'HEAD'): string {
  return git({}, 'log', '-1', '--format=%B', rev);
}

function trailers(rev = 'HEAD'): string[] {
  return git({}, 'log', '-1', '--format=%(trailers:only,unfold)', rev)
    .split('\n')
    .filter((line) => line !== '');
}

async function hooks(...args: string[]) {
  return cli(['hooks', ...args, '--json'], { cwd: repo, env: { PATH: process.env.PATH ?? '', HOME: temp.path } });
}

beforeEach(() => {
  temp = makeTempDir('repomem-hooks-');
  repo = join(temp.path, 'repo');
  mkdirSync(repo);
  git({}, 'init', '-q', '-b', 'main');
  commit({}, 'a.txt', 'initial');
});

afterEach(() => temp.remove());

describe('repomem hooks', () => {
  it('adds Task-Id and Prompt-Version trailers while a task id is set, nothing otherwise', async () => {
    const installed = jsonOf(await hooks('install'));
    expect(installed).toMatchObject({ ok: true, outcome: 'installed', chained: null });
    expect(statSync(join(repo, '.git/hooks/prepare-commit-msg')).mode & 0o111).not.toBe(0);
    commit(TASK, 'b.txt', 'Add b');
    expect(trailers()).toEqual(['Task-Id: task-42', 'Prompt-Version: sha256:abc123']);
    expect(message()).toMatch(/^Add b\n\nTask-Id: task-42\nPrompt-Version: sha256:abc123\n/);
    commit({}, 'c.txt', 'Add c');
    expect(trailers()).toEqual([]);
    commit({ REPOMEM_TASK_ID: 'task-43' }, 'd.txt', 'Add d');
    expect(trailers()).toEqual(['Task-Id: task-43']);
    expect(jsonOf(await hooks('install'))).toMatchObject({ outcome: 'unchanged' });
  });

  it('never duplicates a trailer on amend', async () => {
    await hooks('install');
    commit(TASK, 'b.txt', 'Add b');
    git(TASK, 'commit', '-q', '--amend', '--no-edit');
    git(TASK, 'commit', '-q', '--amend', '-m', `${message().trim()}`);
    expect(trailers()).toEqual(['Task-Id: task-42', 'Prompt-Version: sha256:abc123']);
  });

  it('leaves replayed commits alone during a rebase', async () => {
    await hooks('install');
    git({}, 'checkout', '-q', '-b', 'feature');
    commit(TASK, 'b.txt', 'Add b');
    commit(TASK, 'c.txt', 'Add c');
    git({}, 'checkout', '-q', 'main');
    commit({}, 'm.txt', 'Main moves');
    git({}, 'checkout', '-q', 'feature');
    git({ REPOMEM_TASK_ID: 'task-rebase' }, 'rebase', '-q', 'main');
    expect(trailers('HEAD')).toEqual(['Task-Id: task-42', 'Prompt-Version: sha256:abc123']);
    expect(trailers('HEAD~1')).toEqual(['Task-Id: task-42', 'Prompt-Version: sha256:abc123']);
    expect(git({}, 'log', '-1', '--format=%s', 'HEAD~2').trim()).toBe('Main moves');
  });

  it('attributes a merge commit', async () => {
    await hooks('install');
    git({}, 'checkout', '-q', '-b', 'feature');
    commit({}, 'b.txt', 'Add b');
    git({}, 'checkout', '-q', 'main');
    commit({}, 'm.txt', 'Main moves');
    git(TASK, 'merge', '-q', '--no-ff', '--no-edit', 'feature');
    expect(git({}, 'log', '-1', '--format=%p').trim().split(' ')).toHaveLength(2);
    expect(trailers()).toEqual(['Task-Id: task-42', 'Prompt-Version: sha256:abc123']);
  });

  it('refuses a task id a trailer cannot hold, without blocking the commit', async () => {
    await hooks('install');
    commit({ REPOMEM_TASK_ID: 'task-1\nApproved-By: admin' }, 'b.txt', 'Add b');
    expect(trailers()).toEqual([]);
    expect(message()).not.toContain('Approved-By');
  });

  it('chains an existing hook, keeps its failures fatal, and uninstall restores it', async () => {
    const hook = join(repo, '.git/hooks/prepare-commit-msg');
    const original =
      '#!/bin/sh\nif grep -q "^Forbidden" "$1"; then exit 3; fi\nprintf "\\nReviewed-By: team\\n" >> "$1"\n';
    writeFileSync(hook, original);
    chmodSync(hook, 0o755);
    const installed = jsonOf(await hooks('install'));
    expect(installed).toMatchObject({
      outcome: 'installed',
      chained: join(repo, '.git/hooks/prepare-commit-msg.repomem-chained'),
    });
    commit(TASK, 'b.txt', 'Add b');
    expect(trailers()).toEqual(['Reviewed-By: team', 'Task-Id: task-42', 'Prompt-Version: sha256:abc123']);
    writeFileSync(join(repo, 'c.txt'), 'c\n');
    git({}, 'add', 'c.txt');
    expect(() => git(TASK, 'commit', '-q', '-m', 'Forbidden change')).toThrow();
    const removed = jsonOf(await hooks('uninstall'));
    expect(removed).toMatchObject({ outcome: 'restored' });
    expect(readFileSync(hook, 'utf8')).toBe(original);
    expect(statSync(hook).mode & 0o111).not.toBe(0);
    expect(existsSync(`${hook}.repomem-chained`)).toBe(false);
    expect(jsonOf(await hooks('uninstall'))).toMatchObject({ outcome: 'not_installed', other: true });
  });

  it('honours core.hooksPath and removes its hook on uninstall', async () => {
    git({}, 'config', 'core.hooksPath', '.githooks');
    const installed = jsonOf(await hooks('install'));
    expect(installed.hook).toBe(join(repo, '.githooks/prepare-commit-msg'));
    commit(TASK, 'b.txt', 'Add b');
    expect(trailers()).toContain('Task-Id: task-42');
    expect(jsonOf(await hooks('uninstall'))).toMatchObject({ outcome: 'removed' });
    expect(existsSync(join(repo, '.githooks/prepare-commit-msg'))).toBe(false);
    commit(TASK, 'c.txt', 'Add c');
    expect(trailers()).toEqual([]);
  });

  it("never drops lines a team added to repomem's hook: install and uninstall refuse and say why", async () => {
    await hooks('install');
    const hook = join(repo, '.git/hooks/prepare-commit-msg');
    const edited = `${readFileSync(hook, 'utf8')}printf 'Reviewed-By: team\\n' >> "$message_file"\n`;
    writeFileSync(hook, edited);
    for (const action of ['install', 'uninstall']) {
      const refused = await hooks(action);
      expect(refused.code, `${action}: ${refused.stderr}`).toBe(2);
      expect(jsonOf(refused)).toMatchObject({ ok: false, code: 'CONFLICT' });
      expect(jsonOf(refused).message).toMatch(/carries repomem's marker but has lines repomem did not write/);
      expect(readFileSync(hook, 'utf8')).toBe(edited);
    }
    expect(existsSync(`${hook}.repomem-chained`)).toBe(false);
    commit(TASK, 'b.txt', 'Add b');
    expect(message()).toContain('Reviewed-By: team');
    expect(message()).toContain('Task-Id: task-42');
    // As the message says: a hook with only the team's lines is kept and chained.
    writeFileSync(hook, '#!/bin/sh\nprintf "Reviewed-By: team\\n" >> "$1"\n');
    expect(jsonOf(await hooks('install'))).toMatchObject({ outcome: 'installed', chained: `${hook}.repomem-chained` });
    commit(TASK, 'c.txt', 'Add c');
    expect(message()).toContain('Reviewed-By: team');
    expect(message()).toContain('Task-Id: task-42');
  });

  it('says what is wrong when core.hooksPath names a file', async () => {
    writeFileSync(join(repo, 'hooks-file'), 'not a directory\n');
    git({}, 'config', 'core.hooksPath', 'hooks-file');
    const refused = await hooks('install');
    expect(refused.code).toBe(2);
    expect(jsonOf(refused)).toMatchObject({ ok: false, code: 'NOT_A_DIRECTORY' });
    expect(jsonOf(refused).message).toMatch(/hooks-file .*is a file, not a directory: point core\.hooksPath/);
    expect(jsonOf(refused).message).not.toMatch(/unexpected|EEXIST/);
    git({}, 'config', 'core.hooksPath', 'hooks-file/below');
    expect(jsonOf(await hooks('install'))).toMatchObject({ ok: false, code: 'NOT_A_DIRECTORY' });
    expect(readFileSync(join(repo, 'hooks-file'), 'utf8')).toBe('not a directory\n');
  });

  it('reports a directory outside any repository and bad arguments', async () => {
    const outside = await cli(['hooks', 'install', '--json'], {
      cwd: temp.path,
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(outside.code).toBe(2);
    expect(jsonOf(outside)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect((await cli(['hooks', 'reinstall'], { cwd: repo })).code).toBe(1);
  });
});
