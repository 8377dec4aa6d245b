// Why: the FTS5 index only names candidate documents; core ranks them. It must therefore find
// EVERY document core would match, and core's words are not what SQLite's tokenizer sees in the
// raw text: core lowercases with JavaScript and splits on Unicode letters, digits and marks of
// the current Unicode version, while SQLite's unicode61 tables are older (unassigned or newer
// symbols join words, some newer capitals do not fold). So the index is fed core's own words
// (the searchable text lowercased with JavaScript, split on the same characters, one space
// between words), which SQLite tokenizes back into exactly those words. Also here: the length
// core's ranking uses, kept per row so corpus figures are one SQL aggregate.
import { decodeSearchableBytes, scanJsonLeaves, searchableLength } from '@repomem/core';

/** Letters, digits and combining marks of any script: core's word characters. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** What a searchable document contributes to the index. */
export interface IndexedText {
  /** The words of the path, lowercased, space-separated. */
  readonly path: string;
  /** The words of the searchable text (JSON: field values only), lowercased, space-separated. */
  readonly body: string;
  /** Core's `searchableLength` of the document (the BM25 length of its ranking). */
  readonly length: number;
}

function words(text: string): string {
  return (text.toLowerCase().match(WORD) ?? []).join(' ');
}

/**
 * The index entry of a document, or `undefined` when core does not search it (a skipped path,
 * binary, larger than 512 KiB). JSON documents that parse contribute their field values, as in
 * core; anything else its whole text.
 */
export function indexedText(path: string, content: Uint8Array): IndexedText | undefined {
  const length = searchableLength(path, content);
  if (length === undefined) return undefined;
  const decoded = decodeSearchableBytes(content);
  if (decoded.kind !== 'text') return undefined;
  let text = decoded.text;
  if (path.toLowerCase().endsWith('.json')) {
    const leaves = scanJsonLeaves(decoded.text);
    if (leaves !== undefined) text = leaves.map((leaf) => leaf.value).join('\n');
  }
  return { path: words(path), body: words(text), length };
}
