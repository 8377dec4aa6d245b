import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isRepomemError, StoreRegistry } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { citationReaderScheme, type GitStore, storeScheme } from '../src/index.js';
import { freshDirectory, freshRepository, git, removeDirectory, utf8 } from './support.js';

let dir: string;
let registry: StoreRegistry;

beforeEach(async () => {
  dir = await freshRepository();
  registry = new StoreRegistry({ builtins: false });
  registry.registerStoreScheme(storeScheme);
  registry.registerCitationReaderScheme(citationReaderScheme);
});
afterEach(async () => {
  await removeDirectory(dir);
});

async function errorOf(action: () => Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await action();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a throw');
}

describe('git: store scheme', () => {
  it('parses git:<repo-dir>[#<branch>], resolving a relative directory against cwd', async () => {
    const parent = join(dir, '..');
    const name = relative(parent, dir);
    const plain = await registry.resolveStoreSpec(`git:${name}`, { cwd: parent });
    expect(plain.target).toEqual({ dir });
    expect(plain.label).toBe(`git:${dir}`);
    const branched = await registry.resolveStoreSpec(`git:${name}#team/memory`, { cwd: parent });
    expect(branched.target).toEqual({ dir, branch: 'team/memory' });
    expect(branched.label).toBe(`git:${dir}#team/memory`);
    expect((await registry.resolveStoreSpec('git:/a#b#c', { cwd: '/' })).target).toEqual({ dir: '/a#b', branch: 'c' });
  });

  it('opens the branch in object mode; nothing is written until the first write', async () => {
    const store = (await registry.openStore(`git:${dir}#team/memory`, { cwd: '/' })) as GitStore;
    try {
      expect(store.name).toBe('git');
      expect(store.branch).toBe('team/memory');
      expect(git(dir, ['for-each-ref'])).toBe('');
      await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('- a\n') }]);
      expect(git(dir, ['show', 'team/memory:MEMORY.md'])).toBe('- a');
    } finally {
      await store.close();
    }
  });

  it('refuses a bad branch name or an empty part when parsing, naming the spec and the grammar', async () => {
    for (const spec of ['git:.#a..b', 'git:.#-x', 'git:.#refs/heads/x', 'git:', 'git:#main', 'git:.#']) {
      const error = await errorOf(() => registry.resolveStoreSpec(spec, { cwd: dir }));
      expect(isRepomemError(error, 'INVALID_ARGUMENT'), spec).toBe(true);
      expect(error.message).toContain(JSON.stringify(spec));
      expect(error.message).toContain('git:<repo-dir>[#<branch>]');
    }
    expect(git(dir, ['for-each-ref'])).toBe('');
  });

  it('a directory that is not a repository is NOT_FOUND', async () => {
    const empty = await freshDirectory();
    try {
      expect((await errorOf(() => registry.openStore(`git:${empty}`))).code).toBe('NOT_FOUND');
      expect((await errorOf(() => registry.openStore(`git:${join(empty, 'missing')}`))).code).toBe('NOT_FOUND');
    } finally {
      await removeDirectory(empty);
    }
  });

  it('is what the built-in registry loads for git: (the package export)', async () => {
    const builtin = new StoreRegistry();
    const store = await builtin.openStore(`git:${dir}`, { cwd: '/' });
    try {
      expect(store.name).toBe('git');
      expect(store.specificationVersion).toBe(2);
    } finally {
      await store.close();
    }
  });
});

describe('git: citation-reader scheme', () => {
  beforeEach(() => {
    git(dir, ['commit', '-q', '--allow-empty', '-m', 'empty']);
    git(dir, ['checkout', '-q', '-b', 'old']);
    git(dir, ['commit', '-q', '--allow-empty', '-m', 'still empty']);
  });

  it('reads at the spec revision, else the context ref, else HEAD', async () => {
    writeFileSync(join(dir, 'a.txt'), 'old\n');
    git(dir, ['add', 'a.txt']);
    git(dir, ['commit', '-q', '-m', 'old a']);
    git(dir, ['checkout', '-q', 'main']);
    writeFileSync(join(dir, 'a.txt'), 'main\n');
    git(dir, ['add', 'a.txt']);
    git(dir, ['commit', '-q', '-m', 'main a']);
    const textAt = async (spec: string, ref?: string) => {
      const reader = await registry.openCitationReader(spec, { cwd: dir, ...(ref === undefined ? {} : { ref }) });
      const source = await reader.read({ repo: 'o/r', path: 'a.txt' });
      return source.kind === 'text' ? source.text : source.kind;
    };
    expect(await textAt('git:.')).toBe('main\n');
    expect(await textAt('git:.#old')).toBe('old\n');
    expect(await textAt('git:.', 'old')).toBe('old\n');
    expect(await textAt('git:.#main', 'old')).toBe('main\n');
    const reader = await registry.openCitationReader('git:.', { cwd: dir, ref: 'old' });
    const pinned = await reader.read({ repo: 'o/r', path: 'a.txt', ref: 'main' });
    expect(pinned.kind === 'text' ? pinned.text : pinned.kind).toBe('main\n');
    expect((await registry.resolveCitationReaderSpec('git:.#v1~2', { cwd: dir })).label).toBe(`git:${dir}#v1~2`);
  });

  it('a missing repository is NOT_FOUND when opening; a bad revision is INVALID_ARGUMENT when parsing', async () => {
    const empty = await freshDirectory();
    try {
      expect((await errorOf(() => registry.openCitationReader(`git:${empty}`))).code).toBe('NOT_FOUND');
    } finally {
      await removeDirectory(empty);
    }
    for (const spec of ['git:.#a b', 'git:.#', 'git:']) {
      expect((await errorOf(() => registry.resolveCitationReaderSpec(spec, { cwd: dir }))).code, spec).toBe(
        'INVALID_ARGUMENT',
      );
    }
  });
});
