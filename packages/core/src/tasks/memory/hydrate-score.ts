// Why: the step between reading the sources and filling the budget: every candidate of every
// kind is scored together (one scale, see `hydrate-relevance.ts`), by meaning too when a
// semantic index is given (its failure or timeout degrades to words, never fails the task), then
// each source keeps its best `limit`. Review rules are always relevant (seed 004: every active
// rule is given) and ordered by reviewer weight and relevance; the requesting user's few most
// relevant preferences rank above any other memory (PREFERENCE_PRIOR), because they say how this
// user wants any task done.
import { type RelevanceQuery, type SemanticScorer, scoreRelevance } from './hydrate-relevance.js';
import type { Candidate } from './hydrate-sources.js';
import type { ContextSource } from './receipt.js';
import { runWithTimeout } from './with-timeout.js';

/**
 * Least score of a preference of the requesting user: above every relevance score (at most 1.9:
 * lexical 1, semantic 0.4, scope 0.5), so the user's few one-line preferences are placed right
 * after the rules, as seed 004 gives them to every task of that user.
 */
export const PREFERENCE_PRIOR = 2;
/**
 * Preferences of the requesting user given whatever the task (the most relevant first); the rest
 * compete by relevance like any memory, so a user with many preferences cannot fill the budget.
 */
export const PREFERENCES_GIVEN = 3;

/** Order of candidates: score descending, then newest first, then id. */
export function compareCandidates(a: Candidate, b: Candidate): number {
  return b.score - a.score || b.updatedMs - a.updatedMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Options of {@link scoreCandidates}. */
export interface ScoreCandidatesOptions {
  readonly semantic?: SemanticScorer;
  /** Timeout of the semantic scoring (embedding the task and any text without a vector). */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Candidates kept per source after scoring. */
  readonly limits: ReadonlyMap<ContextSource, number>;
}

/** Scored candidates (best `limit` per source, best first), and the semantic scorer's failure if it failed. */
export interface ScoredCandidates {
  readonly candidates: readonly Candidate[];
  readonly failure?: unknown;
}

const keyOf = (candidate: Candidate): string => `${candidate.source}\u0000${candidate.id}`;

/** Score `candidates` for the task (see the module comment). */
export async function scoreCandidates(
  candidates: readonly Candidate[],
  query: RelevanceQuery,
  options: ScoreCandidatesOptions,
): Promise<ScoredCandidates> {
  const items = candidates.map((candidate) => ({
    key: keyOf(candidate),
    text: candidate.text,
    ...(candidate.scope === undefined ? {} : { scope: candidate.scope }),
  }));
  let scores: Awaited<ReturnType<typeof scoreRelevance>> | undefined;
  let failure: unknown;
  if (options.semantic !== undefined && items.length > 0) {
    const semantic = options.semantic;
    const outcome = await runWithTimeout(
      (signal) => scoreRelevance(query, items, { semantic, signal }),
      options.timeoutMs,
      options.signal,
    );
    if (outcome.ok) scores = outcome.value;
    else failure = outcome.error;
  }
  scores ??= await scoreRelevance(query, items);
  // The user's most relevant few preferences are given whatever the task; more compete by relevance.
  const favoured = new Set(
    candidates
      .filter((candidate) => candidate.source === 'preferences')
      .sort(
        (a, b) =>
          (scores.get(keyOf(b))?.score ?? 0) - (scores.get(keyOf(a))?.score ?? 0) ||
          b.updatedMs - a.updatedMs ||
          (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      )
      .slice(0, PREFERENCES_GIVEN)
      .map((candidate) => candidate.id),
  );
  const scored = candidates.map((candidate): Candidate => {
    const relevance = scores.get(keyOf(candidate));
    const score = relevance?.score ?? 0;
    if (candidate.source === 'rules') {
      return { ...candidate, score: 0.5 * candidate.score + 0.5 * Math.min(1, score), relevant: true };
    }
    if (candidate.source === 'preferences' && favoured.has(candidate.id)) {
      return { ...candidate, score: Math.max(score, PREFERENCE_PRIOR), relevant: true };
    }
    return { ...candidate, score, relevant: relevance?.relevant ?? false };
  });
  const kept: Candidate[] = [];
  const bySource = new Map<ContextSource, Candidate[]>();
  for (const candidate of scored) {
    const list = bySource.get(candidate.source) ?? [];
    list.push(candidate);
    bySource.set(candidate.source, list);
  }
  for (const [source, list] of bySource) {
    list.sort(compareCandidates);
    kept.push(...list.slice(0, options.limits.get(source) ?? list.length));
  }
  kept.sort(compareCandidates);
  return failure === undefined ? { candidates: kept } : { candidates: kept, failure };
}
