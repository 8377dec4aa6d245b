// Why: sections, line endings and the final newline are the frame every bullet edit relies on.
import { describe, expect, it } from 'vitest';
import { findSections, parseHeader, parseMarkdown, serializeMarkdown } from '../../src/markdown/document.js';

describe('parseHeader', () => {
  it.each([
    ['# Memory', 1, 'Memory'],
    ['## Durable', 2, 'Durable'],
    ['##   Spaced   Name  ', 2, 'Spaced   Name'],
    ['   ## Indented', 2, 'Indented'],
    ['## Closed ##', 2, 'Closed'],
    ['## C#', 2, 'C#'],
    ['##', 2, ''],
    ['### Sub', 3, 'Sub'],
  ])('%j is a level-%i header named %j', (line, level, name) => {
    expect(parseHeader(line)).toEqual({ level, name });
  });

  it.each(['#hashtag', '    ## code block', '####### seven', 'text # not header'])('%j is not a header', (line) => {
    expect(parseHeader(line)).toBeUndefined();
  });
});

describe('findSections', () => {
  it('ends a section at the next # or ## header, not at ###', () => {
    const lines = ['# Memory', '## A', '- a', '### Sub', '- s', '# Other title', 'text', '## B', '- b'];
    expect(findSections(lines)).toEqual([
      { name: 'A', key: 'a', headerIndex: 1, bodyStart: 2, bodyEnd: 5 },
      { name: 'B', key: 'b', headerIndex: 7, bodyStart: 8, bodyEnd: 9 },
    ]);
  });

  it('keys are case-insensitive with whitespace collapsed', () => {
    expect(findSections(['##  Open   Questions ']).map((section) => section.key)).toEqual(['open questions']);
  });
});

describe('parseMarkdown / serializeMarkdown', () => {
  it('detects CRLF and writes it back', () => {
    const doc = parseMarkdown('# T\r\n\r\n## A\r\n- a\r\n');
    expect(doc.eol).toBe('\r\n');
    expect(doc.lines).toEqual(['# T', '', '## A', '- a']);
    expect(serializeMarkdown(doc.lines, doc.eol)).toBe('# T\r\n\r\n## A\r\n- a\r\n');
  });

  it('keeps a byte order mark', () => {
    const doc = parseMarkdown('\uFEFF## A\n- a\n');
    expect(doc.bom).toBe(true);
    expect(doc.sections[0]?.name).toBe('A');
    expect(serializeMarkdown(doc.lines, doc.eol, doc.bom)).toBe('\uFEFF## A\n- a\n');
  });

  it('ends with exactly one newline: adds a missing one, drops trailing blank lines', () => {
    expect(serializeMarkdown(parseMarkdown('## A\n- a').lines, '\n')).toBe('## A\n- a\n');
    expect(serializeMarkdown(parseMarkdown('## A\n- a\n\n\n  \n').lines, '\n')).toBe('## A\n- a\n');
  });

  it('parses an empty text to no lines', () => {
    expect(parseMarkdown('').lines).toEqual([]);
    expect(serializeMarkdown([], '\n')).toBe('');
  });
});
