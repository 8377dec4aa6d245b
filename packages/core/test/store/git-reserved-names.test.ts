// Why: a path git refuses in a tree must never reach any store (documents move between stores,
// and one such entry makes `git fsck --strict`, clone and every later push fail). These cases
// follow git's own checks (path.c is_ntfs_dotgit / is_ntfs_dot_generic, utf8.c is_hfs_dotgit);
// store-git's tests check the same names against a real `git fsck --strict`.
import { describe, expect, it } from 'vitest';
import { gitReservedName } from '../../src/store/git-reserved-names.js';
import { createInMemoryStore } from '../../src/store/memory-store.js';
import { normalizeDocumentPath } from '../../src/store/paths.js';

/** Names git refuses, with the name each stands for. */
const GIT_REFUSED_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['.git', '.git'],
  ['.GIT', '.git'],
  ['.Git', '.git'],
  ['.git.', '.git'],
  ['.git ', '.git'],
  ['.git. . .', '.git'],
  ['.git::$INDEX_ALLOCATION', '.git'],
  ['.git:stream', '.git'],
  ['git~1', '.git'],
  ['GIT~1', '.git'],
  ['git~1.', '.git'],
  ['.g\u200cit', '.git'],
  ['\u200e.GI\u200dT', '.git'],
  ['.git\ufeff', '.git'],
  ['.gitmodules', '.gitmodules'],
  ['.GitModules', '.gitmodules'],
  ['.gitmodules .', '.gitmodules'],
  ['gitmod~1', '.gitmodules'],
  ['GITMOD~4', '.gitmodules'],
  ['gi7eba~1', '.gitmodules'],
  ['gi7eb~12', '.gitmodules'],
  ['.gitm\u200codules', '.gitmodules'],
  ['.gitattributes', '.gitattributes'],
  ['.GITATTRIBUTES:x', '.gitattributes'],
  ['gitatt~2', '.gitattributes'],
  ['gi7d29~1', '.gitattributes'],
];

/** Names that look close but git accepts. */
const GIT_ACCEPTED_NAMES: readonly string[] = [
  '.github',
  '.gitignore',
  '.gitx',
  'git',
  'git~2',
  '.git-notes',
  'x.git',
  '.gitmodulesx',
  'gitmod~5',
  'gi7eba~a',
  '.g\u0131t',
  '.\u00c7it',
];

describe('gitReservedName', () => {
  it.each(GIT_REFUSED_NAMES)('%j stands for %s', (name, reserved) => {
    expect(gitReservedName(name)).toBe(reserved);
  });

  it.each(GIT_ACCEPTED_NAMES)('%j is an ordinary name', (name) => {
    expect(gitReservedName(name)).toBeUndefined();
  });
});

describe('normalizeDocumentPath refuses every name git refuses, at any depth', () => {
  it.each(GIT_REFUSED_NAMES)('%j', (name, reserved) => {
    for (const path of [`${name}/config`, `notes/${name}/hooks/x`, `notes/${name}`]) {
      expect(() => normalizeDocumentPath(path), path).toThrow(expect.objectContaining({ code: 'INVALID_PATH' }));
      expect(() => normalizeDocumentPath(path), path).toThrow(reserved);
    }
  });

  it('refuses other VCS and dependency directories in any case', () => {
    for (const path of ['.HG/x', 'a/.Svn/x', 'Node_Modules/x.js']) {
      expect(() => normalizeDocumentPath(path), path).toThrow(expect.objectContaining({ code: 'INVALID_PATH' }));
    }
  });

  it('accepts the near misses', () => {
    for (const name of GIT_ACCEPTED_NAMES)
      expect(normalizeDocumentPath(`notes/${name}/a.md`)).toBe(`notes/${name}/a.md`);
  });

  it('the in-memory store refuses them on write and read, and writes nothing', async () => {
    const store = createInMemoryStore();
    const content = new TextEncoder().encode('x');
    for (const [name] of GIT_REFUSED_NAMES) {
      await expect(store.write([{ kind: 'put', path: `${name}/config`, content }])).rejects.toMatchObject({
        code: 'INVALID_PATH',
      });
      await expect(store.get(`${name}/config`)).rejects.toMatchObject({ code: 'INVALID_PATH' });
    }
    expect(await store.list()).toEqual([]);
  });
});
