import { spawnSync } from 'node:child_process';
import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isRepomemError } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { branchNameProblem, type GitStore, openGitStore } from '../src/index.js';
import {
  freshDirectory,
  freshRepository,
  fsckStrict,
  git,
  gitEnv,
  lsTree,
  removeDirectory,
  text,
  utf8,
} from './support.js';

const BRANCH = 'agent/memory';
let dir: string;
let store: GitStore | undefined;

beforeEach(async () => {
  dir = await freshRepository();
});
afterEach(async () => {
  await store?.close();
  store = undefined;
  await removeDirectory(dir);
});

async function caught(action: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await action();
  } catch (error) {
    expect(isRepomemError(error), `expected a RepomemError, got ${String(error)}`).toBe(true);
    return error as { code: string; message: string };
  }
  throw new Error('expected the action to throw');
}

/** Build agent/memory with plumbing from index lines `mode,oid,path`. */
function commitIndex(entries: readonly string[], message: string): string {
  const env = { GIT_INDEX_FILE: join(dir, '.git', 'tmp-index') };
  for (const entry of entries) git(dir, ['update-index', '--add', '--cacheinfo', entry], { env });
  const tree = git(dir, ['write-tree'], { env });
  const commit = git(dir, ['commit-tree', tree, '-m', message]);
  git(dir, ['update-ref', `refs/heads/${BRANCH}`, commit]);
  return commit;
}

describe('the repository directory', () => {
  it('a directory that is not a git repository is NOT_FOUND with a clear message', async () => {
    const plain = await freshDirectory('repomem-not-git-');
    try {
      const error = await caught(() => openGitStore({ dir: plain }));
      expect(error.code).toBe('NOT_FOUND');
      expect(error.message).toMatch(/not a git repository/);
      expect(error.message).toContain(plain);
    } finally {
      await removeDirectory(plain);
    }
  });
  it('a missing directory is NOT_FOUND, a file is NOT_A_DIRECTORY, an empty path INVALID_ARGUMENT', async () => {
    expect((await caught(() => openGitStore({ dir: join(dir, 'nope') }))).code).toBe('NOT_FOUND');
    await writeFile(join(dir, 'file.txt'), 'x');
    expect((await caught(() => openGitStore({ dir: join(dir, 'file.txt') }))).code).toBe('NOT_A_DIRECTORY');
    expect((await caught(() => openGitStore({ dir: '' }))).code).toBe('INVALID_ARGUMENT');
  });
  it('a .git file pointing nowhere is NOT_FOUND', async () => {
    const fake = await freshDirectory('repomem-fake-git-');
    try {
      await writeFile(join(fake, '.git'), 'gitdir: /does/not/exist\n');
      expect((await caught(() => openGitStore({ dir: fake }))).message).toMatch(/not a git directory/);
    } finally {
      await removeDirectory(fake);
    }
  });
  it('opens a linked worktree (a .git file with commondir) and writes to the shared branch', async () => {
    git(dir, ['commit', '-q', '--allow-empty', '-m', 'main']);
    const linked = join(await freshDirectory('repomem-worktree-'), 'wt');
    try {
      git(dir, ['worktree', 'add', '-q', '-b', 'side', linked]);
      store = await openGitStore({ dir: linked });
      await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('from worktree\n') }]);
      expect(git(dir, ['show', `${BRANCH}:MEMORY.md`])).toBe('from worktree');
      fsckStrict(dir);
    } finally {
      await removeDirectory(join(linked, '..'));
    }
  });
});

describe('branch names', () => {
  const bad = [
    '',
    '-x',
    'a..b',
    'a@{1}',
    'memory.lock',
    'agent/memory.lock',
    'has space',
    'tab\there',
    'ctl\u0001',
    'a~1',
    'a^',
    'a:b',
    'a?',
    'a*',
    'a[b',
    'a\\b',
    '.hidden',
    'agent/.hidden',
    'trailing.',
    'trailing/',
    '/leading',
    'double//slash',
    '@',
    'HEAD',
  ];
  for (const name of bad) {
    it(`refuses ${JSON.stringify(name)} (as git check-ref-format --branch does) before touching the repository`, async () => {
      const error = await caught(() => openGitStore({ dir, branch: name }));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toContain('invalid branch name');
      // `--branch` expands "@" and "HEAD" to the current branch (and `git branch` refuses both as names).
      if (name !== '' && name !== '@' && name !== 'HEAD') {
        const check = spawnSync('git', ['check-ref-format', '--branch', name], { cwd: dir, env: gitEnv });
        expect(check.status, `git check-ref-format --branch ${name}`).not.toBe(0);
      }
      expect(git(dir, ['for-each-ref'])).toBe('');
    });
  }
  it('accepts the names git accepts', async () => {
    for (const name of ['agent/memory', 'memory', 'agent/memory-2', 'a.b/c_d', 'team/agent@x', 'ünïcode']) {
      expect(branchNameProblem(name), name).toBeUndefined();
      const check = spawnSync('git', ['check-ref-format', '--branch', name], { cwd: dir, env: gitEnv });
      expect(check.status, `git check-ref-format --branch ${name}`).toBe(0);
    }
    store = await openGitStore({ dir, branch: 'team/agent@x' });
    await store.write([{ kind: 'put', path: 'a.md', content: utf8('a\n') }]);
    expect(git(dir, ['show', 'team/agent@x:a.md'])).toBe('a');
  });
  it('a branch that clashes with an existing ref (agent vs agent/memory) is refused on write, nothing changes', async () => {
    git(dir, ['commit', '-q', '--allow-empty', '-m', 'main']);
    git(dir, ['branch', 'agent']);
    store = await openGitStore({ dir });
    const error = await caught(() => store!.write([{ kind: 'put', path: 'a.md', content: utf8('a\n') }]));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toMatch(/refs\/heads\/agent\/memory/);
    git(dir, ['pack-refs', '--all']);
    expect((await caught(() => store!.write([{ kind: 'put', path: 'a.md', content: utf8('a\n') }]))).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect(git(dir, ['for-each-ref', '--format=%(refname)'])).toBe('refs/heads/agent\nrefs/heads/main');
  });
});

describe('trees made by git with symlinks and submodules', () => {
  async function seedSpecialEntries(): Promise<string> {
    const target = git(dir, ['hash-object', '-w', '--stdin'], { input: 'MEMORY.md' });
    const doc = git(dir, ['hash-object', '-w', '--stdin'], { input: '# Memory\n' });
    git(dir, ['commit', '-q', '--allow-empty', '-m', 'for the submodule entry']);
    const someCommit = git(dir, ['rev-parse', 'HEAD']);
    return commitIndex(
      [
        `100644,${doc},MEMORY.md`,
        `120000,${target},link.md`,
        `120000,${target},linkdir`,
        `160000,${someCommit},vendor/sub`,
        `100644,${doc},vendor/README.md`,
      ],
      'git: special entries',
    );
  }

  it('never lists or reads symlinks and submodules', async () => {
    await seedSpecialEntries();
    store = await openGitStore({ dir });
    expect((await store.list()).map((entry) => entry.path)).toEqual(['MEMORY.md', 'vendor/README.md']);
    expect(await store.get('link.md')).toBeUndefined();
    expect(await store.get('vendor/sub')).toBeUndefined();
    expect(await store.get('linkdir/x.md')).toBeUndefined();
  });

  it('refuses to write or delete through them with a clear error and changes nothing', async () => {
    const commit = await seedSpecialEntries();
    store = await openGitStore({ dir });
    const s = store;
    const cases: Array<[string, () => Promise<unknown>, RegExp]> = [
      [
        'put over a symlink',
        () => s.write([{ kind: 'put', path: 'link.md', content: utf8('x\n') }]),
        /link\.md is a symlink \(mode 120000\)/,
      ],
      ['delete a symlink', () => s.write([{ kind: 'delete', path: 'link.md' }]), /symlink/],
      [
        'put below a symlink',
        () => s.write([{ kind: 'put', path: 'linkdir/x.md', content: utf8('x\n') }]),
        /linkdir is a symlink/,
      ],
      [
        'put over a submodule',
        () => s.write([{ kind: 'put', path: 'vendor/sub', content: utf8('x\n') }]),
        /submodule \(mode 160000\)/,
      ],
      [
        'put below a submodule',
        () => s.write([{ kind: 'put', path: 'vendor/sub/x.md', content: utf8('x\n') }]),
        /vendor\/sub is a submodule/,
      ],
      ['delete a submodule', () => s.write([{ kind: 'delete', path: 'vendor/sub' }]), /submodule/],
      [
        'put over a directory',
        () => s.write([{ kind: 'put', path: 'vendor', content: utf8('x\n') }]),
        /is a directory/,
      ],
      [
        'put below a file',
        () => s.write([{ kind: 'put', path: 'MEMORY.md/x.md', content: utf8('x\n') }]),
        /MEMORY\.md is a file/,
      ],
    ];
    for (const [label, action, message] of cases) {
      const error = await caught(action);
      expect(error.code, label).toBe('INVALID_PATH');
      expect(error.message, label).toMatch(message);
    }
    expect(git(dir, ['rev-parse', BRANCH])).toBe(commit);
    // Other writes keep the special entries exactly as git wrote them.
    await s.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('# Memory\n- kept\n') }]);
    expect(
      git(dir, ['ls-tree', '-r', BRANCH])
        .split('\n')
        .map((line) => line.split(/\s+/).slice(0, 2).join(' ')),
    ).toEqual(['100644 blob', '120000 blob', '120000 blob', '100644 blob', '160000 commit']);
    fsckStrict(dir);
  });

  it('a file may become a directory when the batch deletes it', async () => {
    store = await openGitStore({ dir });
    await store.write([{ kind: 'put', path: 'notes', content: utf8('file\n') }]);
    await store.write([
      { kind: 'delete', path: 'notes' },
      { kind: 'put', path: 'notes/a.md', content: utf8('a\n') },
    ]);
    expect(lsTree(dir, BRANCH)).toEqual(['notes/a.md']);
    const error = await caught(() =>
      store!.write([
        { kind: 'put', path: 'x', content: utf8('x\n') },
        { kind: 'put', path: 'x/y', content: utf8('y\n') },
      ]),
    );
    expect(error.code).toBe('INVALID_ARGUMENT');
    fsckStrict(dir);
  });
});

describe('paths and arguments', () => {
  it('a path with .. is INVALID_PATH for get, write, list, history and readAt; nothing is written', async () => {
    store = await openGitStore({ dir });
    const s = store;
    await s.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('keep\n') }]);
    const revision = await s.revision();
    for (const action of [
      () => s.get('../x.md'),
      () => s.write([{ kind: 'put', path: 'a/../../x.md', content: utf8('x\n') }]),
      () => s.write([{ kind: 'delete', path: '../MEMORY.md' }]),
      () => s.list('../'),
      () => s.gitLog({ path: '../MEMORY.md' }),
      () => s.readAt('../MEMORY.md', revision),
    ]) {
      expect((await caught(action)).code).toBe('INVALID_PATH');
    }
    expect(await s.revision()).toBe(revision);
    expect(lsTree(dir, BRANCH)).toEqual(['MEMORY.md']);
  });
  it('bad trailers and messages are INVALID_ARGUMENT and write nothing', async () => {
    store = await openGitStore({ dir });
    const s = store;
    const put = [{ kind: 'put' as const, path: 'a.md', content: utf8('a\n') }];
    expect((await caught(() => s.write(put, { trailers: { 'Bad Key': 'x' } }))).code).toBe('INVALID_ARGUMENT');
    expect((await caught(() => s.write(put, { trailers: { 'Task-Id': 'two\nlines' } }))).code).toBe('INVALID_ARGUMENT');
    expect((await caught(() => s.commit(put, { subject: '' }))).code).toBe('INVALID_ARGUMENT');
    expect((await caught(() => s.commit(put, { subject: 'a\nb' }))).code).toBe('INVALID_ARGUMENT');
    expect(await s.revision()).toBe('empty');
  });
  it('bad options are INVALID_ARGUMENT', async () => {
    for (const options of [
      { maxDocumentBytes: 0 },
      { lockTimeoutMs: -1 },
      { lockStaleMs: 1.5 },
      { committer: { name: '', email: 'x' } },
    ]) {
      expect((await caught(() => openGitStore({ dir, ...options }))).code).toBe('INVALID_ARGUMENT');
    }
  });
});

describe('sharing the branch with git', () => {
  it('refuses to move a branch that is checked out in the worktree (its checkout would fall behind)', async () => {
    git(dir, ['checkout', '-q', '--orphan', BRANCH]);
    store = await openGitStore({ dir });
    const error = await caught(() => store!.write([{ kind: 'put', path: 'a.md', content: utf8('a\n') }]));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toMatch(/checked out/);
    expect(git(dir, ['for-each-ref'])).toBe('');
    const allowed = await openGitStore({ dir, allowCheckedOutBranch: true });
    expect((await allowed.write([{ kind: 'put', path: 'a.md', content: utf8('a\n') }])).status).toBe('committed');
    await allowed.close();
  });

  it('waits for a ref lock held by git, times out with LOCK_TIMEOUT, and leaves the branch as it was', async () => {
    store = await openGitStore({ dir, lockTimeoutMs: 200 });
    await store.write([{ kind: 'put', path: 'a.md', content: utf8('a\n') }]);
    const before = git(dir, ['rev-parse', BRANCH]);
    const lock = join(dir, '.git', 'refs', 'heads', 'agent', 'memory.lock');
    await writeFile(lock, '');
    const error = await caught(() => store!.write([{ kind: 'put', path: 'a.md', content: utf8('b\n') }]));
    expect(error.code).toBe('LOCK_TIMEOUT');
    expect(error.message).toContain('memory.lock');
    expect(git(dir, ['rev-parse', BRANCH])).toBe(before);
    expect(await readFile(lock, 'utf8')).toBe('');
    // git itself is blocked the same way, proving the lock is shared.
    const blocked = spawnSync('git', ['update-ref', `refs/heads/${BRANCH}`, before], { cwd: dir, env: gitEnv });
    expect(blocked.status).not.toBe(0);
    expect(String(blocked.stderr)).toMatch(/memory\.lock/);
    // A lock left behind by a crash (older than lockStaleMs) is broken.
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    expect((await store.write([{ kind: 'put', path: 'a.md', content: utf8('c\n') }])).status).toBe('committed');
    expect(git(dir, ['show', `${BRANCH}:a.md`])).toBe('c');
    await expect(stat(lock)).rejects.toThrow();
    fsckStrict(dir);
  });

  it('a tip moved by git between building and publishing is re-checked: disjoint edits both land', async () => {
    let moved = false;
    store = await openGitStore({
      dir,
      testHooks: {
        afterObjectsWritten: () => {
          if (moved || git(dir, ['for-each-ref']) === '') return;
          moved = true;
          const blob = git(dir, ['hash-object', '-w', '--stdin'], { input: 'human\n' });
          const env = { GIT_INDEX_FILE: join(dir, '.git', 'tmp-index') };
          git(dir, ['read-tree', BRANCH], { env });
          git(dir, ['update-index', '--add', '--cacheinfo', `100644,${blob},human.md`], { env });
          const commit = git(dir, ['commit-tree', git(dir, ['write-tree'], { env }), '-p', BRANCH, '-m', 'human']);
          git(dir, ['update-ref', `refs/heads/${BRANCH}`, commit]);
        },
      },
    });
    await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('v1\n') }]);
    const current = await store.get('MEMORY.md');
    const result = await store.write([
      { kind: 'put', path: 'MEMORY.md', content: utf8('v2\n'), expectedVersion: current?.version },
    ]);
    expect(moved).toBe(true);
    expect(result.status).toBe('committed');
    expect(lsTree(dir, BRANCH)).toEqual(['MEMORY.md', 'human.md']);
    expect(git(dir, ['log', '--format=%s', BRANCH]).split('\n')).toEqual([
      'chore(memory): update MEMORY.md',
      'human',
      'chore(memory): update MEMORY.md',
    ]);
    fsckStrict(dir);
  });

  it('a tip moved by git that changed the same document turns into a conflict naming the new version', async () => {
    let humanVersion = '';
    store = await openGitStore({
      dir,
      testHooks: {
        afterObjectsWritten: () => {
          if (humanVersion !== '' || git(dir, ['for-each-ref']) === '') return;
          humanVersion = git(dir, ['hash-object', '-w', '--stdin'], { input: 'human\n' });
          const env = { GIT_INDEX_FILE: join(dir, '.git', 'tmp-index') };
          git(dir, ['read-tree', BRANCH], { env });
          git(dir, ['update-index', '--add', '--cacheinfo', `100644,${humanVersion},MEMORY.md`], { env });
          const commit = git(dir, ['commit-tree', git(dir, ['write-tree'], { env }), '-p', BRANCH, '-m', 'human']);
          git(dir, ['update-ref', `refs/heads/${BRANCH}`, commit]);
        },
      },
    });
    await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('v1\n') }]);
    const current = await store.get('MEMORY.md');
    const result = await store.write([
      { kind: 'put', path: 'MEMORY.md', content: utf8('mine\n'), expectedVersion: current?.version },
    ]);
    expect(result).toEqual({
      status: 'conflict',
      conflicts: [{ path: 'MEMORY.md', expected: current?.version, actual: humanVersion }],
    });
    expect(text((await store.get('MEMORY.md'))?.content)).toBe('human\n');
    fsckStrict(dir);
  });

  it('creates the branch when its parent ref directory already exists', async () => {
    await mkdir(join(dir, '.git', 'refs', 'heads', 'agent'), { recursive: true });
    store = await openGitStore({ dir });
    expect((await store.write([{ kind: 'put', path: 'a.md', content: utf8('a\n') }])).status).toBe('committed');
  });
});
