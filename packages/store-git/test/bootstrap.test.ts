// Why: bootstrap and init create the memory branch the way Sepo's bootstrap workflow does; the
// real git CLI checks the result (fsck, log, show) and that the user's checkout is untouched.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MEMORY_README, MEMORY_TREE_SEEDS, openMemory } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BOOTSTRAP_COMMIT_SUBJECT,
  bootstrapMemoryBranch,
  INIT_COMMIT_SUBJECT,
  initMemoryBranch,
  MEMORY_BRANCH_SEEDS,
  openGitStore,
} from '../src/index.js';
import {
  expectCode,
  freshDirectory,
  freshRepository,
  fsckStrict,
  git,
  lsTree,
  removeDirectory,
  userState,
  utf8,
} from './support.js';

const BRANCH = 'agent/memory';
let dir: string;

/** A repository whose user has a commit on main, a modified tracked file and an untracked file. */
async function busyRepository(): Promise<string> {
  const repo = await freshRepository();
  writeFileSync(join(repo, 'app.txt'), 'v1\n');
  git(repo, ['add', 'app.txt']);
  git(repo, ['commit', '-q', '-m', 'app']);
  writeFileSync(join(repo, 'app.txt'), 'v2 (uncommitted)\n');
  writeFileSync(join(repo, 'scratch.txt'), 'untracked\n');
  git(repo, ['add', 'scratch.txt']);
  writeFileSync(join(repo, 'notes.txt'), 'untracked too\n');
  return repo;
}

beforeEach(async () => {
  dir = await busyRepository();
});
afterEach(async () => {
  await removeDirectory(dir);
});

describe('bootstrapMemoryBranch', () => {
  it('creates agent/memory as a root commit holding core seeds and .gitignore; git reads it; the user checkout is untouched', async () => {
    const before = userState(dir);
    const result = await bootstrapMemoryBranch({ dir, clock: () => new Date('2026-01-02T03:04:05Z') });
    expect(result.branch).toBe(BRANCH);
    expect(result.ref).toBe('refs/heads/agent/memory');
    expect(git(dir, ['rev-parse', BRANCH])).toBe(result.commit);
    expect(fsckStrict(dir)).toBe('');
    expect(git(dir, ['log', '--format=%s|%an <%ae>|%P|%ct', BRANCH])).toBe(
      `${BOOTSTRAP_COMMIT_SUBJECT}|repomem <agent@localhost>||1767323045`,
    );
    const expected = [...MEMORY_TREE_SEEDS.map((seed) => seed.path), '.gitignore'].sort();
    expect(lsTree(dir, BRANCH).sort()).toEqual(expected);
    expect([...result.files].sort()).toEqual(expected);
    expect(git(dir, ['show', `${BRANCH}:MEMORY.md`])).toBe('');
    expect(git(dir, ['show', `${BRANCH}:README.md`])).toBe(MEMORY_README.trim());
    expect(git(dir, ['show', `${BRANCH}:.gitignore`])).toBe('transcripts/\nmedia/\n*.tmp');
    expect(userState(dir)).toEqual(before);
    // The reflog records the creation like git does.
    expect(git(dir, ['reflog', 'show', '--format=%gs', BRANCH])).toBe(`commit (initial): ${BOOTSTRAP_COMMIT_SUBJECT}`);
  });

  it('seeds the same files openMemory init seeds: init on the new branch creates nothing', async () => {
    await bootstrapMemoryBranch({ dir });
    const store = await openGitStore({ dir });
    try {
      const revision = await store.revision();
      const result = await openMemory({ store }).init();
      expect(result.created).toEqual([]);
      expect(await store.revision()).toBe(revision);
    } finally {
      await store.close();
    }
  });

  it('fails with CONFLICT "branch agent/memory already exists" and changes nothing', async () => {
    const first = await bootstrapMemoryBranch({ dir });
    await expectCode(() => bootstrapMemoryBranch({ dir }), 'CONFLICT', /branch agent\/memory already exists/);
    expect(git(dir, ['rev-parse', BRANCH])).toBe(first.commit);
    // A branch made by the git CLI counts too.
    git(dir, ['branch', 'other/memory', 'main']);
    await expectCode(
      () => bootstrapMemoryBranch({ dir, branch: 'other/memory' }),
      'CONFLICT',
      /branch other\/memory already exists/,
    );
  });

  it('refuses a directory that is not a git repository, writing nothing', async () => {
    const plain = await freshDirectory();
    try {
      await expectCode(() => bootstrapMemoryBranch({ dir: plain }), 'NOT_FOUND', /not a git repository/);
      await expectCode(() => initMemoryBranch({ dir: plain }), 'NOT_FOUND', /not a git repository/);
      expect(readdirSync(plain)).toEqual([]);
    } finally {
      await removeDirectory(plain);
    }
  });

  it.each(['bad..name', 'memory.lock', '-memory', 'a b', 'a//b', 'refs/heads/x', 'x/'])(
    'refuses the branch name %j that git rejects (INVALID_ARGUMENT), creating no ref',
    async (branch) => {
      await expectCode(() => bootstrapMemoryBranch({ dir, branch }), 'INVALID_ARGUMENT', /invalid branch name/);
      await expectCode(() => initMemoryBranch({ dir, branch }), 'INVALID_ARGUMENT', /invalid branch name/);
      expect(git(dir, ['for-each-ref', '--format=%(refname)'])).toBe('refs/heads/main');
    },
  );

  it('takes a custom seed, author and trailers', async () => {
    const result = await bootstrapMemoryBranch({
      dir,
      branch: 'team/memory',
      seed: [
        { path: 'MEMORY.md', content: '# Memory\n' },
        { path: 'notes/a.bin', content: new Uint8Array([0, 1, 2]) },
      ],
      author: { name: 'Triage Bot', email: 'bot@example.com' },
      trailers: { 'Task-Id': 'T-1' },
    });
    expect(lsTree(dir, 'team/memory')).toEqual(['MEMORY.md', 'notes/a.bin']);
    expect(git(dir, ['log', '-1', '--format=%an <%ae>|%(trailers:key=Task-Id,valueonly)', result.commit])).toBe(
      'Triage Bot <bot@example.com>|T-1',
    );
    expect(fsckStrict(dir)).toBe('');
    await expectCode(
      () => bootstrapMemoryBranch({ dir, branch: 'x/memory', seed: [{ path: '../evil', content: 'x' }] }),
      'INVALID_PATH',
    );
    expect(git(dir, ['branch', '--list', 'x/memory'])).toBe('');
  });
});

describe('initMemoryBranch', () => {
  it('creates when missing, then is a no-op without a commit', async () => {
    const before = userState(dir);
    const created = await initMemoryBranch({ dir });
    expect(created.status).toBe('created');
    expect([...created.created].sort()).toEqual(MEMORY_BRANCH_SEEDS.map((seed) => seed.path).sort());
    const again = await initMemoryBranch({ dir });
    expect(again).toEqual({
      status: 'unchanged',
      commit: created.commit,
      created: [],
      existing: MEMORY_BRANCH_SEEDS.map((seed) => seed.path),
    });
    expect(git(dir, ['rev-list', '--count', BRANCH])).toBe('1');
    expect(userState(dir)).toEqual(before);
  });

  it('adds only the missing seed files to an existing branch, leaving existing files as they are', async () => {
    // A branch made by the git CLI with a MEMORY.md of its own and no other seed file.
    const blob = git(dir, ['hash-object', '-w', '--stdin'], { input: '# Memory\n\n## Notes\n- keep me\n' });
    const tree = git(dir, ['mktree'], { input: `100644 blob ${blob}\tMEMORY.md\n` });
    const commit = git(dir, ['commit-tree', tree, '-m', 'by hand']);
    git(dir, ['update-ref', `refs/heads/${BRANCH}`, commit]);
    const result = await initMemoryBranch({ dir, trailers: { 'Task-Id': 'T-9' } });
    expect(result.status).toBe('seeded');
    expect(result.existing).toEqual(['MEMORY.md']);
    expect([...result.created].sort()).toEqual([
      '.gitignore',
      'PROJECT.md',
      'README.md',
      'daily/.gitkeep',
      'github/.gitkeep',
    ]);
    expect(git(dir, ['show', `${BRANCH}:MEMORY.md`])).toBe('# Memory\n\n## Notes\n- keep me');
    expect(git(dir, ['log', '-1', '--format=%s|%P|%(trailers:key=Task-Id,valueonly)', BRANCH])).toBe(
      `${INIT_COMMIT_SUBJECT}|${commit}|T-9`,
    );
    expect(fsckStrict(dir)).toBe('');
    const again = await initMemoryBranch({ dir });
    expect(again.status).toBe('unchanged');
    expect(git(dir, ['rev-list', '--count', BRANCH])).toBe('2');
  });

  it('never pushes: a configured remote is left alone', async () => {
    const remote = await freshRepository({ bare: true });
    try {
      git(dir, ['remote', 'add', 'origin', remote]);
      await initMemoryBranch({ dir });
      expect(git(remote, ['for-each-ref'])).toBe('');
      expect(git(dir, ['for-each-ref', '--format=%(refname)', 'refs/remotes'])).toBe('');
    } finally {
      await removeDirectory(remote);
    }
  });

  it('works on a bare repository', async () => {
    const bare = await freshRepository({ bare: true });
    try {
      const created = await initMemoryBranch({ dir: bare });
      expect(created.status).toBe('created');
      expect(lsTree(bare, BRANCH)).toContain('MEMORY.md');
      expect(fsckStrict(bare)).toBe('');
      const store = await openGitStore({ dir: bare });
      expect((await store.get('PROJECT.md'))?.content).toEqual(utf8(''));
      await store.close();
    } finally {
      await removeDirectory(bare);
    }
  });
});
