// Why: the pure part of the GitHub line mapping: a compare API patch (hunks with context) cut into
// git's zero-context hunks, and a cited range mapped through them (same, moved, changed, deleted).
import { describe, expect, it } from 'vitest';
import { mapThroughChange, patchHunks } from '../src/citations/patch-line-map.js';
import { unifiedPatch } from './support/unified-diff.js';

const lines = (count: number, prefix = 'line') =>
  Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`).join('\n') + '\n';

describe('patchHunks', () => {
  it('a replacement inside context is one zero-context hunk at its own lines', () => {
    const patch = '@@ -3,7 +3,7 @@\n c3\n c4\n c5\n-old6\n+new6\n c7\n c8\n c9';
    expect(patchHunks(patch)).toEqual([{ old_start: 6, old_count: 1, new_start: 6, new_count: 1 }]);
  });

  it('insertions and deletions use git numbering (count 0 names the line before)', () => {
    const patch = '@@ -1,5 +1,5 @@\n a\n+inserted\n b\n-gone\n c\n d';
    expect(patchHunks(patch)).toEqual([
      { old_start: 1, old_count: 0, new_start: 2, new_count: 1 },
      { old_start: 3, old_count: 1, new_start: 3, new_count: 0 },
    ]);
  });

  it('a hunk header without counts and a "no newline" marker parse', () => {
    expect(patchHunks('@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file')).toEqual([
      { old_start: 1, old_count: 1, new_start: 1, new_count: 1 },
    ]);
  });

  it('agrees with the line counts of generated patches (several hunks)', () => {
    const before = lines(40);
    const after = before.replace('line 2\n', 'line 2\nadded a\nadded b\n').replace('line 30\n', 'changed 30\n');
    const { patch } = unifiedPatch(before, after);
    expect(patchHunks(patch)).toEqual([
      { old_start: 2, old_count: 0, new_start: 3, new_count: 2 },
      { old_start: 30, old_count: 1, new_start: 32, new_count: 1 },
    ]);
  });

  it('malformed patches are undefined (never a guessed mapping)', () => {
    expect(patchHunks('not a patch')).toBeUndefined();
    expect(patchHunks('@@ -1,3 +1,3 @@\n a\n-b')).toBeUndefined();
    expect(patchHunks('@@ -1,1 +1,1 @@\n-a\n-b\n+c')).toBeUndefined();
  });
});

describe('mapThroughChange', () => {
  const change = (hunks: ReturnType<typeof patchHunks>, newPath: string | null = 'a.ts') => ({
    old_path: 'a.ts',
    new_path: newPath,
    hunks: hunks ?? [],
  });

  it('no change is same; a deleted file is deleted', () => {
    expect(mapThroughChange(undefined, 1, 2)).toEqual({ kind: 'same', file_changed: false });
    expect(mapThroughChange(change([], null), 1, 2)).toEqual({ kind: 'deleted' });
  });

  it('lines below an insertion move; lines above stay', () => {
    const hunks = [{ old_start: 4, old_count: 0, new_start: 5, new_count: 3 }];
    expect(mapThroughChange(change(hunks), 10, 12)).toEqual({
      kind: 'moved',
      path: 'a.ts',
      line_start: 13,
      line_end: 15,
    });
    expect(mapThroughChange(change(hunks), 1, 4)).toEqual({ kind: 'same', file_changed: true });
  });

  it('a pure rename moves the path; a hunk over the cited lines is changed with the added ranges', () => {
    expect(mapThroughChange(change([], 'b.ts'), 2, 3)).toEqual({
      kind: 'moved',
      path: 'b.ts',
      line_start: 2,
      line_end: 3,
    });
    const hunks = [{ old_start: 5, old_count: 1, new_start: 5, new_count: 2 }];
    expect(mapThroughChange(change(hunks, 'b.ts'), 4, 6)).toEqual({
      kind: 'changed',
      path: 'b.ts',
      line_start: 4,
      line_end: 6,
      added: [{ line_start: 5, line_end: 6 }],
    });
  });

  it('an insertion between two cited lines changes them', () => {
    const hunks = [{ old_start: 5, old_count: 0, new_start: 6, new_count: 1 }];
    expect(mapThroughChange(change(hunks), 5, 6).kind).toBe('changed');
    expect(mapThroughChange(change(hunks), 6, 7)).toMatchObject({ kind: 'moved', line_start: 7 });
  });
});
