// Why: a one-shot search must not hold the whole tree. Ranking needs every document's length and
// every term's document frequency before any score is final, but nothing else of a document that
// matches no term; and of a matching one, only its per-term hit counts and whether it holds the
// phrase. So each document is reduced to those numbers as it is read and dropped; only the few
// documents finally shown are read again for their snippets. The arithmetic is the reference
// ranking's (naive-ranking.ts), step for step, so results are identical.
import type { DocumentAnalysis, DocumentText } from './document-text.js';
import { wordFrequency } from './naive-ranking.js';
import { mayHoldPairs } from './phrase-filter.js';
import {
  countSubstringMatches,
  documentContainsPhrase,
  matchedShareOf,
  type QueryPlan,
  shownIdfs,
  shownTermCount,
} from './query-plan.js';
import { type RankedDocument, type Ranking, TopK } from './ranked.js';
import { compareRanked, coordinate, inverseDocumentFrequency, phraseBonus, termScore } from './scoring.js';

/** What is kept of a document matching at least one term. */
interface Candidate {
  readonly path: string;
  readonly length: number;
  /** Per plan term: weighted hits in the body and in the path. */
  readonly body: Float64Array;
  readonly pathHits: Float64Array;
  /** Matched share of the typed terms (see `matchedShareOf`). */
  readonly matchedCount: number;
  /** Matches every term and holds the whole phrase (the phrase bonus applies). */
  readonly phrase: boolean;
}

/** Reads a ranked document's searchable text again (for its snippets), or `undefined` when it is gone. */
export type DocumentTextReader = (path: string) => Promise<DocumentText | undefined>;

/**
 * Ranks documents offered one at a time, keeping only a few numbers per matching document
 * (see the module comment). Offer every searchable document of the scope, then call
 * {@link StreamingRanking.rank}.
 */
export class StreamingRanking {
  readonly #plan: QueryPlan;
  readonly #documentFrequency: number[];
  readonly #candidates: Candidate[] = [];
  #documentCount = 0;
  #totalLength = 0;

  constructor(plan: QueryPlan) {
    this.#plan = plan;
    this.#documentFrequency = plan.terms.map(() => 0);
  }

  /** Count a searchable document and keep what ranking needs of it when it matches a term. */
  add(document: DocumentAnalysis): void {
    this.#documentCount++;
    this.#totalLength += document.length;
    const terms = this.#plan.terms;
    if (terms.length === 0) return;
    const body = new Float64Array(terms.length);
    const pathHits = new Float64Array(terms.length);
    let matchedTerms = 0;
    for (const [index, term] of terms.entries()) {
      if (term.kind === 'substring') {
        body[index] = countSubstringMatches(term, document.text.lines);
        pathHits[index] = countSubstringMatches(term, document.text.path);
      } else {
        body[index] = wordFrequency(term, document.words);
        pathHits[index] = wordFrequency(term, document.pathWords);
      }
      if ((body[index] as number) > 0 || (pathHits[index] as number) > 0) {
        matchedTerms++;
        this.#documentFrequency[index] = (this.#documentFrequency[index] as number) + 1;
      }
    }
    if (matchedTerms === 0) return;
    const matched = matchedShareOf(this.#plan, body, pathHits);
    const matchedCount = matched.share;
    const phrase =
      matched.all &&
      documentContainsPhrase(this.#plan, document.text) &&
      mayHoldPairs(document.pairFilter, 0, document.pairFilter.length, this.#plan.phrasePairs);
    this.#candidates.push({ path: document.text.path, length: document.length, body, pathHits, matchedCount, phrase });
  }

  /**
   * Count a searchable document known only by its figures (from an analysis cache): its length,
   * per term its weighted hits in the body and the path, and whether the phrase bonus applies.
   */
  addCounts(path: string, length: number, body: Float64Array, pathHits: Float64Array, phrase: boolean): void {
    this.#documentCount++;
    this.#totalLength += length;
    const terms = this.#plan.terms;
    if (terms.length === 0) return;
    let matchedTerms = 0;
    for (let index = 0; index < terms.length; index++) {
      if ((body[index] as number) > 0 || (pathHits[index] as number) > 0) {
        matchedTerms++;
        this.#documentFrequency[index] = (this.#documentFrequency[index] as number) + 1;
      }
    }
    if (matchedTerms === 0) return;
    const matched = matchedShareOf(this.#plan, body, pathHits);
    const matchedCount = matched.share;
    this.#candidates.push({
      path,
      length,
      body,
      pathHits,
      matchedCount,
      phrase: phrase && matched.all,
    });
  }

  /**
   * The best `limit` documents, best first, their text read again through `read` (a document
   * gone since it was offered is shown without snippets).
   */
  async rank(limit: number, read: DocumentTextReader): Promise<Ranking> {
    const plan = this.#plan;
    const count = this.#documentCount;
    const averageLength = count === 0 ? 0 : this.#totalLength / count;
    const idfs = this.#documentFrequency.map((frequency) => inverseDocumentFrequency(count, frequency));
    if (plan.terms.length === 0) return { documentCount: count, idfs: [], ranked: [] };
    const bonus = phraseBonus(shownIdfs(plan, idfs));
    const top = new TopK<{ readonly candidate: Candidate; readonly score: number }>(limit, (a, b) =>
      compareRanked({ score: a.score, path: a.candidate.path }, { score: b.score, path: b.candidate.path }),
    );
    for (const candidate of this.#candidates) {
      let score = 0;
      for (let index = 0; index < plan.terms.length; index++) {
        const bodyFrequency = candidate.body[index] as number;
        const pathFrequency = candidate.pathHits[index] as number;
        if (bodyFrequency === 0 && pathFrequency === 0) continue;
        score += termScore(idfs[index] as number, bodyFrequency, pathFrequency, candidate.length, averageLength);
      }
      score = coordinate(score, candidate.matchedCount, shownTermCount(plan));
      if (candidate.phrase) score += bonus;
      top.offer({ candidate, score });
    }
    const ranked: RankedDocument[] = [];
    for (const { candidate, score } of top.items()) {
      const text = (await read(candidate.path)) ?? {
        path: candidate.path,
        lines: '',
        lineNumbers: [],
        fields: undefined,
      };
      const matched = Array.from(
        candidate.body,
        (hits, index) => hits > 0 || (candidate.pathHits[index] as number) > 0,
      );
      ranked.push({ path: candidate.path, text, score, matched });
    }
    return { documentCount: count, idfs, ranked };
  }
}
