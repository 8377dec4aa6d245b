// Why: the reference ranking. It scores every analysed document directly, with no index; the
// indexed path must return exactly the same results, and benchmarks compare against it.
import type { DocumentAnalysis } from './document-text.js';
import { mayHoldPairs } from './phrase-filter.js';
import {
  coordinationMatches,
  countShownMatches,
  countSubstringMatches,
  documentContainsPhrase,
  type QueryPlan,
  type QueryTerm,
  shownIdfs,
  shownTermCount,
  termNeedle,
  wordMatchWeight,
} from './query-plan.js';
import { type RankedDocument, type Ranking, TopK } from './ranked.js';
import { compareRanked, coordinate, inverseDocumentFrequency, phraseBonus, RANKING, termScore } from './scoring.js';

/** Below this many distinct words a document's words are scanned; from it on, looked up. */
const SORTED_LOOKUP_MIN_WORDS = 64;
/** Each large word map's words in code-unit order, built on first use (analyses kept by a search engine are ranked again and again). */
const sortedWords = new WeakMap<ReadonlyMap<string, number>, readonly string[]>();

/** First index of `sorted` whose word is >= `text` (code-unit order). */
function lowerBound(sorted: readonly string[], text: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as string) < text) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * `wordFrequency` of a word term over a large word map: the words starting with its needle (the
 * exact word, the words it starts, its inflections), contiguous in code-unit order, found by
 * binary search. Sums of counts and halves of
 * counts are exact in floating point, so the result equals the scan's whatever the order.
 */
function lookupWordFrequency(term: QueryTerm, words: ReadonlyMap<string, number>): number {
  if (!term.prefix && term.stem === undefined) return words.get(term.text) ?? 0;
  let sorted = sortedWords.get(words);
  if (sorted === undefined) {
    sorted = [...words.keys()].sort();
    sortedWords.set(words, sorted);
  }
  // Every word the term matches (itself, the words it starts, its inflections) starts with its needle.
  let frequency = 0;
  for (let index = lowerBound(sorted, termNeedle(term)); index < sorted.length; index++) {
    const word = sorted[index] as string;
    if (!word.startsWith(termNeedle(term))) break;
    const weight = wordMatchWeight(term, word, RANKING.prefixWeight);
    if (weight > 0) frequency += weight * (words.get(word) ?? 0);
  }
  return frequency;
}

/** How often a word-based term occurs among `words` (prefix matches weighted as in the ranking). */
export function wordFrequency(term: QueryTerm, words: ReadonlyMap<string, number>): number {
  if (term.kind === 'word' && words.size >= SORTED_LOOKUP_MIN_WORDS) return lookupWordFrequency(term, words);
  let frequency = 0;
  for (const [word, count] of words) {
    const weight = wordMatchWeight(term, word, RANKING.prefixWeight);
    if (weight > 0) frequency += weight * count;
  }
  return frequency;
}

/**
 * Figures about the whole corpus when `documents` are only some of it (a store's complete
 * candidates: every document the query can match). Omitted: `documents` are the whole corpus.
 */
export interface CorpusFigures {
  readonly documentCount: number;
  readonly totalLength: number;
}

/** Rank analysed documents for a plan by scanning all of them. */
export function rankDocumentsNaively(
  documents: readonly DocumentAnalysis[],
  plan: QueryPlan,
  limit: number,
  corpus?: CorpusFigures,
): Ranking {
  let totalLength = 0;
  for (const document of documents) totalLength += document.length;
  if (corpus !== undefined) totalLength = corpus.totalLength;
  const count = corpus?.documentCount ?? documents.length;
  const averageLength = count === 0 ? 0 : totalLength / count;
  const scores = new Float64Array(documents.length);
  const matched = documents.map(() => new Array<boolean>(plan.terms.length).fill(false));
  const matchedCounts = new Uint32Array(documents.length);
  const idfs: number[] = [];
  for (const [termIndex, term] of plan.terms.entries()) {
    const body = new Float64Array(documents.length);
    const path = new Float64Array(documents.length);
    let documentFrequency = 0;
    documents.forEach((document, index) => {
      if (term.kind === 'substring') {
        body[index] = countSubstringMatches(term, document.text.lines);
        path[index] = countSubstringMatches(term, document.text.path);
      } else {
        body[index] = wordFrequency(term, document.words);
        path[index] = wordFrequency(term, document.pathWords);
      }
      if ((body[index] ?? 0) > 0 || (path[index] ?? 0) > 0) documentFrequency++;
    });
    const idf = inverseDocumentFrequency(count, documentFrequency);
    idfs.push(idf);
    documents.forEach((document, index) => {
      const bodyFrequency = body[index] ?? 0;
      const pathFrequency = path[index] ?? 0;
      if (bodyFrequency === 0 && pathFrequency === 0) return;
      scores[index] =
        (scores[index] ?? 0) + termScore(idf, bodyFrequency, pathFrequency, document.length, averageLength);
      (matched[index] as boolean[])[termIndex] = true;
      matchedCounts[index] = (matchedCounts[index] ?? 0) + 1;
    });
  }
  const bonus = phraseBonus(shownIdfs(plan, idfs));
  const shown = shownTermCount(plan);
  const top = new TopK<RankedDocument>(limit, compareRanked);
  documents.forEach((document, index) => {
    if ((matchedCounts[index] ?? 0) === 0) return;
    const flags = matched[index] as boolean[];
    let score = coordinate(scores[index] ?? 0, coordinationMatches(plan, flags), shown);
    // Both tests must pass (as in the index); the phrase goes first so that a pair filter built
    // lazily (one-shot analyses) is only built for the few documents holding the phrase.
    if (
      countShownMatches(plan, flags) === shown &&
      documentContainsPhrase(plan, document.text) &&
      mayHoldPairs(document.pairFilter, 0, document.pairFilter.length, plan.phrasePairs)
    ) {
      score += bonus;
    }
    top.offer({ path: document.text.path, text: document.text, score, matched: matched[index] as boolean[] });
  });
  return { documentCount: count, idfs, ranked: top.items() };
}
