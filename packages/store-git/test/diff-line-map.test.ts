// Why: the diff parser and the line arithmetic decide whether a memory survives, so their edge
// cases are pinned on literal diff text: quoted paths, hunk bodies that look like headers,
// insertions between cited lines, pure renames and binary changes.
import { describe, expect, it } from 'vitest';
import { mapRange, parseDiff, unquoteGitPath } from '../src/citations/diff-line-map.js';

const DIFF = [
  'diff --git a/src/a.ts b/src/a.ts',
  'index 1111111..2222222 100644',
  '--- a/src/a.ts',
  '+++ b/src/a.ts',
  '@@ -0,0 +1,2 @@',
  '+// one',
  '+// two',
  '@@ -5 +7 @@',
  '--- looks like a header',
  '+++ looks like a header too',
  '@@ -9,0 +12 @@',
  '+inserted after old line 9',
  'diff --git a/old dir/b.ts b/new dir/b.ts',
  'similarity index 100%',
  'rename from old dir/b.ts',
  'rename to new dir/b.ts',
  'diff --git "a/caf\\303\\251.md" "b/caf\\303\\251.md"',
  'deleted file mode 100644',
  'index 3333333..0000000',
  '--- "a/caf\\303\\251.md"',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-bye',
  'diff --git a/img.png b/img.png',
  'index 4444444..5555555 100644',
  'Binary files a/img.png and b/img.png differ',
  'diff --git a/new.ts b/new.ts',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/new.ts',
  '@@ -0,0 +1 @@',
  '+x',
  '',
].join('\n');

describe('parseDiff and mapRange', () => {
  const index = parseDiff(DIFF);

  it('indexes modified, renamed, deleted and binary files by old path (added files left out)', () => {
    expect([...index.keys()].sort()).toEqual(['café.md', 'img.png', 'old dir/b.ts', 'src/a.ts']);
    expect(index.get('src/a.ts')?.hunks).toHaveLength(3);
    expect(index.get('old dir/b.ts')?.new_path).toBe('new dir/b.ts');
    expect(index.get('café.md')?.new_path).toBeNull();
  });

  it('maps lines through insertions above, replacements and insertions inside', () => {
    const a = index.get('src/a.ts');
    expect(mapRange(a, 2, 3)).toEqual({ kind: 'moved', path: 'src/a.ts', line_start: 4, line_end: 5 });
    expect(mapRange(a, 5, 5)).toMatchObject({ kind: 'changed', path: 'src/a.ts' });
    expect(mapRange(a, 9, 10)).toMatchObject({ kind: 'changed' });
    expect(mapRange(a, 10, 10)).toEqual({ kind: 'moved', path: 'src/a.ts', line_start: 13, line_end: 13 });
    expect(mapRange(a, 6, 9)).toEqual({ kind: 'moved', path: 'src/a.ts', line_start: 8, line_end: 11 });
    expect(mapRange(index.get('old dir/b.ts'), 3, 4)).toEqual({
      kind: 'moved',
      path: 'new dir/b.ts',
      line_start: 3,
      line_end: 4,
    });
    expect(mapRange(index.get('café.md'), 1, 1)).toEqual({ kind: 'deleted' });
    expect(mapRange(index.get('img.png'), 1, 1)).toMatchObject({ kind: 'changed' });
    expect(mapRange(undefined, 1, 1)).toEqual({ kind: 'same', file_changed: false });
  });

  it('unquotes C-style paths', () => {
    expect(unquoteGitPath('"a/tab\\there \\"q\\""')).toBe('a/tab\there "q"');
    expect(unquoteGitPath('plain/path.ts')).toBe('plain/path.ts');
  });
});
