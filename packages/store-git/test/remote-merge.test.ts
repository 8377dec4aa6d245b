import { describe, expect, it } from 'vitest';
import { diffLines, splitLines } from '../src/remote/line-diff.js';
import { mergeLines, unionLines } from '../src/remote/line-merge.js';

const BASE = '# Memory\n\n## Notes\n- one\n- two\n- three\n';

describe('line diff', () => {
  it('splits lines keeping their newlines', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\nb\n')).toEqual(['a\n', 'b\n']);
    expect(splitLines('a\nb')).toEqual(['a\n', 'b']);
  });

  it('finds the changed regions', () => {
    expect(diffLines(['a', 'b', 'c'], ['a', 'x', 'c', 'd'])).toEqual([
      { baseStart: 1, baseEnd: 2, otherStart: 1, otherEnd: 2 },
      { baseStart: 3, baseEnd: 3, otherStart: 3, otherEnd: 4 },
    ]);
    expect(diffLines(['a'], ['a'])).toEqual([]);
    expect(diffLines([], ['a'])).toEqual([{ baseStart: 0, baseEnd: 0, otherStart: 0, otherEnd: 1 }]);
  });
});

describe('three-way line merge (local run vs remote)', () => {
  it('takes one-sided changes and identical changes', () => {
    const changed = BASE.replace('- two', '- TWO');
    expect(mergeLines(BASE, changed, BASE)).toEqual({ text: changed, conflicts: [] });
    expect(mergeLines(BASE, BASE, changed)).toEqual({ text: changed, conflicts: [] });
    expect(mergeLines(BASE, changed, changed)).toEqual({ text: changed, conflicts: [] });
  });

  it('keeps both insertions at the same place, remote first (memory is additive)', () => {
    const local = `${BASE}- local\n`;
    const remote = `${BASE}- remote\n`;
    expect(mergeLines(BASE, local, remote)).toEqual({ text: `${BASE}- remote\n- local\n`, conflicts: [] });
  });

  it('unions two new documents, sharing their common header', () => {
    const local = '# Memory\n\n## Notes\n- from local\n';
    const remote = '# Memory\n\n## Notes\n- from remote\n';
    expect(mergeLines('', local, remote).text).toBe('# Memory\n\n## Notes\n- from remote\n- from local\n');
    expect(unionLines(['a\n', 'b\n'], ['b\n', 'c\n'])).toEqual(['a\n', 'b\n', 'c\n']);
  });

  it('merges edits of different lines, and an insertion next to a remote edit', () => {
    const local = BASE.replace('- one', '- ONE');
    const remote = BASE.replace('- three', '- THREE');
    expect(mergeLines(BASE, local, remote)).toEqual({
      text: BASE.replace('- one', '- ONE').replace('- three', '- THREE'),
      conflicts: [],
    });
    const inserted = BASE.replace('- two\n', '- two\n- two and a half\n');
    const edited = BASE.replace('- two', '- 2');
    expect(mergeLines(BASE, inserted, edited).text).toBe(BASE.replace('- two\n', '- 2\n- two and a half\n'));
  });

  it('resolves overlapping edits to the local lines and reports both versions', () => {
    const local = BASE.replace('- two', '- two (local)');
    const remote = BASE.replace('- two', '- two (remote)');
    expect(mergeLines(BASE, local, remote)).toEqual({
      text: local,
      conflicts: [{ base: '- two\n', local: '- two (local)\n', remote: '- two (remote)\n' }],
    });
    const removed = BASE.replace('- two\n', '');
    expect(mergeLines(BASE, removed, remote)).toEqual({
      text: removed,
      conflicts: [{ base: '- two\n', local: '', remote: '- two (remote)\n' }],
    });
  });

  it('keeps a document without a final newline as the local side wrote it', () => {
    expect(mergeLines('a\nb', 'a\nb\nc', 'x\na\nb').text).toBe('x\na\nb\nc');
    expect(mergeLines('a\n', 'a\nl\n', 'a\nr\n').text).toBe('a\nr\nl\n');
  });

  it('never loses a bullet when both sides append distinct bullets at random places (seeded)', () => {
    let seed = 7;
    const random = (limit: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % limit;
    };
    for (let round = 0; round < 200; round += 1) {
      const base = Array.from({ length: random(6) }, (_, index) => `- base ${index}\n`);
      const insert = (side: string): string[] => {
        const lines = [...base];
        const count = 1 + random(4);
        for (let index = 0; index < count; index += 1)
          lines.splice(random(lines.length + 1), 0, `- ${side} ${round}.${index}\n`);
        return lines;
      };
      const local = insert('local');
      const remote = insert('remote');
      const merged = mergeLines(base.join(''), local.join(''), remote.join(''));
      expect(merged.conflicts).toEqual([]);
      const lines = splitLines(merged.text);
      for (const line of [...local, ...remote]) expect(lines).toContain(line);
      expect(lines).toHaveLength(new Set([...local, ...remote]).size);
    }
  });
});
