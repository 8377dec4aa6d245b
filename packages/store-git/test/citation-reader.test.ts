// Why: the git citation reader against a real repository built with the git CLI: files read at
// HEAD and at older commits (by branch, tag, full and abbreviated id, ancestry), the history a
// citation goes stale through (lines moved, file deleted, file renamed), packed objects after
// `git gc`, and every class of bad input.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Citation,
  type CitationSource,
  checkCitation,
  isRepomemError,
  snippetHash,
  verifyCitations,
} from '@repomem/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitCitationReader } from '../src/index.js';
import { freshDirectory, freshRepository, git, removeDirectory } from './support.js';

const IDENTITY = ['-c', 'user.name=Citation Test', '-c', 'user.email=citations@example.com'];
const CONFIG_V1 = 'export const API_VERSION = 3;\nexport const TIMEOUT_MS = 500;\n';
const CONFIG_V2 = `// header added later\n// second line\n\n${CONFIG_V1}`;
const RENAMED = 'export function legacy() {\n  return 1;\n}\n';

let dir: string;
let scratch: string;
let first: string;
let second: string;

function write(path: string, content: string | Uint8Array): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), content);
}

function commit(message: string): string {
  git(dir, ['add', '-A']);
  git(dir, [...IDENTITY, 'commit', '-q', '-m', message]);
  return git(dir, ['rev-parse', 'HEAD']);
}

function blobId(revision: string, path: string): string {
  return git(dir, ['rev-parse', `${revision}:${path}`]);
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

beforeAll(async () => {
  dir = await freshRepository();
  scratch = await freshDirectory();
  write('src/config.ts', CONFIG_V1);
  write('src/old-name.ts', RENAMED);
  write('docs/removed.md', '# Soon gone\n');
  write('docs/my notes/café.md', 'unicode path\n');
  write('assets/logo.bin', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x1a]));
  write('data/latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  write('big.txt', 'x'.repeat(5000));
  first = commit('first');
  git(dir, [...IDENTITY, 'tag', '-a', 'v1', '-m', 'release 1']);
  write('src/config.ts', CONFIG_V2);
  second = commit('move lines down');
  git(dir, ['rm', '-q', 'docs/removed.md']);
  git(dir, ['mv', 'src/old-name.ts', 'src/new-name.ts']);
  commit('delete and rename');
});

afterAll(async () => {
  await removeDirectory(dir);
  await removeDirectory(scratch);
});

describe('git citation reader: revisions', () => {
  it('reads a file at HEAD with its blob id and the commit id as revision', async () => {
    const head = git(dir, ['rev-parse', 'HEAD']);
    const source = await createGitCitationReader({ dir }).read({ repo: 'acme/widgets', path: 'src/config.ts' });
    expect(source).toEqual({ kind: 'text', text: CONFIG_V2, blobSha: blobId('HEAD', 'src/config.ts'), revision: head });
  });

  it('reads at an older commit by full id, abbreviated id, annotated tag, ancestry and branch', async () => {
    const reader = createGitCitationReader({ dir });
    const expected = { kind: 'text', text: CONFIG_V1, blobSha: blobId(first, 'src/config.ts'), revision: first };
    for (const ref of [first, first.slice(0, 7), 'v1', 'refs/tags/v1', 'HEAD~2', 'HEAD^^', `${second}^`]) {
      expect(await reader.read({ repo: 'acme/widgets', path: 'src/config.ts', ref })).toEqual(expected);
    }
    expect(await reader.read({ repo: 'acme/widgets', path: 'src/config.ts', ref: 'main' })).toMatchObject({
      text: CONFIG_V2,
    });
  });

  it('lines moved by a later commit: the old lines are found lower down at HEAD', async () => {
    const reader = createGitCitationReader({ dir });
    const before = await reader.read({ repo: 'acme/widgets', path: 'src/config.ts', ref: first });
    const after = await reader.read({ repo: 'acme/widgets', path: 'src/config.ts' });
    const lines = (source: CitationSource) => (source.kind === 'text' ? source.text.split('\n') : []);
    expect(lines(before)[0]).toBe('export const API_VERSION = 3;');
    expect(lines(after).indexOf('export const API_VERSION = 3;')).toBe(3);
  });

  it('a deleted file is missing at HEAD and readable before', async () => {
    const reader = createGitCitationReader({ dir });
    expect(await reader.read({ repo: 'r/r', path: 'docs/removed.md' })).toMatchObject({ kind: 'missing' });
    expect(await reader.read({ repo: 'r/r', path: 'docs/removed.md', ref: second })).toMatchObject({ kind: 'text' });
  });

  it('a renamed file: the old path is missing at HEAD, the new path has the same blob', async () => {
    const reader = createGitCitationReader({ dir });
    expect(await reader.read({ repo: 'r/r', path: 'src/old-name.ts' })).toMatchObject({ kind: 'missing' });
    const old = await reader.read({ repo: 'r/r', path: 'src/old-name.ts', ref: first });
    const renamed = await reader.read({ repo: 'r/r', path: 'src/new-name.ts' });
    expect(renamed).toMatchObject({ kind: 'text', text: RENAMED });
    expect(old.kind === 'text' && renamed.kind === 'text' && old.blobSha === renamed.blobSha).toBe(true);
  });

  it('follows a branch that moves (resolved on every read, cached by commit)', async () => {
    const repo = await freshRepository();
    try {
      writeFileSync(join(repo, 'a.txt'), 'one\n');
      git(repo, ['add', '-A']);
      git(repo, [...IDENTITY, 'commit', '-q', '-m', 'one']);
      const reader = createGitCitationReader({ dir: repo });
      expect(await reader.read({ repo: 'r/r', path: 'a.txt' })).toMatchObject({ text: 'one\n' });
      writeFileSync(join(repo, 'a.txt'), 'two\n');
      git(repo, [...IDENTITY, 'commit', '-q', '-am', 'two']);
      expect(await reader.read({ repo: 'r/r', path: 'a.txt' })).toMatchObject({ text: 'two\n' });
      expect(await reader.read({ repo: 'r/r', path: 'a.txt', ref: 'HEAD~1' })).toMatchObject({ text: 'one\n' });
    } finally {
      await removeDirectory(repo);
    }
  });

  it('reads packed objects after git gc (a copy of the repository, so other tests keep loose objects)', async () => {
    const packed = join(scratch, 'packed');
    cpSync(dir, packed, { recursive: true });
    git(packed, ['gc', '-q', '--prune=now']);
    expect(git(packed, ['count-objects', '-v'])).toMatch(/^count: 0$/m);
    const reader = createGitCitationReader({ dir: packed });
    expect(await reader.read({ repo: 'r/r', path: 'src/config.ts' })).toMatchObject({ text: CONFIG_V2 });
    expect(await reader.read({ repo: 'r/r', path: 'src/config.ts', ref: first.slice(0, 8) })).toMatchObject({
      text: CONFIG_V1,
      revision: first,
    });
    expect(await reader.read({ repo: 'r/r', path: 'src/old-name.ts', ref: 'v1' })).toMatchObject({ text: RENAMED });
  });

  it('reads a bare repository', async () => {
    const bare = join(scratch, 'bare.git');
    git(scratch, ['clone', '-q', '--bare', dir, bare]);
    const source = await createGitCitationReader({ dir: bare }).read({ repo: 'r/r', path: 'src/new-name.ts' });
    expect(source).toMatchObject({ kind: 'text', text: RENAMED });
  });
});

describe('git citation reader: file kinds', () => {
  it('a path that is a directory is missing', async () => {
    expect(await createGitCitationReader({ dir }).read({ repo: 'r/r', path: 'src' })).toMatchObject({
      kind: 'missing',
    });
  });

  it('a path through a file is missing', async () => {
    expect(await createGitCitationReader({ dir }).read({ repo: 'r/r', path: 'big.txt/inner' })).toMatchObject({
      kind: 'missing',
    });
  });

  it('NUL bytes or invalid UTF-8 are binary', async () => {
    const reader = createGitCitationReader({ dir });
    expect(await reader.read({ repo: 'r/r', path: 'assets/logo.bin' })).toMatchObject({ kind: 'binary' });
    expect(await reader.read({ repo: 'r/r', path: 'data/latin1.txt' })).toMatchObject({ kind: 'binary' });
  });

  it('a file over maxBytes is too_large with its size', async () => {
    expect(await createGitCitationReader({ dir, maxBytes: 1000 }).read({ repo: 'r/r', path: 'big.txt' })).toEqual({
      kind: 'too_large',
      revision: git(dir, ['rev-parse', 'HEAD']),
      bytes: 5000,
    });
  });

  it('a path with spaces and unicode', async () => {
    expect(await createGitCitationReader({ dir }).read({ repo: 'r/r', path: 'docs/my notes/café.md' })).toMatchObject({
      kind: 'text',
      text: 'unicode path\n',
    });
  });
});

describe('git citation reader: bad input', () => {
  it.each([['no-such-branch'], ['deadbeef'], ['a'.repeat(40)], ['HEAD~10'], ['v1^2']])(
    'unknown ref %j => NOT_FOUND naming the ref',
    async (ref) => {
      const error = await rejection(createGitCitationReader({ dir }).read({ repo: 'r/r', path: 'big.txt', ref }));
      expect(isRepomemError(error, 'NOT_FOUND')).toBe(true);
      expect(error.message).toContain(JSON.stringify(ref));
    },
  );

  it.each([['a..b'], ['has space'], ['HEAD:path'], ['']])('malformed ref %j => INVALID_ARGUMENT', async (ref) => {
    const error = await rejection(createGitCitationReader({ dir }).read({ repo: 'r/r', path: 'big.txt', ref }));
    expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
  });

  it('a directory that is not a repository => NOT_FOUND "not a git repository"', async () => {
    const plain = join(scratch, 'plain');
    mkdirSync(plain, { recursive: true });
    const error = await rejection(createGitCitationReader({ dir: plain }).read({ repo: 'r/r', path: 'a.txt' }));
    expect(isRepomemError(error, 'NOT_FOUND')).toBe(true);
    expect(error.message).toContain('not a git repository');
  });

  it('a repository without commits => NOT_FOUND saying HEAD has no commits', async () => {
    const empty = await freshRepository();
    try {
      const error = await rejection(createGitCitationReader({ dir: empty }).read({ repo: 'r/r', path: 'a.txt' }));
      expect(isRepomemError(error, 'NOT_FOUND')).toBe(true);
      expect(error.message).toContain('no commits yet');
    } finally {
      await removeDirectory(empty);
    }
  });

  it.each([['../outside.txt'], ['/etc/passwd'], ['']])('bad path %j => INVALID_PATH', async (path) => {
    const error = await rejection(createGitCitationReader({ dir }).read({ repo: 'r/r', path }));
    expect(isRepomemError(error, 'INVALID_PATH')).toBe(true);
  });

  it('bad options => INVALID_ARGUMENT', () => {
    expect(() => createGitCitationReader({ dir: '' })).toThrow(/dir must be/);
    expect(() => createGitCitationReader({ dir, maxBytes: 0 })).toThrow(/maxBytes/);
  });
});

describe('git citation reader: verification end to end (core checkCitation / verifyCitations)', () => {
  const apiLine = (): Citation => ({
    path: 'src/config.ts',
    line_start: 1,
    line_end: 1,
    sha: first,
    snippet_hash: snippetHash('export const API_VERSION = 3;'),
  });

  it('lines moved by a later commit => relocated to the new lines, pinned to the commit read', async () => {
    const head = git(dir, ['rev-parse', 'HEAD']);
    const check = await checkCitation(createGitCitationReader({ dir }), 'acme/widgets', apiLine());
    expect(check).toMatchObject({
      kind: 'relocated',
      relocated: { path: 'src/config.ts', line_start: 4, line_end: 4, sha: head },
      content: 'export const API_VERSION = 3;',
    });
  });

  it('at the commit it was made, the citation is valid', async () => {
    const check = await checkCitation(createGitCitationReader({ dir }), 'acme/widgets', apiLine(), first);
    expect(check).toMatchObject({ kind: 'valid', content: 'export const API_VERSION = 3;' });
  });

  it('deleted and renamed files => invalid file_missing; the memory is not valid', async () => {
    const citations: Citation[] = [
      apiLine(),
      { path: 'docs/removed.md', line_start: 1, line_end: 1 },
      { path: 'src/old-name.ts', line_start: 1, line_end: 3, snippet_hash: snippetHash(RENAMED.trimEnd()) },
    ];
    const result = await verifyCitations(createGitCitationReader({ dir }), 'acme/widgets', citations);
    expect(result).toMatchObject({ valid: false, valid_count: 1, invalid_count: 2, unavailable_count: 0 });
    expect(result.citations.map((check) => (check.kind === 'invalid' ? check.reason : check.kind))).toEqual([
      'relocated',
      'file_missing',
      'file_missing',
    ]);
  });

  it('an unknown ref is unavailable, never invalid', async () => {
    const check = await checkCitation(createGitCitationReader({ dir }), 'acme/widgets', apiLine(), 'no-such-branch');
    expect(check.kind).toBe('unavailable');
  });
});
