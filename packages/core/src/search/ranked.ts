// Why: the shape both search paths (indexed and naive) hand to the response builder, and the
// small top-k selection they share, so their outputs are byte-for-byte comparable.
import type { DocumentText } from './document-text.js';
import { type QueryPlan, shownMatches } from './query-plan.js';
import { roundScore } from './scoring.js';
import { buildSnippets } from './snippets.js';
import type { SearchHit } from './types.js';

/** A ranked document before snippets are built. */
export interface RankedDocument {
  readonly path: string;
  readonly text: DocumentText;
  /** Exact final score (coordination and phrase bonus applied). */
  readonly score: number;
  /** For each plan term: whether the document (body or path) matched it. */
  readonly matched: readonly boolean[];
}

/** What a ranking pass produces. */
export interface Ranking {
  /** Number of searchable documents considered. */
  readonly documentCount: number;
  /** IDF of each plan term. */
  readonly idfs: readonly number[];
  /** Best documents, best first, at most `limit`. */
  readonly ranked: readonly RankedDocument[];
}

/** Keeps the best `limit` items (by a comparator, best first) while items stream in. */
export class TopK<T> {
  readonly #limit: number;
  readonly #compare: (a: T, b: T) => number;
  readonly #items: T[] = [];

  constructor(limit: number, compare: (a: T, b: T) => number) {
    this.#limit = limit;
    this.#compare = compare;
  }

  /** Offer an item; it is kept only when it ranks among the best `limit`. */
  offer(item: T): void {
    const items = this.#items;
    if (items.length >= this.#limit && this.#compare(item, items[items.length - 1] as T) >= 0) return;
    let low = 0;
    let high = items.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#compare(items[middle] as T, item) <= 0) low = middle + 1;
      else high = middle;
    }
    items.splice(low, 0, item);
    if (items.length > this.#limit) items.pop();
  }

  /** Remove an item, if selected. */
  remove(item: T): void {
    const index = this.#items.indexOf(item);
    if (index >= 0) this.#items.splice(index, 1);
  }

  /** The `limit`-th best item when the selection is full. */
  last(): T | undefined {
    return this.#items.length < this.#limit ? undefined : this.#items[this.#items.length - 1];
  }

  /** Selected items, best first. */
  items(): T[] {
    return [...this.#items];
  }
}

/**
 * Snippet text of a document that matched only by its path (Sepo's shape): line 0, no body text.
 */
export const FILENAME_MATCH_TEXT = '(matched by filename)';

/**
 * Turn a ranked document into a result with its best snippets. A document whose body holds no
 * query term (it matched by its path only) gets Sepo's one snippet
 * `{ lineNumber: 0, text: "(matched by filename)" }`, so every store reports it the same way.
 */
export function toSearchHit(
  document: RankedDocument,
  plan: QueryPlan,
  idfs: readonly number[],
  snippets: number,
): SearchHit {
  const shown = shownMatches(plan, document.matched);
  const matchedTerms = plan.terms
    .slice(0, shown.length)
    .filter((_, index) => shown[index])
    .map((term) => term.text);
  const score = roundScore(document.score);
  const lines = buildSnippets(document.text, plan, idfs, snippets);
  const filenameOnly = lines.length === 0 && snippets > 0 && matchedTerms.length > 0;
  return {
    path: document.path,
    score,
    matchCount: matchedTerms.length,
    matchedTerms,
    snippets: filenameOnly
      ? [{ lineNumber: 0, text: FILENAME_MATCH_TEXT, score, matchCount: matchedTerms.length }]
      : lines,
  };
}
