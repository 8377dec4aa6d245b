// Why: the git store runs core's hardening suite, and after every test that wrote, the repository
// must pass `git fsck --strict` (no hasDotgit or .gitmodules entry can reach the branch). The
// names core refuses are also checked against git itself: each makes `git fsck --strict` fail
// when planted in a tree by hand, and each accepted near miss passes.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { searchStore } from '@repomem/core';
import { GIT_ACCEPTED_NAMES, GIT_REFUSED_NAMES, runStoreHardening } from '@repomem/core/testing';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bootstrapMemoryBranch, commitMountedTree, mountMemoryBranch, openGitStore } from '../src/index.js';
import { freshDirectory, freshRepository, fsckStrict, git, removeDirectory } from './support.js';

runStoreHardening({
  name: 'git store hardening',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => openGitStore({ dir: await freshRepository() }),
  afterWrite: async (store) => {
    fsckStrict(store.dir);
  },
  teardown: async (store) => {
    fsckStrict(store.dir);
    await removeDirectory(store.dir);
  },
});

describe('the names core refuses are the names git refuses', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await removeDirectory(dir);
  });

  /** Plant `name` as a tree entry by hand (as a hostile writer would) and run `git fsck --strict`. */
  async function fsckWithEntry(name: string): Promise<{ ok: boolean; output: string }> {
    const dir = await freshRepository();
    dirs.push(dir);
    const git = (args: string[], input?: string): string =>
      execFileSync('git', args, { cwd: dir, input, encoding: 'utf8' }).trim();
    const blob = git(['hash-object', '-w', '--stdin'], 'x\n');
    const inner = git(['mktree'], `100644 blob ${blob}\tconfig\n`);
    const tree = git(['mktree'], `040000 tree ${inner}\t${name}\n`);
    const commit = git(['commit-tree', tree, '-m', 'planted'], '');
    git(['update-ref', 'refs/heads/planted', commit]);
    const result = spawnSync('git', ['fsck', '--strict', '--no-dangling'], { cwd: dir, encoding: 'utf8' });
    return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
  }

  it.each(GIT_REFUSED_NAMES.filter(([, reserved]) => reserved === '.git'))(
    'git fsck --strict rejects a tree entry %j (hasDotgit)',
    async (name) => {
      const result = await fsckWithEntry(name);
      expect(result.ok, result.output).toBe(false);
      expect(result.output).toContain('hasDotgit');
    },
  );

  it('a branch holding such entries (written by another tool) lists and searches only ordinary documents', async () => {
    const dir = await freshRepository();
    dirs.push(dir);
    const run = (args: string[], input?: string): string =>
      execFileSync('git', args, { cwd: dir, input, encoding: 'utf8' }).trim();
    const blob = run(['hash-object', '-w', '--stdin'], 'zebra\n');
    const inner = run(['mktree'], `100644 blob ${blob}\tconfig\n`);
    const tree = run(
      ['mktree'],
      `100644 blob ${blob}\t.gitattributes\n040000 tree ${inner}\t.GIT\n040000 tree ${inner}\tgit~1\n100644 blob ${blob}\tok.md\n`,
    );
    run(['update-ref', 'refs/heads/planted', run(['commit-tree', tree, '-m', 'planted'], '')]);
    const store = await openGitStore({ dir, branch: 'planted' });
    expect((await store.list()).map((entry) => entry.path)).toEqual(['ok.md']);
    expect((await searchStore(store, 'zebra')).results.map((hit) => hit.path)).toEqual(['ok.md']);
    await store.close();
  });

  it.each(GIT_ACCEPTED_NAMES)('git fsck --strict accepts a tree entry %j', async (name) => {
    const result = await fsckWithEntry(name);
    expect(result.ok, result.output).toBe(true);
  });
});

describe('checkout mode: files the mount holds under names git refuses are never committed', () => {
  it('skips them by name as invalid_path, commits the rest, and the branch passes git fsck --strict', async () => {
    const dir = await freshRepository();
    const scratch = await freshDirectory('repomem-hardening-');
    try {
      await bootstrapMemoryBranch({ dir });
      const into = join(scratch, 'memory');
      await mountMemoryBranch({ dir, into });
      const planted = [
        '.GIT/hooks/post-checkout',
        'notes/git~1/config',
        'notes/.Git./x',
        '.gitmodules',
        'a/.GitAttributes',
      ];
      for (const path of [...planted, 'notes/ok.md']) {
        mkdirSync(join(into, path, '..'), { recursive: true });
        writeFileSync(join(into, path), 'x\n');
      }
      const outcome = await commitMountedTree({ into });
      expect(outcome.status).toBe('committed');
      const skipped = outcome.skipped.filter((skip) => skip.reason === 'invalid_path').map((skip) => skip.path);
      expect(skipped.sort()).toEqual(
        ['.GIT/', 'notes/git~1/', 'notes/.Git./', '.gitmodules', 'a/.GitAttributes'].sort(),
      );
      const tree = git(dir, ['ls-tree', '-r', '--name-only', 'agent/memory']).split('\n');
      expect(tree).toContain('notes/ok.md');
      for (const path of planted) expect(tree).not.toContain(path);
      fsckStrict(dir);
    } finally {
      await removeDirectory(dir);
      await removeDirectory(scratch);
    }
  });
});
