// Why: every namespace label and key becomes a path segment and must come back unchanged from a
// listing, on every store and file system: property tests over any string (lone surrogates,
// `/`, `..`, upper case, combining marks, reserved names) check reversibility, that the segment
// is a valid document path segment, and that it is its own case and NFC fold (so two items can
// never collide on a case-insensitive or normalising file system).
import { isDocumentPathSegment, normalizeDocumentPath, pathFoldKey } from '@repomem/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSegment, encodeSegment, itemPath, parseItemPath } from '../src/index.js';

const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.constantFrom(
    '..',
    '.',
    '/',
    'a/b',
    '.git',
    '.GIT',
    'git~1',
    'gi7eb\u0012',
    'node_modules',
    'Node_Modules',
    '.gitmodules',
    'MEMORY.md',
    'caf\u00e9',
    'cafe\u0301',
    '\u200c.git',
    '~',
    '~41',
    '~u0041',
    '',
  ),
);
/** Labels LangGraph accepts: not empty, no `.`, `:` or NUL. */
const label = fc.string({ unit: 'binary', minLength: 1, maxLength: 16 }).filter((text) => !/[.:\0]/.test(text));

describe('encodeSegment / decodeSegment', () => {
  it('round-trips any string into a safe, fold-stable path segment', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const segment = encodeSegment(text);
        expect(decodeSegment(segment)).toBe(text);
        expect(isDocumentPathSegment(segment)).toBe(true);
        expect(pathFoldKey(segment)).toBe(segment);
        expect(segment.toLowerCase()).not.toBe('node_modules');
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps two strings apart when only case or normalisation differs', () => {
    fc.assert(
      fc.property(anyText, anyText, (a, b) => {
        fc.pre(a !== b);
        expect(pathFoldKey(encodeSegment(a))).not.toBe(pathFoldKey(encodeSegment(b)));
      }),
      { numRuns: 1000 },
    );
    expect(encodeSegment('Foo')).not.toBe(encodeSegment('foo'));
    expect(encodeSegment('caf\u00e9')).not.toBe(encodeSegment('cafe\u0301'));
  });

  it('reads readable names as they are and escapes the rest', () => {
    expect(encodeSegment('user-42_prefs')).toBe('user-42_prefs');
    expect(encodeSegment('')).toBe('~');
    expect(encodeSegment('..')).toBe('~2e~2e');
    expect(encodeSegment('a/b')).toBe('a~2fb');
    expect(encodeSegment('Prefs')).toBe('~50refs');
    expect(encodeSegment('日本語')).toBe('日本語');
    expect(encodeSegment('node_modules')).toBe('~6eode_modules');
  });

  it('refuses names no encoder wrote', () => {
    expect(decodeSegment('~4')).toBeUndefined();
    expect(decodeSegment('~4A')).toBeUndefined();
    expect(decodeSegment('~41')).toBe('A');
    expect(decodeSegment('~61')).toBeUndefined(); // "a" is written raw, never escaped
    expect(decodeSegment('README.md')).toBeUndefined();
  });
});

describe('itemPath / parseItemPath', () => {
  it('maps any namespace and key to a normalised document path and back', () => {
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 4 }), anyText, (namespace, key) => {
        const path = itemPath('langgraph', namespace, key);
        expect(normalizeDocumentPath(path)).toBe(path);
        expect(parseItemPath('langgraph', path)).toEqual({ namespace, key });
      }),
      { numRuns: 1000 },
    );
  });

  it('lays items out as folders per label and one JSON file per key', () => {
    expect(itemPath('langgraph', ['users', 'U1'], 'prefs')).toBe('langgraph/users/~551/prefs.json');
    expect(parseItemPath('langgraph', 'langgraph/README.md')).toBeUndefined();
    expect(parseItemPath('langgraph', 'langgraph/prefs.json')).toBeUndefined();
    expect(parseItemPath('langgraph', 'other/users/prefs.json')).toBeUndefined();
  });

  it('refuses a key too long for a file name, naming it', () => {
    expect(() => itemPath('langgraph', ['a'], 'x'.repeat(300))).toThrow(/key "x+" is too long/);
  });
});
