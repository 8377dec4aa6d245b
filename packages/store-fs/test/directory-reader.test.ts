import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkCitation, isRepomemError } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDirectoryCitationReader, gitBlobSha, isBinaryContent } from '../src/index.js';
import { makeTree, removeDirectory as removeTree } from './support.js';

const repo = 'acme/app';

async function rejection(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('directory citation reader', () => {
  let root: string;
  let outside: string;
  beforeEach(async () => {
    root = await makeTree({ 'src/a.ts': 'hello\n', 'docs/readme.md': 'docs\n' });
    outside = await makeTree({ 'secret.txt': 'top secret\n' });
  });
  afterEach(async () => {
    await removeTree(root);
    await removeTree(outside);
  });

  it('reads a text file with its git blob id and the worktree revision', async () => {
    const reader = createDirectoryCitationReader({ root });
    expect(reader.name).toBe('directory');
    const source = await reader.read({ repo, path: './src//a.ts' });
    // `printf 'hello\n' | git hash-object --stdin`
    expect(source).toEqual({
      kind: 'text',
      text: 'hello\n',
      blobSha: 'ce013625030ba8dba906f756967f9e9ca394464a',
      revision: 'worktree',
    });
    expect(gitBlobSha(new Uint8Array())).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
  });

  it('reports a missing file and a directory as missing', async () => {
    const reader = createDirectoryCitationReader({ root });
    expect(await reader.read({ repo, path: 'src/gone.ts' })).toEqual({ kind: 'missing', revision: 'worktree' });
    expect(await reader.read({ repo, path: 'src' })).toEqual({ kind: 'missing', revision: 'worktree' });
    expect(await reader.read({ repo, path: 'src/a.ts/below' })).toEqual({ kind: 'missing', revision: 'worktree' });
  });

  it('detects binary files by NUL bytes and by invalid UTF-8', async () => {
    await writeFile(join(root, 'nul.bin'), new Uint8Array([0x61, 0x00, 0x62]));
    await writeFile(join(root, 'latin1.txt'), new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
    const reader = createDirectoryCitationReader({ root });
    expect((await reader.read({ repo, path: 'nul.bin' })).kind).toBe('binary');
    expect((await reader.read({ repo, path: 'latin1.txt' })).kind).toBe('binary');
    expect(isBinaryContent(new TextEncoder().encode('héllo ✓'))).toBe(false);
  });

  it('reports files over maxBytes as too_large', async () => {
    await writeFile(join(root, 'big.txt'), 'x'.repeat(100));
    const reader = createDirectoryCitationReader({ root, maxBytes: 50 });
    expect(await reader.read({ repo, path: 'big.txt' })).toEqual({
      kind: 'too_large',
      revision: 'worktree',
      bytes: 100,
    });
  });

  it('never follows a symbolic link out of the root', async () => {
    await symlink(join(outside, 'secret.txt'), join(root, 'leak.txt'));
    await symlink(outside, join(root, 'leakdir'));
    const reader = createDirectoryCitationReader({ root });
    expect(await reader.read({ repo, path: 'leak.txt' })).toEqual({ kind: 'missing', revision: 'worktree' });
    expect(await reader.read({ repo, path: 'leakdir/secret.txt' })).toEqual({ kind: 'missing', revision: 'worktree' });
  });

  it('follows a symbolic link that stays inside the root', async () => {
    await mkdir(join(root, 'lib'));
    await symlink(join(root, 'src/a.ts'), join(root, 'lib/a.ts'));
    const reader = createDirectoryCitationReader({ root });
    expect((await reader.read({ repo, path: 'lib/a.ts' })).kind).toBe('text');
  });

  it('refuses a ref, a path with .. and an absolute path', async () => {
    const reader = createDirectoryCitationReader({ root });
    const withRef = await rejection(() => reader.read({ repo, path: 'src/a.ts', ref: 'main' }));
    expect(isRepomemError(withRef, 'INVALID_ARGUMENT')).toBe(true);
    expect((withRef as Error).message).toContain('"main"');
    expect(isRepomemError(await rejection(() => reader.read({ repo, path: '../x' })), 'INVALID_PATH')).toBe(true);
    expect(isRepomemError(await rejection(() => reader.read({ repo, path: '/etc/passwd' })), 'INVALID_PATH')).toBe(
      true,
    );
  });

  it('refuses bad options and reports a missing root when reading', async () => {
    expect(() => createDirectoryCitationReader({ root, maxBytes: 0 })).toThrow(/maxBytes/);
    expect(() => createDirectoryCitationReader({ root: '' })).toThrow(/root/);
    const reader = createDirectoryCitationReader({ root: join(root, 'no-such-dir') });
    expect(isRepomemError(await rejection(() => reader.read({ repo, path: 'a.ts' })), 'NOT_FOUND')).toBe(true);
  });
});

describe('checkCitation through the directory reader', () => {
  let root: string;
  let outside: string;
  beforeEach(async () => {
    root = await makeTree({ 'src/api.ts': 'export const API_VERSION = 3;\n' });
    outside = await makeTree({ 'secret.txt': 'secret\n' });
  });
  afterEach(async () => {
    await removeTree(root);
    await removeTree(outside);
  });

  const reasonOf = (check: Awaited<ReturnType<typeof checkCitation>>) =>
    check.kind === 'invalid' ? check.reason : check.kind;

  it('is valid for a file on disk and file_missing for a symbolic link escaping the tree', async () => {
    await symlink(join(outside, 'secret.txt'), join(root, 'escape.txt'));
    const reader = createDirectoryCitationReader({ root });
    expect(reasonOf(await checkCitation(reader, repo, { path: 'src/api.ts', line_start: 1, line_end: 1 }))).toBe(
      'valid',
    );
    expect(reasonOf(await checkCitation(reader, repo, { path: 'escape.txt', line_start: 1, line_end: 1 }))).toBe(
      'file_missing',
    );
  });

  it('is binary_file for a binary file and file_too_large above the reader limit', async () => {
    await writeFile(join(root, 'logo.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x0a]));
    const reader = createDirectoryCitationReader({ root });
    expect(reasonOf(await checkCitation(reader, repo, { path: 'logo.png', line_start: 1, line_end: 1 }))).toBe(
      'binary_file',
    );
    const small = createDirectoryCitationReader({ root, maxBytes: 10 });
    expect(reasonOf(await checkCitation(small, repo, { path: 'src/api.ts', line_start: 1, line_end: 1 }))).toBe(
      'file_too_large',
    );
  });
});
