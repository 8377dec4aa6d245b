// Why: a one-shot search process (`repomem search`) starts cold every time, and most of its time
// goes into analysing documents that did not change since the last query. This cache keeps, per
// document stamp (path, size, modification time), what ranking needs of a document (its length,
// its word counts as an inverted list, its phrase pair filter), serialised compactly so a later
// process loads it without parsing the documents. Where the bytes live is the caller's choice
// (a file outside the memory tree: see `AnalysisCacheStorage`); anything unreadable is ignored.
import type { DocumentAnalysis } from './document-text.js';

/** Where an analysis cache's bytes live (a file outside the memory tree, written atomically). */
export interface AnalysisCacheStorage {
  /** The bytes last saved, or `undefined` when there are none (or they cannot be read). */
  load(): Promise<Uint8Array | undefined>;
  /** Replace the bytes atomically (a concurrent reader sees the old or the new bytes). */
  save(bytes: Uint8Array): Promise<void>;
}

/** Largest cache written, in bytes (a larger one is not saved; searches then read every file). */
export const MAX_ANALYSIS_CACHE_BYTES = 256 * 1024 * 1024;

const MAGIC = 0x52_4d_53_43; // "RMSC"
const FORMAT_VERSION = 1;
/** Length recorded for a document that is not searched (binary, scaffolding). */
export const NOT_SEARCHED = -1;

/** One cached document. */
export interface CachedDocument {
  readonly path: string;
  readonly stamp: string;
  /** BM25 length, or {@link NOT_SEARCHED}. */
  readonly length: number;
}

/** A loaded cache: documents, a sorted vocabulary with postings, and pair filters. */
export interface AnalysisCacheData {
  readonly documents: readonly CachedDocument[];
  /** Sorted (by UTF-16 code units) distinct words. */
  readonly words: readonly string[];
  /** Per word: start of its postings in `postings` (length `words.length + 1`). */
  readonly postingsStart: Uint32Array;
  /** `[documentIndex, count, ...]` per word. */
  readonly postings: Uint32Array;
  /** Per document: start of its pair filter in `filters` (length `documents.length + 1`). */
  readonly filterStart: Uint32Array;
  readonly filters: Uint32Array;
}

/** Accumulates documents (fresh analyses or ones carried over from a loaded cache) into a new cache. */
export class AnalysisCacheBuilder {
  readonly #documents: CachedDocument[] = [];
  readonly #postings = new Map<string, number[]>();
  readonly #filters: number[] = [];
  readonly #filterStart: number[] = [0];
  #entries = 0;

  /** Number of posting entries so far (to stop building a cache that would be too large). */
  get entries(): number {
    return this.#entries;
  }

  /** Add a document analysed in full (`analyzeDocument`), or not searched when `analysis` is undefined. */
  add(path: string, stamp: string, analysis: DocumentAnalysis | undefined): void {
    const index = this.#documents.length;
    this.#documents.push({ path, stamp, length: analysis?.length ?? NOT_SEARCHED });
    if (analysis !== undefined) {
      for (const [word, count] of analysis.words) this.#post(word, index, count);
      for (const value of analysis.pairFilter) this.#filters.push(value);
    }
    this.#filterStart.push(this.#filters.length);
  }

  /** Carry the documents at `keep` (indices into `from`) over unchanged. */
  carry(from: AnalysisCacheData, keep: readonly number[]): void {
    const renumber = new Map<number, number>();
    for (const old of keep) {
      const document = from.documents[old] as CachedDocument;
      renumber.set(old, this.#documents.length);
      this.#documents.push(document);
      const start = from.filterStart[old] as number;
      const end = from.filterStart[old + 1] as number;
      for (let at = start; at < end; at++) this.#filters.push(from.filters[at] as number);
      this.#filterStart.push(this.#filters.length);
    }
    from.words.forEach((word, wordIndex) => {
      const end = from.postingsStart[wordIndex + 1] as number;
      for (let at = from.postingsStart[wordIndex] as number; at < end; at += 2) {
        const index = renumber.get(from.postings[at] as number);
        if (index !== undefined) this.#post(word, index, from.postings[at + 1] as number);
      }
    });
  }

  #post(word: string, index: number, count: number): void {
    const list = this.#postings.get(word);
    if (list === undefined) this.#postings.set(word, [index, count]);
    else list.push(index, count);
    this.#entries++;
  }

  /** The serialised cache. */
  serialize(): Uint8Array {
    const words = [...this.#postings.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const postingsStart = new Uint32Array(words.length + 1);
    let total = 0;
    words.forEach((word, index) => {
      postingsStart[index] = total;
      total += (this.#postings.get(word) as number[]).length;
    });
    postingsStart[words.length] = total;
    const postings = new Uint32Array(total);
    words.forEach((word, index) => {
      postings.set(this.#postings.get(word) as number[], postingsStart[index] as number);
    });
    const header = new TextEncoder().encode(
      JSON.stringify({ documents: this.#documents.map((d) => [d.path, d.stamp, d.length]), words }),
    );
    const arrays = [postingsStart, postings, Uint32Array.from(this.#filterStart), Uint32Array.from(this.#filters)];
    const headerWords = Math.ceil(header.byteLength / 4);
    const size = 12 + headerWords * 4 + arrays.reduce((sum, array) => sum + 4 + array.byteLength, 0);
    const bytes = new Uint8Array(size);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, MAGIC, true);
    view.setUint32(4, FORMAT_VERSION, true);
    view.setUint32(8, header.byteLength, true);
    bytes.set(header, 12);
    let offset = 12 + headerWords * 4;
    for (const array of arrays) {
      view.setUint32(offset, array.length, true);
      offset += 4;
      bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), offset);
      offset += array.byteLength;
    }
    return bytes;
  }
}

function isCachedDocumentTuple(value: unknown): value is [string, string, number] {
  return (
    Array.isArray(value) &&
    value.length === 3 &&
    typeof value[0] === 'string' &&
    typeof value[1] === 'string' &&
    Number.isInteger(value[2]) &&
    (value[2] as number) >= NOT_SEARCHED
  );
}

/** Decode a serialised cache, or `undefined` when the bytes are not a valid cache of this format. */
export function deserializeAnalysisCache(bytes: Uint8Array): AnalysisCacheData | undefined {
  try {
    if (bytes.byteLength < 12) return undefined;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== FORMAT_VERSION) return undefined;
    const headerBytes = view.getUint32(8, true);
    if (12 + headerBytes > bytes.byteLength) return undefined;
    const header: unknown = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(12, 12 + headerBytes)),
    );
    if (header === null || typeof header !== 'object') return undefined;
    const { documents: rawDocuments, words } = header as { documents?: unknown; words?: unknown };
    if (!Array.isArray(rawDocuments) || !Array.isArray(words)) return undefined;
    if (!rawDocuments.every(isCachedDocumentTuple) || !words.every((word) => typeof word === 'string'))
      return undefined;
    let offset = 12 + Math.ceil(headerBytes / 4) * 4;
    const arrays: Uint32Array[] = [];
    for (let index = 0; index < 4; index++) {
      if (offset + 4 > bytes.byteLength) return undefined;
      const length = view.getUint32(offset, true);
      offset += 4;
      if (offset + length * 4 > bytes.byteLength) return undefined;
      // Copy: the buffer's offset need not be 4-aligned.
      arrays.push(new Uint32Array(bytes.slice(offset, offset + length * 4).buffer));
      offset += length * 4;
    }
    const [postingsStart, postings, filterStart, filters] = arrays as [
      Uint32Array,
      Uint32Array,
      Uint32Array,
      Uint32Array,
    ];
    const documents = rawDocuments.map(([path, stamp, length]) => ({ path, stamp, length }));
    if (postingsStart.length !== words.length + 1 || postingsStart[words.length] !== postings.length) return undefined;
    if (filterStart.length !== documents.length + 1 || filterStart[documents.length] !== filters.length)
      return undefined;
    for (let index = 0; index < words.length; index++) {
      if ((postingsStart[index] as number) > (postingsStart[index + 1] as number)) return undefined;
      if (index > 0 && !((words[index - 1] as string) < (words[index] as string))) return undefined;
    }
    for (let index = 0; index < documents.length; index++) {
      if ((filterStart[index] as number) > (filterStart[index + 1] as number)) return undefined;
    }
    for (let at = 0; at < postings.length; at += 2) if ((postings[at] as number) >= documents.length) return undefined;
    return { documents, words: words as string[], postingsStart, postings, filterStart, filters };
  } catch {
    return undefined;
  }
}

/** Index of the first word `>= text` in a sorted vocabulary. */
export function lowerBound(words: readonly string[], text: string): number {
  let low = 0;
  let high = words.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((words[middle] as string) < text) low = middle + 1;
    else high = middle;
  }
  return low;
}
