// Why: the tsvector index only names candidate documents and core ranks them, so it must find
// EVERY document core would match. PostgreSQL's own parser splits words differently from core
// (it has URL, e-mail and file-path tokens, and its letter tables depend on the server's
// locale), so the index is fed core's own words instead: the searchable text lowercased with
// JavaScript and split on letters, digits and marks exactly as core's tokenizer and the SQLite
// store's FTS feed do, stored verbatim with `array_to_tsvector` (no parser, no stemming: the
// language-neutral behaviour of the `simple` configuration). Also here: the length core's
// ranking uses, kept per row so corpus figures are one SQL aggregate.
import { decodeSearchableBytes, scanJsonLeaves, searchableLength } from '@repomem/core';
import { indexedWord } from './sql-text.js';

/** Letters, digits and combining marks of any script: core's word characters. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * Largest index entry kept, in bytes of distinct words (a tsvector must stay under 1 MB). A
 * document over it is marked unindexed and always offered as a candidate, so answers stay complete.
 */
export const MAX_INDEXED_BYTES = 900_000;

/** What a searchable document contributes to the index. */
export interface IndexedText {
  /** Distinct words of the path and the searchable text, lowercased; `undefined` when too many. */
  readonly words: readonly string[] | undefined;
  /** Core's `searchableLength` of the document (the BM25 length of its ranking). */
  readonly length: number;
}

/** Core's words of `text`: lowercased, split on everything but letters, digits and marks. */
export function coreWords(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

const encoder = new TextEncoder();

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
  const distinct = new Set<string>();
  for (const word of coreWords(path)) distinct.add(indexedWord(word));
  for (const word of coreWords(text)) distinct.add(indexedWord(word));
  let bytes = 0;
  for (const word of distinct) bytes += encoder.encode(word).byteLength + 8;
  return { words: bytes > MAX_INDEXED_BYTES ? undefined : [...distinct], length };
}
