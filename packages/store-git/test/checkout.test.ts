// Why: checkout mode end to end with the real git CLI reading the result: mount, edit with plain
// fs (and with core's directory store + openMemory, the CLI's path), commit, deletes, the
// branch moving since the mount, and refusals that must leave everything as it was.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openMemory } from '@repomem/core';
import { openDirectoryStore } from '@repomem/store-fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bootstrapMemoryBranch,
  commitMountedTree,
  type GitStore,
  MOUNT_MARKER_FILE,
  mountMemoryBranch,
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
let scratch: string;
let into: string;

const read = (path: string): string => readFileSync(join(into, path), 'utf8');
const write = (path: string, content: string | Buffer): void => {
  mkdirSync(join(into, path, '..'), { recursive: true });
  writeFileSync(join(into, path), content);
};
const tip = (): string => git(dir, ['rev-parse', BRANCH]);

/** Commit on the branch as another writer would (object mode, another process's view). */
async function otherWriter(files: Record<string, string | null>, message = 'chore(memory): elsewhere'): Promise<void> {
  const store: GitStore = await openGitStore({ dir, agentId: 'other-agent' });
  try {
    const result = await store.write(
      Object.entries(files).map(([path, content]) =>
        content === null ? { kind: 'delete' as const, path } : { kind: 'put' as const, path, content: utf8(content) },
      ),
      { message },
    );
    expect(result.status).toBe('committed');
  } finally {
    await store.close();
  }
}

beforeEach(async () => {
  dir = await freshRepository();
  writeFileSync(join(dir, 'app.txt'), 'v1\n');
  git(dir, ['add', 'app.txt']);
  git(dir, ['commit', '-q', '-m', 'app']);
  writeFileSync(join(dir, 'app.txt'), 'v2 uncommitted\n');
  writeFileSync(join(dir, 'untracked.txt'), 'mine\n');
  await bootstrapMemoryBranch({ dir });
  scratch = await freshDirectory('repomem-mount-');
  into = join(scratch, 'memory');
});
afterEach(async () => {
  await removeDirectory(dir);
  await removeDirectory(scratch);
});

describe('mountMemoryBranch', () => {
  it('materialises the tip with .gitignore and a marker; the user checkout is untouched', async () => {
    const before = userState(dir);
    const outcome = await mountMemoryBranch({ dir, into });
    expect(outcome.status).toBe('mounted');
    if (outcome.status !== 'mounted') return;
    expect(outcome.fresh).toBe(true);
    expect(outcome.commit).toBe(tip());
    expect(outcome.skipped).toEqual([]);
    expect(readdirSync(into).sort()).toEqual(
      ['.gitignore', MOUNT_MARKER_FILE, 'MEMORY.md', 'PROJECT.md', 'README.md', 'daily', 'github'].sort(),
    );
    expect(read('.gitignore')).toBe('transcripts/\nmedia/\n*.tmp\n');
    expect(read('README.md')).toBe(git(dir, ['show', `${BRANCH}:README.md`]) + '\n');
    expect(JSON.parse(read(MOUNT_MARKER_FILE))).toMatchObject({ branch: BRANCH, commit: tip() });
    expect(userState(dir)).toEqual(before);
    // Mounting again over an unchanged branch writes nothing.
    const again = await mountMemoryBranch({ dir, into });
    expect(again).toMatchObject({ status: 'mounted', fresh: false, written: [], removed: [] });
  });

  it('adds the default lines to a .gitignore of the branch that lacks them, keeping its own lines', async () => {
    await otherWriter({ '.gitignore': 'drafts/\n' });
    await mountMemoryBranch({ dir, into });
    expect(read('.gitignore')).toBe('drafts/\ntranscripts/\nmedia/\n*.tmp\n');
  });

  it('refuses a missing branch (NOT_FOUND), a bad branch name and a non-repository', async () => {
    await expectCode(() => mountMemoryBranch({ dir, into, branch: 'nope/memory' }), 'NOT_FOUND', /does not exist/);
    await expectCode(() => mountMemoryBranch({ dir, into, branch: 'bad..name' }), 'INVALID_ARGUMENT', /invalid branch/);
    await expectCode(() => mountMemoryBranch({ dir: scratch, into }), 'NOT_FOUND', /not a git repository/);
    expect(existsSync(into)).toBe(false);
  });

  it('refuses a non-empty directory that is not a mount, and a mount of another branch; nothing is touched', async () => {
    mkdirSync(into);
    writeFileSync(join(into, 'precious.txt'), 'do not touch\n');
    await expectCode(() => mountMemoryBranch({ dir, into }), 'INVALID_ARGUMENT', /not empty and is not a mount/);
    expect(readdirSync(into)).toEqual(['precious.txt']);
    expect(read('precious.txt')).toBe('do not touch\n');

    const other = join(scratch, 'other');
    await mountMemoryBranch({ dir, into: other });
    await bootstrapMemoryBranch({ dir, branch: 'second/memory' });
    const listing = readdirSync(other).sort();
    await expectCode(
      () => mountMemoryBranch({ dir, into: other, branch: 'second/memory' }),
      'INVALID_ARGUMENT',
      /it is a mount of agent\/memory/,
    );
    expect(readdirSync(other).sort()).toEqual(listing);
    await expectCode(
      () => mountMemoryBranch({ dir, into: join(dir, '.git', 'mnt') }),
      'INVALID_ARGUMENT',
      /inside the git directory/,
    );
  });

  it('brings an existing mount up to the tip keeping local edits, and refuses (conflict, nothing written) when both changed a path', async () => {
    await mountMemoryBranch({ dir, into });
    write('notes/local.md', 'local draft\n');
    await otherWriter({ 'PROJECT.md': '# Project\n\n## Goals\n- ship\n', 'daily/.gitkeep': null });
    const refreshed = await mountMemoryBranch({ dir, into });
    expect(refreshed).toMatchObject({
      status: 'mounted',
      fresh: false,
      written: ['PROJECT.md'],
      removed: ['daily/.gitkeep'],
    });
    expect(read('PROJECT.md')).toContain('- ship');
    expect(read('notes/local.md')).toBe('local draft\n');
    expect(existsSync(join(into, 'daily'))).toBe(false);

    write('MEMORY.md', '# Memory\n\n## Notes\n- mine\n');
    await otherWriter({ 'MEMORY.md': '# Memory\n\n## Notes\n- theirs\n', 'README.md': 'changed\n' });
    const conflict = await mountMemoryBranch({ dir, into });
    expect(conflict).toEqual({ status: 'conflict', into, paths: ['MEMORY.md'] });
    expect(read('MEMORY.md')).toContain('- mine');
    expect(read('README.md')).not.toBe('changed\n');
  });

  it('never materialises reserved names: *.lock entries and any spelling of .git (hooks stay out)', async () => {
    const hook = git(dir, ['hash-object', '-w', '--stdin'], { input: '#!/bin/sh\necho pwned\n' });
    const ok = git(dir, ['hash-object', '-w', '--stdin'], { input: '- fine\n' });
    const entry = (mode: string, name: string, oid: string): Buffer =>
      Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(oid, 'hex')]);
    const hooks = git(dir, ['mktree'], { input: `100755 blob ${hook}\tpost-checkout\n` });
    const dotGit = git(dir, ['mktree'], { input: `040000 tree ${hooks}\thooks\n` });
    const notes = git(dir, ['mktree'], { input: `100644 blob ${ok}\tx.md.lock\n100644 blob ${ok}\ty.md\n` });
    // Git order (byte order of names, trees compared as "name/"), written raw: git mktree would refuse .GIT.
    const raw = Buffer.concat([
      entry('40000', '.GIT', dotGit),
      entry('100644', 'MEMORY.md', ok),
      entry('100644', 'MEMORY.md.lock', ok),
      entry('40000', 'notes', notes),
    ]);
    const tree = git(dir, ['hash-object', '-w', '-t', 'tree', '--literally', '--stdin'], { input: raw });
    const commit = git(dir, ['commit-tree', tree, '-m', 'crafted']);
    git(dir, ['update-ref', 'refs/heads/evil/memory', commit]);

    const outcome = await mountMemoryBranch({ dir, into, branch: 'evil/memory' });
    expect(outcome.status).toBe('mounted');
    if (outcome.status !== 'mounted') return;
    expect([...outcome.written].sort()).toEqual(['MEMORY.md', 'notes/y.md']);
    expect(outcome.skipped.map((skip) => [skip.path.replace(/\/$/, ''), skip.reason])).toEqual([
      ['.GIT', 'invalid_path'],
      ['MEMORY.md.lock', 'invalid_path'],
      ['notes/x.md.lock', 'invalid_path'],
    ]);
    expect(existsSync(join(into, '.GIT'))).toBe(false);
    expect(existsSync(join(into, 'MEMORY.md.lock'))).toBe(false);
    expect(existsSync(join(into, 'notes', 'x.md.lock'))).toBe(false);
  });

  it('never materialises unsafe tree entries (.., .git, names with "/", symlinks, submodules)', async () => {
    const blob = git(dir, ['hash-object', '-w', '--stdin'], { input: 'pwned\n' });
    const ok = git(dir, ['hash-object', '-w', '--stdin'], { input: 'fine\n' });
    const link = git(dir, ['hash-object', '-w', '--stdin'], { input: '../../outside' });
    const sub = git(dir, ['mktree'], { input: `100644 blob ${blob}\tpwned\n` });
    const entry = (mode: string, name: string, oid: string): Buffer =>
      Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(oid, 'hex')]);
    // Git order, written raw: git mktree would refuse these names.
    const raw = Buffer.concat([
      entry('40000', '..', sub),
      entry('40000', '.git', sub),
      entry('100644', 'a/../../escape.md', blob),
      entry('120000', 'link', link),
      entry('100644', 'ok.md', ok),
      entry('160000', 'submodule', ok),
    ]);
    const tree = git(dir, ['hash-object', '-w', '-t', 'tree', '--literally', '--stdin'], { input: raw });
    const commit = git(dir, ['commit-tree', tree, '-m', 'crafted']);
    git(dir, ['update-ref', 'refs/heads/evil/memory', commit]);

    const outcome = await mountMemoryBranch({ dir, into, branch: 'evil/memory' });
    expect(outcome.status).toBe('mounted');
    if (outcome.status !== 'mounted') return;
    expect(outcome.written).toEqual(['ok.md']);
    expect(outcome.skipped.map((skip) => [skip.path, skip.reason])).toEqual([
      ['..', 'invalid_path'],
      ['.git', 'invalid_path'],
      ['a/../../escape.md', 'invalid_path'],
      ['link', 'symlink'],
      ['submodule', 'submodule'],
    ]);
    expect(readdirSync(into).sort()).toEqual(['.gitignore', MOUNT_MARKER_FILE, 'ok.md']);
    expect(readdirSync(scratch)).toEqual(['memory']);
    expect(existsSync(join(scratch, 'pwned'))).toBe(false);
    expect(existsSync(join(scratch, 'escape.md'))).toBe(false);

    // A commit from that mount keeps the entries it could not materialise.
    write('ok.md', 'better\n');
    const committed = await commitMountedTree({ into });
    expect(committed.status).toBe('committed');
    expect(git(dir, ['ls-tree', '--name-only', 'evil/memory']).split('\n')).toEqual([
      '..',
      '.git',
      '.gitignore',
      'a/../../escape.md',
      'link',
      'ok.md',
      'submodule',
    ]);
  });
});

describe('commitMountedTree', () => {
  it('commits edits made with plain fs as one commit git reads; nothing else changes for the user', async () => {
    const before = userState(dir);
    await mountMemoryBranch({ dir, into });
    const base = tip();
    write('MEMORY.md', '# Memory\n\n## Conventions\n- use pnpm, never npm\n');
    write('notes/plan.md', '- step 1\n');
    const outcome = await commitMountedTree({
      into,
      trailers: { 'Task-Id': 'T-42', 'Prompt-Version': 'v3', 'Thread-Key': 'acme/rocket:issue:7:implement:default' },
      agentId: 'triage-bot',
    });
    expect(outcome).toEqual({
      status: 'committed',
      commit: tip(),
      parent: base,
      changed: [
        { path: 'MEMORY.md', status: 'modified' },
        { path: 'notes/plan.md', status: 'added' },
      ],
      merged: [],
      skipped: [],
    });
    expect(fsckStrict(dir)).toBe('');
    expect(git(dir, ['show', `${BRANCH}:MEMORY.md`])).toBe('# Memory\n\n## Conventions\n- use pnpm, never npm');
    expect(git(dir, ['show', `${BRANCH}:notes/plan.md`])).toBe('- step 1');
    expect(git(dir, ['log', '-1', '--format=%s|%an <%ae>|%P', BRANCH])).toBe(
      `chore(memory): update memory|triage-bot <agent@localhost>|${base}`,
    );
    expect(git(dir, ['log', '-1', '--format=%(trailers)', BRANCH])).toBe(
      'Task-Id: T-42\nPrompt-Version: v3\nThread-Key: acme/rocket:issue:7:implement:default',
    );
    expect(JSON.parse(read(MOUNT_MARKER_FILE)).commit).toBe(tip());
    expect(lsTree(dir, BRANCH)).not.toContain(MOUNT_MARKER_FILE);
    expect(userState(dir)).toEqual(before);
    // Committing again: nothing to commit, no empty commit.
    const again = await commitMountedTree({ into });
    expect(again).toEqual({ status: 'nothing_to_commit', commit: tip(), skipped: [] });
    expect(git(dir, ['rev-list', '--count', BRANCH])).toBe('2');
  });

  it('nothing changed after a mount: nothing_to_commit and no commit', async () => {
    await mountMemoryBranch({ dir, into });
    const base = tip();
    expect(await commitMountedTree({ into, message: 'checkpoint: nothing' })).toEqual({
      status: 'nothing_to_commit',
      commit: base,
      skipped: [],
    });
    expect(tip()).toBe(base);
  });

  it('takes a message with subject, body and trailers', async () => {
    await mountMemoryBranch({ dir, into });
    write('MEMORY.md', '- x\n');
    await commitMountedTree({
      into,
      message: 'checkpoint: before refactor\n\nwhy: safety',
      trailers: { 'Task-Id': 'T-1' },
    });
    expect(git(dir, ['log', '-1', '--format=%s|%b', BRANCH])).toBe(
      'checkpoint: before refactor|why: safety\n\nTask-Id: T-1',
    );
    write('MEMORY.md', '- y\n');
    await commitMountedTree({
      into,
      message: { subject: 'session-close', body: 'session s1', trailers: { 'Agent-Id': 'a' } },
    });
    expect(git(dir, ['log', '-1', '--format=%s|%(trailers:key=Agent-Id,valueonly)', BRANCH])).toBe('session-close|a');
    write('MEMORY.md', '- z\n');
    await expectCode(
      () => commitMountedTree({ into, trailers: { 'bad key': 'x' } }),
      'INVALID_ARGUMENT',
      /trailer key/,
    );
  });

  it('commits deletes', async () => {
    await mountMemoryBranch({ dir, into });
    rmSync(join(into, 'README.md'));
    rmSync(join(into, 'daily'), { recursive: true });
    const outcome = await commitMountedTree({ into });
    expect(outcome).toMatchObject({
      status: 'committed',
      changed: [
        { path: 'README.md', status: 'deleted' },
        { path: 'daily/.gitkeep', status: 'deleted' },
      ],
    });
    expect(lsTree(dir, BRANCH)).toEqual(['.gitignore', 'MEMORY.md', 'PROJECT.md', 'github/.gitkeep']);
    expect(fsckStrict(dir)).toBe('');
  });

  it('runs the semantic flow on the mount: openMemory over a directory store adds a bullet, then it is committed', async () => {
    await mountMemoryBranch({ dir, into });
    const store = await openDirectoryStore({ root: into });
    try {
      const memory = openMemory({ store });
      const outcome = await memory.add({ file: 'MEMORY.md', section: 'Conventions', text: 'run tests with vitest' });
      expect(outcome.kind).toBe('added');
      expect((await memory.dailyAppend({ text: 'mounted and edited', date: '2026-02-03' })).kind).toBe('added');
    } finally {
      await store.close();
    }
    const committed = await commitMountedTree({ into, trailers: { 'Task-Id': 'T-7' } });
    expect(committed).toMatchObject({
      status: 'committed',
      changed: [
        { path: 'MEMORY.md', status: 'modified' },
        { path: 'daily/2026-02-03.md', status: 'added' },
      ],
      skipped: [],
    });
    expect(git(dir, ['show', `${BRANCH}:MEMORY.md`])).toBe('# Memory\n\n## Conventions\n- run tests with vitest');
    expect(fsckStrict(dir)).toBe('');
  });

  it('merges at file level when the branch moved since the mount (paths changed on one side only)', async () => {
    await mountMemoryBranch({ dir, into });
    write('MEMORY.md', '# Memory\n\n## Notes\n- mine\n');
    rmSync(join(into, 'github', '.gitkeep'));
    await otherWriter({ 'PROJECT.md': '# Project\n\n## Goals\n- theirs\n', 'daily/2026-01-01.md': '- log\n' });
    const theirs = tip();
    const outcome = await commitMountedTree({ into });
    expect(outcome).toMatchObject({
      status: 'committed',
      parent: theirs,
      changed: [
        { path: 'MEMORY.md', status: 'modified' },
        { path: 'github/.gitkeep', status: 'deleted' },
      ],
      merged: ['PROJECT.md', 'daily/2026-01-01.md'],
    });
    expect(git(dir, ['show', `${BRANCH}:MEMORY.md`])).toContain('- mine');
    expect(git(dir, ['show', `${BRANCH}:PROJECT.md`])).toContain('- theirs');
    expect(read('PROJECT.md')).toContain('- theirs');
    expect(read('daily/2026-01-01.md')).toBe('- log\n');
    expect(lsTree(dir, BRANCH)).not.toContain('github/.gitkeep');
    expect(JSON.parse(read(MOUNT_MARKER_FILE)).commit).toBe(tip());
    expect(fsckStrict(dir)).toBe('');
    expect(await commitMountedTree({ into })).toMatchObject({ status: 'nothing_to_commit' });
  });

  it('reports a conflict when both sides changed the same file differently; nothing is committed or overwritten', async () => {
    await mountMemoryBranch({ dir, into });
    write('MEMORY.md', '# Memory\n\n## Notes\n- mine\n');
    write('notes/only-mine.md', '- x\n');
    await otherWriter({ 'MEMORY.md': '# Memory\n\n## Notes\n- theirs\n' });
    const theirs = tip();
    const marker = read(MOUNT_MARKER_FILE);
    const outcome = await commitMountedTree({ into });
    expect(outcome).toEqual({ status: 'conflict', paths: ['MEMORY.md'], skipped: [] });
    expect(tip()).toBe(theirs);
    expect(read('MEMORY.md')).toContain('- mine');
    expect(read(MOUNT_MARKER_FILE)).toBe(marker);
  });

  it('the same change on both sides is not a conflict', async () => {
    await mountMemoryBranch({ dir, into });
    write('MEMORY.md', '# Memory\n\n## Notes\n- same\n');
    await otherWriter({ 'MEMORY.md': '# Memory\n\n## Notes\n- same\n' });
    expect(await commitMountedTree({ into })).toMatchObject({ status: 'nothing_to_commit' });
  });

  it('refuses a directory that is not a mount, and a corrupt marker', async () => {
    mkdirSync(into);
    await expectCode(() => commitMountedTree({ into }), 'NOT_FOUND', /is not a mount/);
    writeFileSync(join(into, MOUNT_MARKER_FILE), '{"format":"repomem-mount"}');
    await expectCode(() => commitMountedTree({ into }), 'INVALID_DOCUMENT', /mount marker .* is malformed/);
    writeFileSync(join(into, MOUNT_MARKER_FILE), 'not json');
    await expectCode(() => commitMountedTree({ into }), 'INVALID_DOCUMENT', /not valid JSON/);
  });

  it('refuses to move a branch that is checked out in a worktree (it would fall behind)', async () => {
    await mountMemoryBranch({ dir, into });
    const worktree = join(scratch, 'wt');
    git(dir, ['worktree', 'add', '-q', worktree, BRANCH]);
    write('MEMORY.md', '- x\n');
    const base = tip();
    await expectCode(() => commitMountedTree({ into }), 'INVALID_ARGUMENT', /is checked out/);
    expect(tip()).toBe(base);
  });
});
