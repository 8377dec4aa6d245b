// Why: the one-shot search skips extracting documents whose raw text holds no term and counts
// their words straight from the raw text, and builds JSON field paths only for documents it
// shows; these tests pin that the shortcuts give the same lengths, lines, fields and answers as
// the full analysis, including where raw JSON hides letters behind escapes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  analyzeDocument,
  countDocumentWords,
  countFoldedWords,
  countWords,
  extractDocumentText,
  extractDocumentTextLazily,
} from '../../src/search/document-text.js';
import { SearchEngine } from '../../src/search/engine.js';
import { createInMemoryStore } from '../../src/store/memory-store.js';

const engine = new SearchEngine();

const PIECES = [
  'test',
  'Tests',
  'TEST',
  'memory',
  'Memóry',
  'σ',
  'Σ',
  'ς',
  'ΟΔΟΣ',
  '記憶',
  '\u{1d400}',
  'İ',
  'K',
  '42',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '-',
  '\\u0074est',
  '\\u0054EST',
  '\\u03a3',
  '\\u00e9',
  '\\ud835\\udc00',
  '\\n',
  '\\"',
  '\\\\',
  '\\/',
];

/** A JSON document whose string values are the raw (already escaped) `values`. */
function rawJson(values: readonly string[]): string {
  return `{\n  "title": "${values[0] ?? ''}",\n  "items": [${values
    .slice(1)
    .map((value, index) => (index % 3 === 2 ? '12.5e3' : `"${value}"`))
    .join(',\n    ')}],\n  "ok": true, "none": null\n}`;
}

const piece = fc.constantFrom(...PIECES);
const rawValue = fc
  .array(piece, { maxLength: 12 })
  .map((parts) => parts.join('').replaceAll('\n', '\\n').replaceAll('\r', '\\r').replaceAll('\t', '\\t'));
const plainText = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));

describe('raw-text shortcuts of the one-shot search', () => {
  it('counts the same words as the extracted lines', () => {
    let validJson = 0;
    fc.assert(
      fc.property(fc.array(rawValue, { maxLength: 6 }), plainText, (values, text) => {
        const json = rawJson(values);
        if (extractDocumentText('doc.json', json).fields !== undefined) validJson++;
        for (const [path, content] of [
          ['doc.json', json],
          ['doc.md', json],
          ['bad.json', `${json},`],
          ['notes.md', text],
          ['notes.json', text],
        ] as const) {
          expect(countDocumentWords(path, content), path).toBe(analyzeDocument(path, content).length);
        }
      }),
      { numRuns: 300, seed: 20261122 },
    );
    expect(validJson).toBeGreaterThan(200);
  });

  it('folds case like lowercasing before counting', () => {
    for (const text of [
      '',
      'ABC def',
      'a-B_c 1.5',
      'İstanbul ΟΔΟΣ',
      'x\u{1d400}y',
      'é\u0301 K',
      '\u212Aelvin Ⅻ ⓐⒷ',
      'ǅ ẞ ŉ',
    ]) {
      expect(countFoldedWords(text), text).toBe(countWords(text.toLowerCase()));
    }
  });

  it('finds JSON fields lazily with the same lines and fields', () => {
    const json = rawJson(['Title \\u0054est', 'a\\nb', 'c', 'x', 'y\\r\\nz']);
    const eager = extractDocumentText('doc.json', json);
    const lazy = extractDocumentTextLazily('doc.json', json);
    expect({ ...lazy, fields: lazy.fields }).toEqual(eager);
    expect(extractDocumentTextLazily('doc.md', json)).toEqual(extractDocumentText('doc.md', json));
    expect(extractDocumentTextLazily('bad.json', `${json},`)).toEqual(extractDocumentText('bad.json', `${json},`));
  });

  it('answers like the naive scan when escapes or sigma hide a term in the raw text', async () => {
    const documents = {
      'escaped.json': rawJson(['\\u0074ests of \\u006demory', 'plain words']),
      'sigma.json': rawJson(['ΟΔΟΣ οδοσ', 'ΣΊΣΥΦΟΣ']),
      'sigma.md': 'ΟΔΟΣ\nΣΊΣΥΦΟΣ σίσυφος\n',
      'other.json': rawJson(['unrelated', 'words only']),
      'other.md': 'nothing here\n',
      'units.md': '\u212Aelvin scale\n',
      'dotted.json': rawJson(['İSTANBUL İs here']),
    };
    const store = createInMemoryStore({ initialDocuments: documents });
    for (const query of [
      'tests',
      'memory',
      'tests memory',
      'οδος',
      'οδοσ',
      'σίσυφος',
      'words',
      'kelvin',
      'stanbul',
      'is',
    ]) {
      const naive = await engine.searchNaive(store, query, { limit: 10 });
      expect(await engine.searchOnce(store, query, { limit: 10 }), query).toEqual(naive);
    }
  });

  it('agrees with the naive scan on random raw JSON and text', async () => {
    const tree = fc.record({ 'a.json': fc.array(rawValue, { maxLength: 4 }), 'b.md': plainText, 'c.json': plainText });
    const query = fc.array(piece, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' '));
    await fc.assert(
      fc.asyncProperty(tree, query, async (files, q) => {
        const store = createInMemoryStore({
          initialDocuments: { 'a.json': rawJson(files['a.json']), 'b.md': files['b.md'], 'c.json': files['c.json'] },
        });
        const naive = await engine.searchNaive(store, q, { limit: 10 });
        expect(await engine.searchOnce(store, q, { limit: 10 })).toEqual(naive);
      }),
      { numRuns: 200, seed: 20261122 },
    );
  });
});
