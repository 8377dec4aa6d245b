// Why: every document is reduced once to the searchable lines it shows in snippets (Markdown and
// text lines, or JSON field values) and the word counts the ranking needs. Both the indexed and
// the naive search paths use this, so they score exactly the same text.
import { visitJsonLeaves } from './json-fields.js';
import { buildPairFilter, extendWordHash, pairHash, WORD_HASH_SEED } from './phrase-filter.js';
import { type QueryTerm, termNeedle, wordMatchWeight } from './query-plan.js';
import { isAllDigits } from './tokenizer.js';

/** Words longer than this (blobs, hashes run together) are counted but not indexed. */
export const MAX_INDEXED_WORD_LENGTH = 100;

const LINE_BREAK = /\r\n|\n|\r/;
const MAX_INTERNED_FIELDS = 100_000;
const internedFields = new Map<string, string>();

function intern(field: string): string {
  const known = internedFields.get(field);
  if (known !== undefined) return known;
  if (internedFields.size < MAX_INTERNED_FIELDS) internedFields.set(field, field);
  return field;
}

/** The searchable lines of a document, stored compactly. */
export interface DocumentText {
  readonly path: string;
  /** Trimmed, non-empty searchable lines joined by `\n` (for JSON: value lines, without field names). */
  readonly lines: string;
  /** 1-based file line of each searchable line. */
  readonly lineNumbers: readonly number[];
  /** For JSON documents: the field of each searchable line. */
  readonly fields: readonly string[] | undefined;
}

/** A document analysed for ranking. */
export interface DocumentAnalysis {
  readonly text: DocumentText;
  /** Number of words in the searchable lines (the BM25 document length). */
  readonly length: number;
  /** Indexable words of the searchable lines with their counts, in first-seen order. */
  readonly words: ReadonlyMap<string, number>;
  /** Indexable words of the path with their counts. */
  readonly pathWords: ReadonlyMap<string, number>;
  /** Bloom filter of adjacent word pairs within lines (see phrase-filter.ts). */
  readonly pairFilter: Uint32Array;
}

/** True for documents searched by field value (`*.json`). */
export function isJsonPath(path: string): boolean {
  return path.toLowerCase().endsWith('.json');
}

/** A word worth indexing: query terms are >= 2 characters or all digits, and bounded in length. */
export function isIndexableWord(word: string): boolean {
  return word.length <= MAX_INDEXED_WORD_LENGTH && (word.length >= 2 || isAllDigits(word));
}

function addWord(counts: Map<string, number>, word: string): void {
  counts.set(word, (counts.get(word) ?? 0) + 1);
}

const WORD_CODE_POINT = /^[\p{L}\p{N}\p{M}]$/u;
/** Per BMP code unit: 0 not yet known, 1 word character, 2 separator, 3 high surrogate. */
const bmpClass = new Uint8Array(0x10000);
const astralClass = new Map<number, boolean>();

/** Class of a high surrogate in {@link bmpClass} for `countWords` (its word-ness needs the next unit). */
const HIGH_SURROGATE = 3;
for (let code = 0; code < 128; code++) {
  bmpClass[code] = (code >= 97 && code <= 122) || (code >= 48 && code <= 57) ? 1 : 2;
}
for (let code = 0xd800; code <= 0xdbff; code++) bmpClass[code] = HIGH_SURROGATE;

/** Classify a BMP code unit not yet in {@link bmpClass} (never a high surrogate) and remember it. */
function classifyCodeUnit(code: number): number {
  const known = WORD_CODE_POINT.test(String.fromCharCode(code)) ? 1 : 2;
  bmpClass[code] = known;
  return known;
}

function isWordCodeUnit(code: number): boolean {
  const known = bmpClass[code] as number;
  if (known === HIGH_SURROGATE) return false; // a lone high surrogate is no letter, digit or mark
  return (known === 0 ? classifyCodeUnit(code) : known) === 1;
}

function isWordCodePoint(codePoint: number): boolean {
  let known = astralClass.get(codePoint);
  if (known === undefined) {
    known = WORD_CODE_POINT.test(String.fromCodePoint(codePoint));
    if (astralClass.size < 10_000) astralClass.set(codePoint, known);
  }
  return known;
}

/** Whether `lower[start, end)` holds a term's text where a match needs it (cheap pre-check). */
function holdsAnyTerm(terms: readonly QueryTerm[], lower: string, start: number, end: number): boolean {
  for (const term of terms) {
    const text = termNeedle(term);
    if (end - start < text.length) continue;
    if (term.kind === 'word') {
      if (lower.startsWith(text, start)) return true;
    } else if (term.kind === 'infix') {
      for (let at = start; at + text.length <= end; at++) if (lower.startsWith(text, at)) return true;
    }
  }
  return false;
}

/** True when `word` matches one of the word-based `terms` (see `wordMatchWeight`). */
export function matchesAnyTerm(terms: readonly QueryTerm[], word: string): boolean {
  for (const term of terms) if (wordMatchWeight(term, word, 1) > 0) return true;
  return false;
}

/** Code units (1 or 2) of the word character starting at `index` of `lower`, or 0 for a separator or the end. */
export function wordCharWidth(lower: string, index: number): number {
  const end = lower.length;
  if (index >= end) return 0;
  const code = lower.charCodeAt(index);
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) ? 1 : 0;
  if (code >= 0xd800 && code <= 0xdbff && index + 1 < end) {
    const low = lower.charCodeAt(index + 1);
    if (low >= 0xdc00 && low <= 0xdfff) {
      return isWordCodePoint(((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000) ? 2 : 0;
    }
    return 0;
  }
  return isWordCodeUnit(code) ? 1 : 0;
}

/** Code units (1 or 2) of the word character ending just before `index` of `lower`, or 0 for a separator or the start. */
export function wordCharWidthBefore(lower: string, index: number): number {
  if (index <= 0) return 0;
  const code = lower.charCodeAt(index - 1);
  if (code >= 0xdc00 && code <= 0xdfff && index >= 2) {
    const high = lower.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) {
      return isWordCodePoint(((high - 0xd800) << 10) + (code - 0xdc00) + 0x10000) ? 2 : 0;
    }
  }
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) ? 1 : 0;
  if (code >= 0xd800 && code <= 0xdbff) return 0;
  return isWordCodeUnit(code) ? 1 : 0;
}

/**
 * Count the indexable words of `lower` (already lowercased) into `counts` and collect the hashes
 * of adjacent word pairs on the same line into `pairs`; returns the number of words (all of
 * them). Produces the same words as the tokenizer's `splitWords`, scanning once without
 * intermediate arrays. With `terms`, only words matching one of them are counted (the others
 * would weigh 0 in the ranking); without `counts`, only pairs are collected.
 */
export function scanWords(
  lower: string,
  counts: Map<string, number> | undefined,
  pairs: number[] | undefined,
  terms?: readonly QueryTerm[],
): number {
  const end = lower.length;
  let total = 0;
  let start = -1;
  let hash = WORD_HASH_SEED;
  let previous = 0;
  let hasPrevious = false;
  let index = 0;
  while (index <= end) {
    const code = index < end ? lower.charCodeAt(index) : 10;
    let width = 1;
    let word: boolean;
    if (code < 128) {
      word = (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
    } else if (code >= 0xd800 && code <= 0xdbff && index + 1 < end) {
      const low = lower.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        width = 2;
        word = isWordCodePoint(((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000);
      } else {
        word = false;
      }
    } else {
      word = isWordCodeUnit(code);
    }
    if (word) {
      if (start < 0) {
        start = index;
        hash = WORD_HASH_SEED;
      }
      hash = extendWordHash(hash, code);
      if (width === 2) hash = extendWordHash(hash, lower.charCodeAt(index + 1));
      index += width;
      continue;
    }
    if (start >= 0) {
      total++;
      if (counts !== undefined && (terms === undefined || holdsAnyTerm(terms, lower, start, index))) {
        const text = lower.slice(start, index);
        if (isIndexableWord(text) && (terms === undefined || matchesAnyTerm(terms, text))) addWord(counts, text);
      }
      if (pairs !== undefined && hasPrevious) pairs.push(pairHash(previous, hash));
      previous = hash;
      hasPrevious = true;
      start = -1;
    }
    if (code === 10) hasPrevious = false;
    index += width;
  }
  return total;
}

/**
 * Number of words of `lower` (already lowercased): the `scanWords` count, with the same word
 * characters, in a tight loop that hashes and stores nothing.
 */
export function countWords(lower: string): number {
  const end = lower.length;
  let total = 0;
  let previous = 0;
  for (let index = 0; index < end; index++) {
    const code = lower.charCodeAt(index);
    let known = bmpClass[code] as number;
    if (known === 0) known = classifyCodeUnit(code);
    let word: number;
    if (known === HIGH_SURROGATE) {
      const low = index + 1 < end ? lower.charCodeAt(index + 1) : 0;
      if (low >= 0xdc00 && low <= 0xdfff) {
        index++;
        word = isWordCodePoint(((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000) ? 1 : 0;
      } else {
        word = isWordCodeUnit(code) ? 1 : 0;
      }
    } else {
      word = known === 1 ? 1 : 0;
    }
    total += word & ~previous;
    previous = word;
  }
  return total;
}

function plainTextLines(text: string): { lines: string[]; lineNumbers: number[] } {
  const lines: string[] = [];
  const lineNumbers: number[] = [];
  const raw = text.split(LINE_BREAK);
  for (let index = 0; index < raw.length; index++) {
    const line = (raw[index] as string).trim();
    if (line === '') continue;
    lines.push(line);
    lineNumbers.push(index + 1);
  }
  return { lines, lineNumbers };
}

/**
 * Reduce a document to its searchable lines. `*.json` documents that parse become one line per
 * line of each string, number and boolean value, tagged with its field; anything else (including
 * invalid JSON) is searched line by line.
 */
export function extractDocumentText(path: string, text: string): DocumentText {
  return extractLines(path, text, true);
}

/**
 * {@link extractDocumentText} with the JSON field of each line found only when first read (a
 * one-shot search reads them for the few documents it shows), so most documents never build
 * their field paths.
 */
export function extractDocumentTextLazily(path: string, text: string): DocumentText {
  const extracted = extractLines(path, text, false);
  if (extracted.fields === undefined) return extracted;
  let fields: readonly string[] | undefined;
  return {
    path,
    lines: extracted.lines,
    lineNumbers: extracted.lineNumbers,
    get fields(): readonly string[] | undefined {
      fields ??= extractLines(path, text, true).fields;
      return fields;
    },
  };
}

/** Extract the searchable lines; with `withFields` false, JSON documents get an empty `fields` (still defined). */
function extractLines(path: string, text: string, withFields: boolean): DocumentText {
  if (isJsonPath(path)) {
    const lines: string[] = [];
    const lineNumbers: number[] = [];
    const fields: string[] = [];
    const valid = visitJsonLeaves(text, withFields, (leafField, value, leafLine) => {
      const field = withFields ? intern(leafField) : leafField;
      if (!value.includes('\n') && !value.includes('\r')) {
        const line = value.trim();
        if (line === '') return;
        lines.push(line);
        lineNumbers.push(leafLine);
        if (withFields) fields.push(field);
        return;
      }
      for (const part of value.split(LINE_BREAK)) {
        const line = part.trim();
        if (line === '') continue;
        lines.push(line);
        lineNumbers.push(leafLine);
        if (withFields) fields.push(field);
      }
    });
    if (valid) return { path, lines: lines.join('\n'), lineNumbers, fields };
  }
  const { lines, lineNumbers } = plainTextLines(text);
  return { path, lines: lines.join('\n'), lineNumbers, fields: undefined };
}

/** Per BMP code unit, the word-ness of its lowercase: 0 not yet known, 1 word, 2 separator, 3 mixed. */
const foldedClass = new Uint8Array(0x10000);
for (let code = 0; code < 128; code++) {
  foldedClass[code] = (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) ? 1 : 2;
}
/** Class of {@link foldedClass} that needs the whole text lowercased (lone or paired surrogates, mixed lowercase). */
const NEEDS_LOWERCASE = 3;
for (let code = 0xd800; code <= 0xdfff; code++) foldedClass[code] = NEEDS_LOWERCASE;

/** Classify a BMP code unit's lowercase for {@link foldedClass} and remember it. */
function classifyFolded(code: number): number {
  let words = 0;
  let separators = 0;
  for (const character of String.fromCharCode(code).toLowerCase()) {
    if (WORD_CODE_POINT.test(character)) words++;
    else separators++;
  }
  const known = separators === 0 ? 1 : words === 0 ? 2 : NEEDS_LOWERCASE;
  foldedClass[code] = known;
  return known;
}

/**
 * Number of words of `text` once lowercased (the {@link countWords} of `text.toLowerCase()`),
 * without lowercasing it: lowercasing maps each character on its own (final sigma aside, which
 * stays a letter either way), so each character is classified by the word-ness of its lowercase.
 * Texts with surrogates are lowercased and counted.
 */
export function countFoldedWords(text: string): number {
  const end = text.length;
  let total = 0;
  let previous = 0;
  for (let index = 0; index < end; index++) {
    const code = text.charCodeAt(index);
    let known = foldedClass[code] as number;
    if (known === 0) known = classifyFolded(code);
    if (known === NEEDS_LOWERCASE) return countWords(text.toLowerCase());
    const word = known === 1 ? 1 : 0;
    total += word & ~previous;
    previous = word;
  }
  return total;
}

/**
 * The BM25 length of a document (the words of its searchable lines, see {@link extractDocumentText})
 * without extracting the lines: for JSON, the words of each leaf value; otherwise the words of the
 * whole text (splitting, trimming and joining lines only drops separators, so no word is split
 * or merged).
 */
export function countDocumentWords(path: string, text: string): number {
  if (isJsonPath(path)) {
    let total = 0;
    const valid = visitJsonLeaves(text, false, (_field, value) => {
      total += countFoldedWords(value);
    });
    if (valid) return total;
  }
  return countFoldedWords(text);
}

/** Analyse extracted text whose lowercased lines are `lowerLines` (see {@link analyzeDocument}). */
export function analyzeExtracted(extracted: DocumentText, lowerLines: string): DocumentAnalysis {
  const words = new Map<string, number>();
  const pairs: number[] = [];
  const length = scanWords(lowerLines, words, pairs);
  const pathWords = new Map<string, number>();
  scanWords(extracted.path.toLowerCase(), pathWords, undefined);
  return { text: extracted, length, words, pathWords, pairFilter: buildPairFilter(pairs) };
}

/** Extract a document's searchable lines and count its words (body and path). */
export function analyzeDocument(path: string, text: string): DocumentAnalysis {
  const extracted = extractDocumentText(path, text);
  return analyzeExtracted(extracted, extracted.lines.toLowerCase());
}

/** The searchable lines of a document as an array (aligned with `lineNumbers` and `fields`). */
export function documentLines(text: DocumentText): string[] {
  return text.lines === '' ? [] : text.lines.split('\n');
}
