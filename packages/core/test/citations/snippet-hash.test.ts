import { describe, expect, it } from 'vitest';
import { citedLines, hashLines, snippetHash, splitLines } from '../../src/citations/index.js';
import { CitationSchema } from '../../src/verified/index.js';

describe('splitLines', () => {
  it('reads an empty file as no lines', () => {
    expect(splitLines('')).toEqual([]);
  });
  it('does not create a line after a final newline', () => {
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\nb')).toEqual(['a', 'b']);
  });
  it('keeps blank lines before the final newline', () => {
    expect(splitLines('a\n\n')).toEqual(['a', '']);
    expect(splitLines('\n')).toEqual(['']);
  });
  it('reads CRLF as LF', () => {
    expect(splitLines('a\r\nb\r\n')).toEqual(['a', 'b']);
  });
});

describe('snippetHash', () => {
  it('is sha256: and 64 hex digits, accepted by the citation schema', () => {
    const hash = snippetHash('const a = 1;');
    expect(hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(CitationSchema.parse({ path: 'a.ts', line_start: 1, line_end: 1, snippet_hash: hash }).snippet_hash).toBe(
      hash,
    );
  });
  it('ignores CRLF and trailing whitespace of each line', () => {
    expect(snippetHash('const a = 1;  \r\nconst b = 2;\t')).toBe(snippetHash('const a = 1;\nconst b = 2;'));
  });
  it('keeps leading whitespace and content significant', () => {
    expect(snippetHash('  a')).not.toBe(snippetHash('a'));
    expect(snippetHash('a\nb')).not.toBe(snippetHash('a\nc'));
    expect(snippetHash('a\nb')).not.toBe(snippetHash('a b'));
  });
  it('equals hashLines of the same lines', () => {
    expect(snippetHash('x\ny')).toBe(hashLines(['x', 'y  ']));
  });
});

describe('citedLines', () => {
  const file = 'one\ntwo\nthree\n';
  it('returns the cited lines joined with \\n', () => {
    expect(citedLines(file, 2, 3)).toBe('two\nthree');
    expect(citedLines(file, 1, 1)).toBe('one');
  });
  it('returns undefined outside the file or for an inverted range', () => {
    expect(citedLines(file, 3, 4)).toBeUndefined();
    expect(citedLines(file, 0, 1)).toBeUndefined();
    expect(citedLines(file, 2, 1)).toBeUndefined();
    expect(citedLines('', 1, 1)).toBeUndefined();
  });
  it('hashes consistently with snippetHash', () => {
    const text = citedLines('a\r\nb  \r\nc\r\n', 1, 2);
    expect(text).toBe('a\nb  ');
    expect(snippetHash(text ?? '')).toBe(hashLines(['a', 'b']));
  });
});
