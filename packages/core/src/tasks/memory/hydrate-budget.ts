// Why: the token budget is where memories get lost, so its rule is simple and written down:
// sources are filled in priority order; inside a source candidates go best first (score, then
// newest), so the least relevant and, at equal relevance, the oldest are the ones dropped; once
// one candidate of a source does not fit, the rest of that source is dropped too (a smaller,
// less relevant entry never takes the place of a more relevant one), and the next source gets
// what is left.

import { blockTitle, sectionHeading } from './hydrate-render.js';
import type { Candidate } from './hydrate-sources.js';
import { CONTEXT_SOURCES, type ContextSource, type ReceiptItem } from './receipt.js';
import type { TokenEstimator } from './token-estimate.js';

/** Result of {@link fillBudget}. */
export interface BudgetFill {
  /** Included candidates by source, in order. */
  readonly included: ReadonlyMap<ContextSource, readonly Candidate[]>;
  /** Every candidate in the order considered, included or dropped with the reason. */
  readonly items: readonly ReceiptItem[];
}

/** Order inside a source: score descending, then newest first, then id. */
export function compareCandidates(a: Candidate, b: Candidate): number {
  return b.score - a.score || b.updatedMs - a.updatedMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Normalised text of a line, for duplicate detection across sources. */
function dedupeKey(line: string): string {
  return line
    .replace(/^- /, '')
    .replace(/\*\*/g, '')
    .replace(/\s*\([^)]*\)\s*$/, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Fill `budget` estimated tokens with `candidates` (any order in) by the rule above. A line
 * costs its estimate plus its newline; the first line of a section also pays the section
 * heading (and the first section the block title), so the rendered block fits the budget.
 * A candidate whose text repeats an included one is dropped as `duplicate`.
 */
export function fillBudget(
  repo: string,
  candidates: readonly Candidate[],
  budget: number,
  estimator: TokenEstimator,
  user?: string,
): BudgetFill {
  const cost = (text: string): number => estimator.estimate(`${text}\n\n`);
  let remaining = budget;
  let titlePaid = false;
  const titleCost = cost(blockTitle(repo));
  const included = new Map<ContextSource, Candidate[]>();
  const items: ReceiptItem[] = [];
  const seen = new Set<string>();
  for (const source of CONTEXT_SOURCES) {
    const ordered = candidates.filter((candidate) => candidate.source === source).sort(compareCandidates);
    const headingCost = cost(sectionHeading(source, user));
    let full = false;
    const kept: Candidate[] = [];
    for (const candidate of ordered) {
      const tokens = estimator.estimate(`${candidate.line}\n`);
      const base = { source, id: candidate.id, revision: candidate.revision, score: candidate.score, tokens };
      const key = dedupeKey(candidate.line);
      if (seen.has(key)) {
        items.push({ ...base, included: false, reason: 'duplicate' });
        continue;
      }
      const needed = tokens + (kept.length === 0 ? headingCost : 0) + (titlePaid ? 0 : titleCost);
      if (full || needed > remaining) {
        full = true;
        items.push({ ...base, included: false, reason: 'budget' });
        continue;
      }
      remaining -= needed;
      titlePaid = true;
      seen.add(key);
      kept.push(candidate);
      items.push({ ...base, included: true });
    }
    included.set(source, kept);
  }
  return { included, items };
}
