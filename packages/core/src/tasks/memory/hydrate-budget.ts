// Why: the token budget is where memories get lost, so its rule is simple and written down.
// Every active review rule comes first (seed 004: they apply to every task). The rest of the
// budget is shared by relevance across kinds: knowledge, verified memories, episodes and the
// user's preferences go best first whatever their kind, so a learning that matches nothing can
// never take the place of a relevant episode. Items below the relevance floor are not offered at
// all. A candidate that does not fit is skipped and the next (smaller) one is tried, and the
// receipt says why each was left out: outranked (higher-scoring items took the room), budget
// (larger than the room the rules left), below the floor, or a duplicate. No shared line takes more
// than a fifteenth of the budget (cut with an ellipsis), so a small budget names more memories.

import { blockTitle, sectionHeading } from './hydrate-render.js';
import { compareCandidates } from './hydrate-score.js';
import type { Candidate } from './hydrate-sources.js';
import { CONTEXT_SOURCES, type ContextSource, type ReceiptItem } from './receipt.js';
import type { TokenEstimator } from './token-estimate.js';

/** Result of {@link fillBudget}. */
export interface BudgetFill {
  /** Included candidates by source, in order (best first). */
  readonly included: ReadonlyMap<ContextSource, readonly Candidate[]>;
  /** Every candidate in the order considered, included or dropped with the reason. */
  readonly items: readonly ReceiptItem[];
}

/**
 * Share of the budget one shared item's line may take (rules are never cut): a small budget
 * holds more memories, each briefly, rather than a few long ones. At 600 tokens a line keeps
 * about 160 characters; at the default 2,000 only episodes longer than about 530 are cut.
 */
export const MAX_ITEM_SHARE = 1 / 15;

/** Fewest estimated tokens a cut line keeps (about a subject and a sentence), whatever the budget. */
export const MIN_ITEM_TOKENS = 40;

/** `line` cut (with an ellipsis) so its estimate is at most `max` tokens; unchanged when it fits. */
function capLine(line: string, max: number, estimator: TokenEstimator): string {
  if (estimator.estimate(`${line}\n`) <= max) return line;
  let chars = Math.min(line.length, max * 4 - 2);
  let cut = line;
  while (chars > 20) {
    cut = `${line.slice(0, chars).trimEnd()}…`;
    if (estimator.estimate(`${cut}\n`) <= max) return cut;
    chars = Math.floor(chars * 0.9);
  }
  return cut;
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
 * Fill `budget` estimated tokens with `candidates` (any order in, scored by `hydrate`) by the
 * rule above. A line costs its estimate plus its newline; the first line of a section also pays
 * the section heading (and the first line of the block the block title), so the rendered block
 * fits the budget. A candidate with `relevant: false` is dropped as `below-floor`.
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
  const included = new Map<ContextSource, Candidate[]>(CONTEXT_SOURCES.map((source) => [source, []]));
  const items: ReceiptItem[] = [];
  const seen = new Set<string>();
  const rules = candidates.filter((candidate) => candidate.source === 'rules').sort(compareCandidates);
  const shared = candidates.filter((candidate) => candidate.source !== 'rules').sort(compareCandidates);
  let sharedRoom = 0;
  let titlePaidByRules = false;
  const maxItemTokens = Math.max(MIN_ITEM_TOKENS, Math.floor(budget * MAX_ITEM_SHARE));
  const place = (offered: Candidate, phase: 'rules' | 'shared'): void => {
    const line = phase === 'shared' ? capLine(offered.line, maxItemTokens, estimator) : offered.line;
    const candidate = line === offered.line ? offered : { ...offered, line };
    const tokens = estimator.estimate(`${candidate.line}\n`);
    const base = {
      source: candidate.source,
      id: candidate.id,
      revision: candidate.revision,
      score: candidate.score,
      tokens,
    };
    if (candidate.relevant === false) {
      items.push({ ...base, included: false, reason: 'below-floor' });
      return;
    }
    const key = dedupeKey(candidate.line);
    if (seen.has(key)) {
      items.push({ ...base, included: false, reason: 'duplicate' });
      return;
    }
    const kept = included.get(candidate.source) ?? [];
    const sectionCost = kept.length === 0 ? cost(sectionHeading(candidate.source, user)) : 0;
    const needed = tokens + sectionCost + (titlePaid ? 0 : titleCost);
    if (needed > remaining) {
      // Outranked: it would have fitted in the room the rules left, had higher-scoring items not taken it.
      const alone = tokens + cost(sectionHeading(candidate.source, user)) + (titlePaidByRules ? 0 : titleCost);
      const reason = phase === 'shared' && alone <= sharedRoom ? 'outranked' : 'budget';
      items.push({ ...base, included: false, reason });
      return;
    }
    remaining -= needed;
    titlePaid = true;
    seen.add(key);
    kept.push(candidate);
    included.set(candidate.source, kept);
    items.push({ ...base, included: true });
  };
  for (const rule of rules) place(rule, 'rules');
  sharedRoom = remaining;
  titlePaidByRules = titlePaid;
  for (const candidate of shared) place(candidate, 'shared');
  return { included, items };
}
