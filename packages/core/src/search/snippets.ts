// Why: the lines shown to the agent. Each searchable line of a ranked document is scored by the
// IDF of the terms it holds, scaled by the share of terms held (plus the phrase bonus); the best ones are cut to 220 characters
// around the first match, and JSON lines read `field: value` instead of escaped JSON.
import { type DocumentText, documentLines } from './document-text.js';
import {
  coordinationMatches,
  countShownMatches,
  findSubstringMatch,
  lineContainsPhrase,
  type QueryPlan,
  shownIdfs,
  shownTermCount,
  termNeedle,
  wordMatchWeight,
} from './query-plan.js';
import { coordinate, phraseBonus, RANKING, roundScore } from './scoring.js';
import type { SearchSnippet } from './types.js';

/** Longest snippet text, in UTF-16 code units. */
export const SNIPPET_MAX_CHARS = 220;

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const ELLIPSIS = '…';
const MIN_VALUE_BUDGET = 40;

interface LineMatch {
  readonly index: number;
  readonly score: number;
  readonly matchCount: number;
  readonly firstMatch: number;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Cut `text` to at most `budget` characters, centred on `matchAt`, marking cuts with an ellipsis. */
function windowAround(text: string, matchAt: number, budget: number): string {
  if (text.length <= budget) return text;
  const inner = budget - 2;
  let start = Math.max(0, Math.min(matchAt, text.length) - Math.floor(inner / 2));
  let end = Math.min(text.length, start + inner);
  start = Math.max(0, end - inner);
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start++;
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end--;
  return (start > 0 ? ELLIPSIS : '') + text.slice(start, end) + (end < text.length ? ELLIPSIS : '');
}

/** Snippet text of a line: `field: value` for JSON, the line otherwise, at most 220 characters. */
export function snippetText(line: string, field: string | undefined, matchAt: number): string {
  if (field === undefined) return windowAround(line, matchAt, SNIPPET_MAX_CHARS);
  const prefix = `${field}: `;
  const budget = SNIPPET_MAX_CHARS - prefix.length;
  if (budget < MIN_VALUE_BUDGET) return windowAround(prefix + line, prefix.length + matchAt, SNIPPET_MAX_CHARS);
  return prefix + windowAround(line, matchAt, budget);
}

/** Could this line match any term? (Every kind of match implies the term text occurs in the line.) */
function mayMatch(plan: QueryPlan, lowerLine: string, line: string): boolean {
  for (const term of plan.terms) {
    if (term.kind === 'substring' ? findSubstringMatch(term, line) >= 0 : lowerLine.includes(termNeedle(term)))
      return true;
  }
  return false;
}

function scoreLine(plan: QueryPlan, idfs: readonly number[], line: string, index: number): LineMatch | undefined {
  if (!mayMatch(plan, line.toLowerCase(), line)) return undefined;
  const weights = new Array<number>(plan.terms.length).fill(0);
  let firstMatch = Number.POSITIVE_INFINITY;
  const hasWordTerms = plan.terms.some((term) => term.kind !== 'substring');
  if (hasWordTerms) {
    for (const match of line.matchAll(WORD)) {
      const word = match[0].toLowerCase();
      plan.terms.forEach((term, termIndex) => {
        const weight = wordMatchWeight(term, word, RANKING.prefixWeight);
        if (weight > 0) {
          if (weight > (weights[termIndex] ?? 0)) weights[termIndex] = weight;
          firstMatch = Math.min(firstMatch, match.index);
        }
      });
    }
  }
  plan.terms.forEach((term, termIndex) => {
    if (term.kind !== 'substring') return;
    const at = findSubstringMatch(term, line);
    if (at >= 0) {
      weights[termIndex] = 1;
      firstMatch = Math.min(firstMatch, at);
    }
  });
  let score = 0;
  weights.forEach((weight, termIndex) => {
    if (weight === 0) return;
    score += weight * (idfs[termIndex] ?? 0);
  });
  // A typed term and its inflection clause count once.
  const matchCount = countShownMatches(plan, weights);
  if (matchCount === 0) return undefined;
  // Like documents, lines are scaled by the share of terms they hold: a title holding three of
  // four terms beats a line holding only the rarest one.
  score = coordinate(score, coordinationMatches(plan, weights), shownTermCount(plan));
  if (lineContainsPhrase(plan, line)) score += phraseBonus(shownIdfs(plan, idfs));
  return { index, score, matchCount, firstMatch: Number.isFinite(firstMatch) ? firstMatch : 0 };
}

/**
 * The best `max` lines of a document for a query, best first (ties: earlier line first).
 * `idfs` holds each term's IDF in plan order.
 */
export function buildSnippets(
  text: DocumentText,
  plan: QueryPlan,
  idfs: readonly number[],
  max: number,
): SearchSnippet[] {
  if (max <= 0) return [];
  const lines = documentLines(text);
  const matches: LineMatch[] = [];
  lines.forEach((line, index) => {
    const match = scoreLine(plan, idfs, line, index);
    if (match !== undefined) matches.push(match);
  });
  matches.sort((a, b) => b.score - a.score || a.index - b.index);
  return matches.slice(0, max).map((match) => {
    const field = text.fields?.[match.index];
    const snippet: SearchSnippet = {
      lineNumber: text.lineNumbers[match.index] ?? 0,
      text: snippetText(lines[match.index] ?? '', field, match.firstMatch),
      score: roundScore(match.score),
      matchCount: match.matchCount,
    };
    return field === undefined ? snippet : { ...snippet, field };
  });
}
