// Why: the ranking formula in one place. BM25F-style: rare terms weigh more (IDF over the
// documents searched), repeated words saturate (a document repeating one word 500 times does not
// beat one matching every term), a path hit counts like several body hits (Sepo used x6), prefix
// hits count half and inflections (same stem, their own IDF) a quarter, documents are scaled by
// the share of query terms they match (an inflection-only match counts half), and a line holding
// the whole query phrase earns a bonus. Single-term queries get no phrase bonus, so they are not
// counted twice.

/** Tuning constants of the ranking. */
export const RANKING = Object.freeze({
  /** BM25 term-frequency saturation. */
  k1: 1.2,
  /** BM25 length normalisation of the body (the path is not length-normalised). */
  b: 0.75,
  /** One occurrence of a term in the path counts as this many body occurrences (Sepo: x6). */
  pathWeight: 6,
  /** Weight of a word that merely starts with the term (`test` in `tests`). */
  prefixWeight: 0.5,
  /**
   * Weight of an inflection in its clause (see `QueryPlan.terms`): a word with the term's stem
   * that the term does not match itself (`policies` for `policy`). Below an exact and a prefix
   * match, so the exact word and the phrase rank first.
   */
  stemWeight: 0.25,
  /**
   * Share of a typed term in the coordination factor when only its inflections matched (matched
   * itself it counts 1). With `stemWeight`, chosen on the tuning part of bench/relevance's search
   * set (weights 0.25 and 0.5 by shares 0.25, 0.5 and 0.75 were tried).
   */
  inflectionShare: 0.5,
  /** Phrase bonus as a fraction of the sum of the query terms' IDF. */
  phraseWeight: 0.5,
});

/** Inverse document frequency of a term found in `documentFrequency` of `documentCount` documents. */
export function inverseDocumentFrequency(documentCount: number, documentFrequency: number): number {
  return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/**
 * One term's contribution to a document: `idf * tf' (k1 + 1) / (tf' + k1)` with
 * `tf' = bodyFrequency / lengthNorm + pathWeight * pathFrequency`.
 */
export function termScore(
  idf: number,
  bodyFrequency: number,
  pathFrequency: number,
  documentLength: number,
  averageLength: number,
): number {
  const norm = averageLength > 0 ? 1 - RANKING.b + (RANKING.b * documentLength) / averageLength : 1;
  const frequency = bodyFrequency / norm + RANKING.pathWeight * pathFrequency;
  return (idf * frequency * (RANKING.k1 + 1)) / (frequency + RANKING.k1);
}

/** Scale a document's summed term scores by the share of query terms it matched. */
export function coordinate(score: number, matchedTerms: number, totalTerms: number): number {
  return totalTerms === 0 ? 0 : (score * matchedTerms) / totalTerms;
}

/** The whole-phrase bonus for a query whose terms have these IDFs. */
export function phraseBonus(idfs: readonly number[]): number {
  let sum = 0;
  for (const idf of idfs) sum += idf;
  return RANKING.phraseWeight * sum;
}

/** Round a score for output (ranking uses the exact value). */
export function roundScore(score: number): number {
  return Math.round(score * 1000) / 1000;
}

/** Order of results: higher score first, then path ascending (deterministic ties). */
export function compareRanked(a: { score: number; path: string }, b: { score: number; path: string }): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
