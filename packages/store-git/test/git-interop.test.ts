import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GitStore, openGitStore } from '../src/index.js';
import { expectCode, freshRepository, fsckStrict, git, lsTree, removeDirectory, text, utf8 } from './support.js';

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

async function open(options: Partial<Parameters<typeof openGitStore>[0]> = {}): Promise<GitStore> {
  store = await openGitStore({ dir, ...options });
  return store;
}

/** Commit `files` on agent/memory with the porcelain git CLI (an orphan branch in the worktree). */
function commitWithGitCli(files: Record<string, string>, message: string): string {
  if (git(dir, ['branch', '--show-current']) !== BRANCH) {
    const exists = git(dir, ['branch', '--list', BRANCH]) !== '';
    git(dir, exists ? ['checkout', '-q', BRANCH] : ['checkout', '-q', '--orphan', BRANCH]);
  }
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', message]);
  return git(dir, ['rev-parse', 'HEAD']);
}

/** Park the worktree on a separate `main` branch so object mode may move agent/memory. */
function leaveBranch(): void {
  if (git(dir, ['branch', '--show-current']) !== BRANCH) return;
  git(dir, ['checkout', '-q', '--orphan', 'main']);
  git(dir, ['rm', '-rq', '--cached', '.']);
  git(dir, ['clean', '-fdq']);
  git(dir, ['commit', '-q', '--allow-empty', '-m', 'main']);
}

function packedRefs(repo: string): string {
  return readFileSync(join(repo, '.git', 'packed-refs'), 'utf8');
}

describe('the git CLI reads what repomem wrote', () => {
  it('commits with message and trailers, default agent identity, readable by git show/log/fsck', async () => {
    const s = await open();
    const result = await s.commitWith(
      [{ kind: 'put', path: 'MEMORY.md', content: utf8('# Memory\n\n## Notes\n- one\n') }],
      {
        message: 'chore(memory): add bullet to MEMORY.md',
        trailers: { 'Task-Id': 'T-42', 'Prompt-Version': 'v3', 'Thread-Key': 'acme/rocket:issue:7:implement:default' },
      },
    );
    expect(result.status).toBe('committed');
    expect(git(dir, ['show', `${BRANCH}:MEMORY.md`])).toBe('# Memory\n\n## Notes\n- one');
    expect(git(dir, ['log', '-1', '--format=%s', BRANCH])).toBe('chore(memory): add bullet to MEMORY.md');
    expect(git(dir, ['log', '-1', '--format=%(trailers:key=Task-Id,valueonly)', BRANCH])).toBe('T-42');
    expect(git(dir, ['log', '-1', '--format=%(trailers)', BRANCH])).toBe(
      'Task-Id: T-42\nPrompt-Version: v3\nThread-Key: acme/rocket:issue:7:implement:default',
    );
    expect(git(dir, ['log', '-1', '--format=%an <%ae>|%cn <%ce>', BRANCH])).toBe(
      'repomem <agent@localhost>|repomem <agent@localhost>',
    );
    expect(git(dir, ['rev-list', '--parents', BRANCH])).toBe(result.status === 'committed' ? result.revision : '');
    expect(git(dir, ['reflog', 'show', '--format=%gs', BRANCH])).toBe(
      'commit (initial): chore(memory): add bullet to MEMORY.md',
    );
    fsckStrict(dir);
    // The user's checkout and index are untouched.
    expect(git(dir, ['status', '--porcelain'])).toBe('');
    expect(git(dir, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/main');
  });

  it('uses {agentId} <agent@localhost> by default and a configured author and committer', async () => {
    await (await open({ agentId: 'triage-bot' })).write([{ kind: 'put', path: 'a.md', content: utf8('a\n') }]);
    expect(git(dir, ['log', '-1', '--format=%an <%ae>', BRANCH])).toBe('triage-bot <agent@localhost>');
    await store?.close();
    const custom = await open({
      author: { name: 'Ada', email: 'ada@example.com' },
      committer: { name: 'CI', email: 'ci@example.com' },
    });
    await custom.write([{ kind: 'put', path: 'b.md', content: utf8('b\n') }]);
    expect(git(dir, ['log', '-1', '--format=%an <%ae>|%cn <%ce>', BRANCH])).toBe(
      'Ada <ada@example.com>|CI <ci@example.com>',
    );
    expect(git(dir, ['log', '-1', '--format=%s', BRANCH])).toBe('chore(memory): update b.md');
    await expectCode(
      () => openGitStore({ dir, author: { name: 'Eve <x>', email: 'e@x' } }),
      'INVALID_ARGUMENT',
      /author name/,
    );
    await expectCode(() => openGitStore({ dir, agentId: 'two\nlines' }), 'INVALID_ARGUMENT');
    fsckStrict(dir);
  });

  it('the first write makes a root commit; later writes have the tip as their only parent', async () => {
    const s = await open();
    expect(await s.revision()).toBe('empty');
    const first = await s.commitWith([{ kind: 'put', path: 'MEMORY.md', content: utf8('1\n') }]);
    const second = await s.commitWith([{ kind: 'put', path: 'MEMORY.md', content: utf8('2\n') }]);
    if (first.status !== 'committed' || second.status !== 'committed') throw new Error('expected commits');
    expect(git(dir, ['rev-list', '--parents', BRANCH]).split('\n')).toEqual([
      `${second.revision} ${first.revision}`,
      first.revision,
    ]);
  });

  it('rewrites only the trees along the changed path and reuses the others by id', async () => {
    const s = await open();
    await s.write([
      { kind: 'put', path: 'MEMORY.md', content: utf8('m\n') },
      { kind: 'put', path: 'github/acme/rocket/issue-1.json', content: utf8('{}\n') },
      { kind: 'put', path: 'daily/2026-05-01.md', content: utf8('d\n') },
    ]);
    const before = git(dir, ['rev-parse', `${BRANCH}:github`, `${BRANCH}:daily`]);
    await s.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('m2\n') }]);
    expect(git(dir, ['rev-parse', `${BRANCH}:github`, `${BRANCH}:daily`])).toBe(before);
    await s.write([{ kind: 'put', path: 'daily/2026-05-02.md', content: utf8('d2\n') }]);
    expect(git(dir, ['rev-parse', `${BRANCH}:github`])).toBe(before.split('\n')[0]);
    fsckStrict(dir);
  });

  it('deleting the last file of a directory removes the directory tree', async () => {
    const s = await open();
    await s.write([
      { kind: 'put', path: 'a/b/c.md', content: utf8('c\n') },
      { kind: 'put', path: 'keep.md', content: utf8('k\n') },
    ]);
    await s.write([{ kind: 'delete', path: 'a/b/c.md' }]);
    expect(git(dir, ['ls-tree', '-r', '-t', '--name-only', BRANCH])).toBe('keep.md');
    await s.write([{ kind: 'delete', path: 'keep.md' }]);
    expect(git(dir, ['ls-tree', '-r', '-t', '--name-only', BRANCH])).toBe('');
    expect(git(dir, ['rev-parse', `${BRANCH}^{tree}`])).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
    fsckStrict(dir);
  });

  it('sorts new tree entries the way git does (a.md < a/ < a0)', async () => {
    const s = await open();
    await s.write([
      { kind: 'put', path: 'a0', content: utf8('x\n') },
      { kind: 'put', path: 'a/x.md', content: utf8('x\n') },
      { kind: 'put', path: 'a.md', content: utf8('x\n') },
      { kind: 'put', path: 'a-b', content: utf8('x\n') },
    ]);
    expect(git(dir, ['ls-tree', '--name-only', BRANCH]).split('\n')).toEqual(['a-b', 'a.md', 'a', 'a0']);
    fsckStrict(dir);
  });

  it('an unchanged batch makes no commit', async () => {
    const s = await open();
    const first = await s.commitWith([{ kind: 'put', path: 'a.md', content: utf8('a\n') }]);
    const again = await s.commitWith([
      { kind: 'put', path: 'a.md', content: utf8('a\n') },
      { kind: 'delete', path: 'missing.md' },
    ]);
    expect(again.status).toBe('noop');
    if (first.status === 'committed' && again.status === 'noop') expect(again.revision).toBe(first.revision);
    // Through the contract the same batch is simply committed (no new commit, no revision computed).
    expect(await s.write([{ kind: 'put', path: 'a.md', content: utf8('a\n') }])).toEqual({
      status: 'committed',
      versions: { 'a.md': first.status === 'committed' ? first.versions['a.md'] : '' },
    });
    expect(git(dir, ['rev-list', '--count', BRANCH])).toBe('1');
  });

  it('works on a bare repository', async () => {
    await removeDirectory(dir);
    dir = await freshRepository({ bare: true });
    const s = await open();
    await s.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('bare\n') }]);
    expect(git(dir, ['show', `${BRANCH}:MEMORY.md`])).toBe('bare');
    expect(text((await s.get('MEMORY.md'))?.content)).toBe('bare\n');
    fsckStrict(dir);
  });
});

describe('repomem reads what git wrote', () => {
  it('reads loose objects, then packfiles and packed refs after git gc, then writes on top', async () => {
    commitWithGitCli({ 'MEMORY.md': '# Memory\n\n## Notes\n- v1\n', 'daily/2026-05-01.md': '# Daily\n' }, 'git: first');
    for (let version = 2; version <= 4; version += 1) {
      commitWithGitCli(
        { 'MEMORY.md': `# Memory\n\n## Notes\n${'- filler line for delta compression\n'.repeat(40)}- v${version}\n` },
        `git: v${version}`,
      );
    }
    leaveBranch();
    const s = await open();
    const loose = await s.list();
    expect(loose.map((entry) => entry.path)).toEqual(['MEMORY.md', 'daily/2026-05-01.md']);
    expect(text((await s.get('MEMORY.md'))?.content)).toMatch(/- v4\n$/);

    git(dir, ['gc', '-q', '--aggressive', '--prune=now']);
    expect(git(dir, ['count-objects', '-v'])).toMatch(/^count: 0$/m);
    expect(git(dir, ['show-ref', BRANCH])).not.toBe('');
    expect(packedRefs(dir)).toMatch(/refs\/heads\/agent\/memory/);

    // The store opened before gc finds the objects in the new pack (its loose files are gone).
    expect(text((await s.get('daily/2026-05-01.md'))?.content)).toBe('# Daily\n');
    expect(text((await s.get('MEMORY.md'))?.content)).toMatch(/- v4\n$/);

    const packed = await openGitStore({ dir });
    expect(await packed.list()).toEqual(loose);
    expect(text((await packed.get('MEMORY.md'))?.content)).toMatch(/- v4\n$/);
    const history = await packed.gitLog({ path: 'MEMORY.md' });
    expect(history.map((revision) => revision.message)).toEqual(['git: v4', 'git: v3', 'git: v2', 'git: first']);
    const oldest = await packed.readAt('MEMORY.md', history[3]?.oid ?? '');
    expect(oldest.status === 'found' ? text(oldest.document.content) : oldest.status).toBe(
      '# Memory\n\n## Notes\n- v1\n',
    );

    const result = await packed.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('after gc\n') }], {
      message: 'chore(memory): after gc',
    });
    expect(result.status).toBe('committed');
    expect(git(dir, ['show', `${BRANCH}:MEMORY.md`])).toBe('after gc');
    expect(git(dir, ['log', '--format=%s', BRANCH]).split('\n')).toEqual([
      'chore(memory): after gc',
      'git: v4',
      'git: v3',
      'git: v2',
      'git: first',
    ]);
    fsckStrict(dir);
    // A second gc replaces the pack the store had indexed: reads move to the new pack.
    git(dir, ['gc', '-q', '--prune=now']);
    const fresh = await openGitStore({ dir });
    const paths = (await fresh.list()).map((entry) => entry.path);
    await fresh.close();
    for (const path of paths) {
      expect(text((await packed.get(path))?.content), path).toBe(git(dir, ['show', `${BRANCH}:${path}`]) + '\n');
    }
    const delta = await packed.readAt('MEMORY.md', history[1]?.oid ?? '');
    expect(delta.status === 'found' ? text(delta.document.content) : delta.status).toMatch(/- v3\n$/);
    await packed.close();
  });

  it('follows a ref that exists only in packed-refs (git pack-refs --all) and stays correct after', async () => {
    const s = await open();
    await s.write([{ kind: 'put', path: 'a.md', content: utf8('a\n') }]);
    git(dir, ['pack-refs', '--all']);
    expect(packedRefs(dir)).toMatch(/refs\/heads\/agent\/memory/);
    expect(text((await s.get('a.md'))?.content)).toBe('a\n');
    const second = await s.commitWith([{ kind: 'put', path: 'b.md', content: utf8('b\n') }]);
    if (second.status !== 'committed') throw new Error('expected a commit');
    expect(git(dir, ['rev-parse', BRANCH])).toBe(second.revision);
    git(dir, ['pack-refs', '--all']);
    expect(await s.revision()).toBe(second.revision);
    expect(lsTree(dir, BRANCH)).toEqual(['a.md', 'b.md']);
    fsckStrict(dir);
  });

  it('sees commits the git CLI adds between repomem writes', async () => {
    const s = await open();
    await s.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('repomem\n') }]);
    // A human commits on the branch with plumbing (no checkout).
    const blob = git(dir, ['hash-object', '-w', '--stdin'], { input: 'human\n' });
    const index = join(dir, '.git', 'tmp-index');
    const env = { GIT_INDEX_FILE: index };
    git(dir, ['read-tree', BRANCH], { env });
    git(dir, ['update-index', '--add', '--cacheinfo', `100644,${blob},human.md`], { env });
    const tree = git(dir, ['write-tree'], { env });
    const commit = git(dir, ['commit-tree', tree, '-p', BRANCH, '-m', 'human edit']);
    git(dir, ['update-ref', `refs/heads/${BRANCH}`, commit]);
    expect(await s.revision()).toBe(commit);
    expect(text((await s.get('human.md'))?.content)).toBe('human\n');
    await s.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('repomem 2\n') }]);
    expect(git(dir, ['log', '--format=%s', BRANCH]).split('\n')).toEqual([
      'chore(memory): update MEMORY.md',
      'human edit',
      'chore(memory): update MEMORY.md',
    ]);
    fsckStrict(dir);
  });
});
