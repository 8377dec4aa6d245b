// Why: the whole-phrase bonus needs a regex test per candidate document, and on common words
// thousands of documents are candidates. A small Bloom filter of each document's adjacent word
// pairs (within a line) rules most of them out in a few bit probes: a line holding the phrase
// necessarily holds each consecutive pair of its words.

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const BITS_PER_PAIR = 8;
const MIN_FILTER_BITS = 64;

/** Start value of {@link extendWordHash}. */
export const WORD_HASH_SEED = FNV_OFFSET;

/** Extend a word hash (FNV-1a over UTF-16 code units) by one code unit. */
export function extendWordHash(hash: number, code: number): number {
  return Math.imul(hash ^ code, FNV_PRIME);
}

/** Hash of a whole (lowercased) word. */
export function wordHash(word: string): number {
  let hash = FNV_OFFSET;
  for (let index = 0; index < word.length; index++) hash = extendWordHash(hash, word.charCodeAt(index));
  return hash;
}

/** Hash of an ordered pair of word hashes. */
export function pairHash(first: number, second: number): number {
  let x = Math.imul(first, 0x9e3779b1) ^ second;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x;
}

function secondProbe(hash: number): number {
  return Math.imul(hash, 0x27d4eb2d) ^ (hash >>> 15);
}

/** Build a Bloom filter (2 probes, ~8 bits per pair) from pair hashes. */
export function buildPairFilter(pairs: readonly number[]): Uint32Array {
  let bits = MIN_FILTER_BITS;
  while (bits < pairs.length * BITS_PER_PAIR) bits *= 2;
  const filter = new Uint32Array(bits >>> 5);
  const mask = bits - 1;
  for (const pair of pairs) {
    const first = pair & mask;
    const second = secondProbe(pair) & mask;
    filter[first >>> 5] = (filter[first >>> 5] as number) | (1 << (first & 31));
    filter[second >>> 5] = (filter[second >>> 5] as number) | (1 << (second & 31));
  }
  return filter;
}

/**
 * False when the filter stored at `arena[start .. start + words)` certainly lacks one of the
 * pairs; true when it may hold all of them. (`words` is a power of two, as built.)
 */
export function mayHoldPairs(arena: Uint32Array, start: number, words: number, pairs: readonly number[]): boolean {
  if (words === 0) return false;
  const mask = words * 32 - 1;
  for (const pair of pairs) {
    const first = pair & mask;
    const second = secondProbe(pair) & mask;
    if (((arena[start + (first >>> 5)] as number) & (1 << (first & 31))) === 0) return false;
    if (((arena[start + (second >>> 5)] as number) & (1 << (second & 31))) === 0) return false;
  }
  return true;
}

/** Pair hashes of a word sequence (consecutive words). */
export function pairsOfWords(words: readonly string[]): number[] {
  const pairs: number[] = [];
  for (let index = 1; index < words.length; index++) {
    pairs.push(pairHash(wordHash(words[index - 1] as string), wordHash(words[index] as string)));
  }
  return pairs;
}
