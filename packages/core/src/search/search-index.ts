// Why: warm queries over tens of thousands of documents must not rescan them. This inverted
// index keeps, per analysed document version, postings (word -> documents and counts) for the
// body and the path, a prefix table for word-prefix matches, and each document's phrase pair
// filter. Updates are incremental: a changed document gets a new slot and its old one is dropped
// lazily; dead postings are compacted away once they pile up. Ranking is identical to the naive
// scan (same formula, same exact arithmetic), only faster: per-document numbers live in dense
// arrays and scratch buffers are reused between queries.
import type { DocumentAnalysis, DocumentText } from './document-text.js';
import type { CorpusFigures } from './naive-ranking.js';
import { mayHoldPairs } from './phrase-filter.js';
import {
  countSubstringMatches,
  documentContainsPhrase,
  MIN_PREFIX_TERM_LENGTH,
  type QueryPlan,
  type QueryTerm,
  shownIdfs,
  shownTermCount,
  termNeedle,
  wordMatchWeight,
} from './query-plan.js';
import { type RankedDocument, type Ranking, TopK } from './ranked.js';
import { coordinate, inverseDocumentFrequency, phraseBonus, RANKING, termScore } from './scoring.js';

/** The documents a store's index named for a query, and the figures of the whole corpus. */
export interface CandidateScope {
  readonly paths: readonly string[];
  readonly corpus: CorpusFigures;
}

interface Slot {
  readonly path: string;
  readonly version: string;
  readonly text: DocumentText;
}

/** Interleaved `[slotId, count, slotId, count, ...]`. */
type Postings = number[];

/** Words longer than this are reachable by prefix (a prefix term is >= 3 long, words strictly longer). */
const PREFIX_KEY_LENGTH = MIN_PREFIX_TERM_LENGTH;
const MIN_DEAD_BEFORE_COMPACTION = 64;

function grown<T extends Uint8Array | Uint32Array | Float64Array>(
  array: T,
  needed: number,
  make: (size: number) => T,
): T {
  if (array.length >= needed) return array;
  let size = Math.max(64, array.length);
  while (size < needed) size *= 2;
  const next = make(size);
  next.set(array);
  return next;
}

/** An incrementally maintained inverted index over analysed document versions. */
export class SearchIndex {
  #slots: (Slot | undefined)[] = [];
  #lengths: number[] = [];
  #live = new Uint8Array(0);
  #filterArena = new Uint32Array(0);
  #filterUsed = 0;
  #filterStart: number[] = [];
  #filterWords: number[] = [];
  #totalLength = 0;
  #dead = 0;
  readonly #byPath = new Map<string, number>();
  readonly #body = new Map<string, Postings>();
  readonly #path = new Map<string, Postings>();
  /** First {@link PREFIX_KEY_LENGTH} characters -> indexed words longer than that. */
  readonly #prefixes = new Map<string, Set<string>>();
  // Scratch buffers of rank(), all zero between queries.
  #scores = new Float64Array(0);
  #matchedCounts = new Uint32Array(0);
  #bodyFrequency = new Float64Array(0);
  #pathFrequency = new Float64Array(0);

  /** Number of documents indexed. */
  get size(): number {
    return this.#byPath.size;
  }

  /** Version of the indexed document at `path`, or `undefined`. */
  versionOf(path: string): string | undefined {
    const id = this.#byPath.get(path);
    return id === undefined ? undefined : this.#slots[id]?.version;
  }

  /** Paths of all indexed documents. */
  paths(): string[] {
    return [...this.#byPath.keys()];
  }

  /** Index (or re-index) a document version. */
  upsert(path: string, version: string, analysis: DocumentAnalysis): void {
    this.remove(path);
    const id = this.#slots.length;
    this.#slots.push({ path, version, text: analysis.text });
    this.#lengths.push(analysis.length);
    this.#live = grown(this.#live, id + 1, (size) => new Uint8Array(size));
    this.#live[id] = 1;
    this.#storeFilter(analysis.pairFilter);
    this.#byPath.set(path, id);
    this.#totalLength += analysis.length;
    this.#addPostings(this.#body, analysis.words, id);
    this.#addPostings(this.#path, analysis.pathWords, id);
  }

  /** Drop a document (its postings are compacted away later). */
  remove(path: string): void {
    const id = this.#byPath.get(path);
    if (id === undefined) return;
    this.#byPath.delete(path);
    this.#slots[id] = undefined;
    this.#live[id] = 0;
    this.#totalLength -= this.#lengths[id] ?? 0;
    this.#dead++;
    if (this.#dead >= MIN_DEAD_BEFORE_COMPACTION && this.#dead * 4 >= this.#byPath.size) this.compact();
  }

  /** Rewrite postings and filters without dropped documents and renumber slots densely. */
  compact(): void {
    const renumber = new Int32Array(this.#slots.length).fill(-1);
    const slots: Slot[] = [];
    const lengths: number[] = [];
    const filterStart: number[] = [];
    const filterWords: number[] = [];
    const arena = new Uint32Array(Math.max(64, this.#filterUsed));
    let used = 0;
    this.#slots.forEach((slot, id) => {
      if (slot === undefined) return;
      const next = slots.length;
      renumber[id] = next;
      this.#byPath.set(slot.path, next);
      slots.push(slot);
      lengths.push(this.#lengths[id] ?? 0);
      const start = this.#filterStart[id] ?? 0;
      const words = this.#filterWords[id] ?? 0;
      arena.set(this.#filterArena.subarray(start, start + words), used);
      filterStart.push(used);
      filterWords.push(words);
      used += words;
    });
    this.#slots = slots;
    this.#lengths = lengths;
    this.#filterArena = arena;
    this.#filterUsed = used;
    this.#filterStart = filterStart;
    this.#filterWords = filterWords;
    this.#live = new Uint8Array(Math.max(64, slots.length)).fill(1, 0, slots.length);
    this.#dead = 0;
    for (const postingsMap of [this.#body, this.#path]) {
      for (const [word, postings] of postingsMap) {
        let write = 0;
        for (let read = 0; read < postings.length; read += 2) {
          const id = renumber[postings[read] as number] ?? -1;
          if (id < 0) continue;
          postings[write++] = id;
          postings[write++] = postings[read + 1] as number;
        }
        postings.length = write;
        if (write === 0) {
          postingsMap.delete(word);
          if (!this.#body.has(word) && !this.#path.has(word)) this.#forgetPrefix(word);
        }
      }
    }
  }

  #storeFilter(filter: Uint32Array): void {
    this.#filterArena = grown(this.#filterArena, this.#filterUsed + filter.length, (size) => new Uint32Array(size));
    this.#filterArena.set(filter, this.#filterUsed);
    this.#filterStart.push(this.#filterUsed);
    this.#filterWords.push(filter.length);
    this.#filterUsed += filter.length;
  }

  #addPostings(target: Map<string, Postings>, words: ReadonlyMap<string, number>, id: number): void {
    for (const [word, count] of words) {
      const postings = target.get(word);
      if (postings === undefined) {
        target.set(word, [id, count]);
        this.#rememberPrefix(word);
      } else {
        postings.push(id, count);
      }
    }
  }

  #rememberPrefix(word: string): void {
    if (word.length <= PREFIX_KEY_LENGTH) return;
    const key = word.slice(0, PREFIX_KEY_LENGTH);
    let words = this.#prefixes.get(key);
    if (words === undefined) {
      words = new Set();
      this.#prefixes.set(key, words);
    }
    words.add(word);
  }

  #forgetPrefix(word: string): void {
    if (word.length <= PREFIX_KEY_LENGTH) return;
    const key = word.slice(0, PREFIX_KEY_LENGTH);
    const words = this.#prefixes.get(key);
    if (words === undefined) return;
    words.delete(word);
    if (words.size === 0) this.#prefixes.delete(key);
  }

  /** Words a word-based term matches, with their weights (exact 1, prefix reduced, infix 1). */
  #expansions(term: QueryTerm): Array<readonly [string, number]> {
    if (term.kind === 'infix') {
      const words = new Set<string>();
      for (const word of this.#body.keys()) if (word.includes(term.text)) words.add(word);
      for (const word of this.#path.keys()) if (word.includes(term.text)) words.add(word);
      return [...words].map((word) => [word, 1] as const);
    }
    // An inflection clause never matches the typed word itself (the typed term does).
    const expansions: Array<readonly [string, number]> = term.stem === undefined ? [[term.text, 1]] : [];
    if (!term.prefix && term.stem === undefined) return expansions;
    // Every other word the term matches (the words it starts, its inflections) starts with its
    // needle, which is at least PREFIX_KEY_LENGTH long: the needle itself, or a longer word.
    const needle = termNeedle(term);
    const needleIsKey = needle.length <= PREFIX_KEY_LENGTH; // not among the longer words below
    if (needleIsKey && needle !== term.text && (this.#body.has(needle) || this.#path.has(needle))) {
      const weight = wordMatchWeight(term, needle, RANKING.prefixWeight);
      if (weight > 0) expansions.push([needle, weight]);
    }
    for (const word of this.#prefixes.get(needle.slice(0, PREFIX_KEY_LENGTH)) ?? []) {
      if (word === term.text || !word.startsWith(needle)) continue;
      const weight = wordMatchWeight(term, word, RANKING.prefixWeight);
      if (weight > 0) expansions.push([word, weight]);
    }
    return expansions;
  }

  #ensureScratch(capacity: number): void {
    if (this.#scores.length >= capacity) return;
    this.#scores = grown(this.#scores, capacity, (size) => new Float64Array(size));
    this.#matchedCounts = grown(this.#matchedCounts, capacity, (size) => new Uint32Array(size));
    this.#bodyFrequency = grown(this.#bodyFrequency, capacity, (size) => new Float64Array(size));
    this.#pathFrequency = grown(this.#pathFrequency, capacity, (size) => new Float64Array(size));
  }

  /**
   * Rank the indexed documents (only those under `prefix` when given) for a plan, keeping the
   * best `limit`. With `within`, only the indexed documents at those paths are ranked, with IDF
   * and average length taken from the corpus figures given (a store's complete candidates:
   * every document the query can match, while the index may hold only some of the corpus).
   */
  rank(plan: QueryPlan, prefix: string, limit: number, within?: CandidateScope): Ranking {
    const slots = this.#slots;
    const capacity = slots.length;
    this.#ensureScratch(capacity);
    let scope = this.#live;
    let documentCount = this.#byPath.size;
    let totalLength = this.#totalLength;
    if (within !== undefined) {
      scope = new Uint8Array(capacity);
      documentCount = within.corpus.documentCount;
      totalLength = within.corpus.totalLength;
      for (const path of within.paths) {
        const id = this.#byPath.get(path);
        if (id !== undefined && path.startsWith(prefix)) scope[id] = 1;
      }
    } else if (prefix !== '') {
      scope = new Uint8Array(capacity);
      documentCount = 0;
      totalLength = 0;
      for (let id = 0; id < capacity; id++) {
        const slot = slots[id];
        if (slot === undefined || !slot.path.startsWith(prefix)) continue;
        scope[id] = 1;
        documentCount++;
        totalLength += this.#lengths[id] ?? 0;
      }
    }
    const candidates: number[] = [];
    try {
      return this.#rankInScope(plan, limit, scope, documentCount, totalLength, candidates);
    } finally {
      for (const id of candidates) {
        this.#scores[id] = 0;
        this.#matchedCounts[id] = 0;
      }
      this.#bodyFrequency.fill(0);
      this.#pathFrequency.fill(0);
    }
  }

  #rankInScope(
    plan: QueryPlan,
    limit: number,
    scope: Uint8Array,
    documentCount: number,
    totalLength: number,
    candidates: number[],
  ): Ranking {
    const slots = this.#slots;
    const lengths = this.#lengths;
    const scores = this.#scores;
    const matchedCounts = this.#matchedCounts;
    const bodyFrequency = this.#bodyFrequency;
    const pathFrequency = this.#pathFrequency;
    const averageLength = documentCount === 0 ? 0 : totalLength / documentCount;
    const termCount = shownTermCount(plan);
    const touchedByTerm: number[][] = [];
    const idfs: number[] = [];
    // The coordination share when it differs from the matched count (inflection clauses).
    const shares = plan.terms.length > termCount ? new Float64Array(slots.length) : undefined;

    for (const term of plan.terms) {
      // A document matching a typed term and its inflection clause counts as matching it once.
      let typedMatch: Uint8Array | undefined;
      if (term.inflectionOf !== undefined) {
        typedMatch = new Uint8Array(slots.length);
        for (const id of touchedByTerm[term.inflectionOf] ?? []) typedMatch[id] = 1;
      }
      const share = term.inflectionOf === undefined ? 1 : RANKING.inflectionShare;
      const touched: number[] = [];
      const visit = (postings: Postings | undefined, weight: number, frequency: Float64Array): void => {
        if (postings === undefined) return;
        for (let at = 0; at < postings.length; at += 2) {
          const id = postings[at] as number;
          if (scope[id] !== 1) continue;
          if (bodyFrequency[id] === 0 && pathFrequency[id] === 0) touched.push(id);
          frequency[id] = (frequency[id] as number) + weight * (postings[at + 1] as number);
        }
      };
      if (term.kind === 'substring') {
        for (let id = 0; id < slots.length; id++) {
          const slot = slots[id];
          if (slot === undefined || scope[id] !== 1) continue;
          const body = countSubstringMatches(term, slot.text.lines);
          const path = countSubstringMatches(term, slot.path);
          if (body === 0 && path === 0) continue;
          touched.push(id);
          bodyFrequency[id] = body;
          pathFrequency[id] = path;
        }
      } else {
        for (const [word, weight] of this.#expansions(term)) {
          visit(this.#body.get(word), weight, bodyFrequency);
          visit(this.#path.get(word), weight, pathFrequency);
        }
      }
      const idf = inverseDocumentFrequency(documentCount, touched.length);
      idfs.push(idf);
      for (const id of touched) {
        scores[id] =
          (scores[id] as number) +
          termScore(
            idf,
            bodyFrequency[id] as number,
            pathFrequency[id] as number,
            lengths[id] as number,
            averageLength,
          );
        if (typedMatch?.[id] !== 1) {
          if (matchedCounts[id] === 0) candidates.push(id);
          matchedCounts[id] = (matchedCounts[id] as number) + 1;
          if (shares !== undefined) shares[id] = (shares[id] as number) + share;
        }
        bodyFrequency[id] = 0;
        pathFrequency[id] = 0;
      }
      touchedByTerm.push(touched);
    }

    const compare = (a: number, b: number): number => {
      const difference = (scores[b] as number) - (scores[a] as number);
      if (difference !== 0) return difference;
      const pathA = (slots[a] as Slot).path;
      const pathB = (slots[b] as Slot).path;
      return pathA < pathB ? -1 : pathA > pathB ? 1 : 0;
    };
    const top = new TopK<number>(limit, compare);
    for (const id of candidates) {
      const matched = shares === undefined ? (matchedCounts[id] as number) : (shares[id] as number);
      scores[id] = coordinate(scores[id] as number, matched, termCount);
      top.offer(id);
    }
    if (plan.phrase !== undefined) {
      this.#applyPhraseBonus(plan, phraseBonus(shownIdfs(plan, idfs)), candidates, top, compare);
    }
    const selected = top.items();

    const matchedById = new Map<number, boolean[]>();
    for (const id of selected) matchedById.set(id, new Array<boolean>(plan.terms.length).fill(false));
    touchedByTerm.forEach((touched, termIndex) => {
      for (const id of touched) {
        const matched = matchedById.get(id);
        if (matched !== undefined) matched[termIndex] = true;
      }
    });
    const ranked: RankedDocument[] = selected.map((id) => {
      const slot = slots[id] as Slot;
      return { path: slot.path, text: slot.text, score: scores[id] as number, matched: matchedById.get(id) ?? [] };
    });
    return { documentCount, idfs, ranked };
  }

  /**
   * Final top-k when the phrase bonus applies (scores are updated in place). Only documents
   * matching every term whose pair filter allows the phrase can hold it; they are checked in
   * descending base score until even the bonus could not lift one into the selection.
   */
  #applyPhraseBonus(
    plan: QueryPlan,
    bonus: number,
    candidates: readonly number[],
    top: TopK<number>,
    compare: (a: number, b: number) => number,
  ): void {
    const slots = this.#slots;
    const scores = this.#scores;
    const matchedCounts = this.#matchedCounts;
    const arena = this.#filterArena;
    const filterStart = this.#filterStart;
    const filterWords = this.#filterWords;
    const termCount = shownTermCount(plan);
    const lastId = top.last();
    const threshold = lastId === undefined ? Number.NEGATIVE_INFINITY : (scores[lastId] as number);
    const eligible: number[] = [];
    for (const id of candidates) {
      if (matchedCounts[id] !== termCount || (scores[id] as number) + bonus < threshold) continue;
      if (!mayHoldPairs(arena, filterStart[id] as number, filterWords[id] as number, plan.phrasePairs)) continue;
      eligible.push(id);
    }
    eligible.sort(compare);
    for (const id of eligible) {
      const last = top.last();
      if (last !== undefined && last !== id) {
        const lifted = (scores[id] as number) + bonus;
        const bar = scores[last] as number;
        if (lifted < bar || (lifted === bar && (slots[id] as Slot).path > (slots[last] as Slot).path)) break;
      }
      if (!documentContainsPhrase(plan, (slots[id] as Slot).text)) continue;
      top.remove(id);
      scores[id] = (scores[id] as number) + bonus;
      top.offer(id);
    }
  }
}
