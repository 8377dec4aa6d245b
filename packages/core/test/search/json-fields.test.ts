// Why: mirror files are searched by field value. These tests pin the field paths, the file line
// of each value, readable (unescaped) snippet text, and the plain-text fallback for bad JSON.
import { describe, expect, it } from 'vitest';
import { extractDocumentText } from '../../src/search/document-text.js';
import { SearchEngine } from '../../src/search/engine.js';
import { scanJsonLeaves } from '../../src/search/json-fields.js';

const ISSUE = {
  author: { login: 'lolipopshock', is_bot: false },
  body: 'First line of the body\n\nSecond line mentions "quoted" words',
  comments: [
    { author: { login: 'a' }, body: 'zero' },
    { author: { login: 'b' }, body: 'one' },
    { author: { login: 'c' }, body: 'two' },
    { author: { login: 'd' }, body: 'The orchestrator handoff\nneeds a retry budget' },
  ],
  labels: [{ name: 'priority/p3' }],
  number: 87,
  closedAt: null,
  state: 'OPEN',
  title: 'Idea: focus on function correctness first',
};

describe('scanJsonLeaves', () => {
  it('yields readable field paths with the 1-based line of each value', () => {
    const text = JSON.stringify(ISSUE, null, 2);
    const leaves = scanJsonLeaves(text) ?? [];
    const lines = text.split('\n');
    const fields = leaves.map((leaf) => leaf.field);
    expect(fields).toContain('author.login');
    expect(fields).toContain('comments[3].body');
    expect(fields).toContain('labels[0].name');
    expect(fields).toContain('author.is_bot');
    expect(fields).not.toContain('closedAt');
    for (const leaf of leaves) {
      const key =
        leaf.field
          .split(/[.[\]]/)
          .filter(Boolean)
          .at(-1) ?? '';
      expect(lines[leaf.line - 1]).toContain(`"${key}"`);
    }
    const numberLine = lines.findIndex((line) => line.includes('"number": 87')) + 1;
    expect(leaves.find((leaf) => leaf.field === 'number')).toEqual({ field: 'number', value: '87', line: numberLine });
  });

  it('puts every value of a compact one-line file on line 1', () => {
    const leaves = scanJsonLeaves(JSON.stringify(ISSUE)) ?? [];
    expect(leaves.length).toBeGreaterThan(5);
    expect(new Set(leaves.map((leaf) => leaf.line))).toEqual(new Set([1]));
  });

  it('decodes escapes and handles odd keys, root arrays and root scalars', () => {
    expect(scanJsonLeaves('{"a.b": "x\\u00e9\\n\\"y\\""}')).toEqual([{ field: '["a.b"]', value: 'xé\n"y"', line: 1 }]);
    expect(scanJsonLeaves('[{"t": 1}, {"t": true}]')).toEqual([
      { field: '[0].t', value: '1', line: 1 },
      { field: '[1].t', value: 'true', line: 1 },
    ]);
    expect(scanJsonLeaves('"hello"')).toEqual([{ field: '$', value: 'hello', line: 1 }]);
  });

  it('returns undefined for invalid JSON', () => {
    for (const bad of ['{"a": 1,}', '{"a": tru}', '[1 2]', '{"a": "x"} trailing', '', '{"a": "raw\nnewline"}']) {
      expect(scanJsonLeaves(bad)).toBeUndefined();
    }
  });
});

describe('JSON documents in search', () => {
  const engine = new SearchEngine();
  const path = 'github/acme/rocket/issue-87.json';

  it('reports which field matched, with readable text and the file line', () => {
    const content = JSON.stringify(ISSUE, null, 2);
    const response = engine.searchDocuments([{ path, content }], 'orchestrator handoff');
    const snippet = response.results[0]?.snippets[0];
    expect(snippet?.field).toBe('comments[3].body');
    expect(snippet?.text).toBe('comments[3].body: The orchestrator handoff');
    const fileLine = content.split('\n').findIndex((line) => line.includes('orchestrator handoff')) + 1;
    expect(snippet?.lineNumber).toBe(fileLine);
  });

  it('splits multi-line strings and never shows escaped JSON', () => {
    const response = engine.searchDocuments([{ path, content: JSON.stringify(ISSUE) }], 'quoted words');
    const snippet = response.results[0]?.snippets[0];
    expect(snippet).toMatchObject({ field: 'body', lineNumber: 1, text: 'body: Second line mentions "quoted" words' });
    expect(snippet?.text).not.toContain('\\');
  });

  it('searches numbers and booleans as values', () => {
    const response = engine.searchDocuments([{ path, content: JSON.stringify(ISSUE) }], '87');
    expect(response.results[0]?.snippets.map((snippet) => snippet.text)).toContain('number: 87');
  });

  it('falls back to plain lines for invalid JSON', () => {
    const content = '{\n  "title": "broken mirror",\n  oops\n}\n';
    const response = engine.searchDocuments([{ path, content }], 'broken mirror');
    expect(response.results[0]?.snippets[0]).toEqual({
      lineNumber: 2,
      text: '"title": "broken mirror",',
      score: expect.any(Number),
      matchCount: 2,
    });
    expect(extractDocumentText(path, content).fields).toBeUndefined();
  });

  it('keeps long values readable: a window of at most 220 characters around the match', () => {
    const long = `${'lorem ipsum '.repeat(40)}needle here ${'dolor sit '.repeat(40)}`;
    const response = engine.searchDocuments([{ path, content: JSON.stringify({ body: long }) }], 'needle');
    const text = response.results[0]?.snippets[0]?.text ?? '';
    expect(text.length).toBeLessThanOrEqual(220);
    expect(text.startsWith('body: …')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
    expect(text).toContain('needle here');
  });
});
