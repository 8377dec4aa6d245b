// Why: a review repeats what an earlier review said, or reverses it ("use Jest" then "use
// Vitest"). Without a model in the loop, core decides with a small, documented lexical
// comparison: rules are reduced to their topic words and polarity, then compared. Callers with
// embeddings can replace the comparison (`RuleComparer`).

/** Words that say a rule forbids something. */
const NEGATIONS = new Set([
  'never',
  'not',
  'no',
  'dont',
  'don',
  'doesnt',
  'avoid',
  'without',
  'stop',
  'forbid',
  'forbidden',
  'disallow',
  'prohibit',
  'shouldnt',
  'mustnt',
  'cannot',
  'cant',
  'nor',
]);

/** Words that carry no topic (articles, modal verbs, generic rule phrasing). */
const FILLER = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'of',
  'for',
  'to',
  'in',
  'on',
  'at',
  'by',
  'with',
  'from',
  'into',
  'as',
  'is',
  'are',
  'be',
  'been',
  'it',
  'its',
  'this',
  'that',
  'these',
  'those',
  'we',
  'our',
  'us',
  'you',
  'your',
  'all',
  'any',
  'every',
  'each',
  'always',
  'use',
  'using',
  'used',
  'uses',
  'prefer',
  'preferred',
  'should',
  'must',
  'shall',
  'please',
  'make',
  'sure',
  'keep',
  'do',
  'does',
  'instead',
  'over',
  'rather',
  'than',
  'when',
  'only',
  'new',
  'code',
  'codebase',
  'repo',
  'repository',
  'project',
  'here',
  'there',
  'which',
  'so',
  'if',
  'via',
  'now',
  'migrated',
  'migrate',
  's',
  't',
]);

/** Lower-case, compatibility-normalised rule text with punctuation folded to single spaces. */
export function normalizedRuleText(rule: string): string {
  return rule
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['\u2019]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Crude singular form: `tests` -> `test`, `classes` -> `class`, `policies` -> `policy`. */
function singular(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses') || word.endsWith('xes') || word.endsWith('ches')) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The comparable form of a rule: its topic words and whether it forbids. */
export interface RuleShape {
  /** Topic words (no filler, no negation, singular). */
  readonly topic: ReadonlySet<string>;
  /** True when the rule forbids (never, don't, avoid...). */
  readonly negative: boolean;
}

/** The {@link RuleShape} of a rule text. */
export function ruleShape(rule: string): RuleShape {
  const words = normalizedRuleText(rule)
    .split(' ')
    .filter((word) => word !== '');
  let negative = false;
  const topic = new Set<string>();
  for (const word of words) {
    if (NEGATIONS.has(word)) {
      negative = true;
      continue;
    }
    if (FILLER.has(word)) continue;
    topic.add(singular(word));
  }
  return { topic, negative };
}

/** Jaccard similarity of two rules' topic words (0-1; 1 when both have none). */
export function topicSimilarity(a: RuleShape, b: RuleShape): number {
  if (a.topic.size === 0 && b.topic.size === 0) return 1;
  let shared = 0;
  for (const word of a.topic) if (b.topic.has(word)) shared += 1;
  return shared / (a.topic.size + b.topic.size - shared);
}

/** How a new rule relates to a stored one in the same scope. */
export type RuleRelation = 'duplicate' | 'contradiction' | 'unrelated';

/**
 * Compares a new rule with a stored one of the same scope. Replace it to use embeddings or a
 * model; it must never throw.
 */
export type RuleComparer = (incoming: string, stored: string) => RuleRelation;

/** Topic similarity at or above which two rules of the same polarity are the same rule. */
export const DUPLICATE_SIMILARITY = 0.8;
/** Topic similarity at or above which two rules of opposite polarity contradict. */
export const OPPOSITE_POLARITY_SIMILARITY = 0.6;

/**
 * The default {@link RuleComparer}, lexical:
 * - same polarity and topic similarity >= {@link DUPLICATE_SIMILARITY}: `duplicate`;
 * - opposite polarity ("use X" / "never use X") and similarity >= {@link OPPOSITE_POLARITY_SIMILARITY}: `contradiction`;
 * - same polarity, the topics share at least as many words as either has alone, and each has
 *   one or two words of its own (a swapped choice: "use Jest for unit tests" / "use Vitest for
 *   unit tests", "indent with tabs" / "indent with spaces"): `contradiction`;
 * - otherwise `unrelated`.
 */
export function compareRules(incoming: string, stored: string): RuleRelation {
  const a = ruleShape(incoming);
  const b = ruleShape(stored);
  const similarity = topicSimilarity(a, b);
  if (a.negative === b.negative && similarity >= DUPLICATE_SIMILARITY) return 'duplicate';
  if (a.negative !== b.negative) return similarity >= OPPOSITE_POLARITY_SIMILARITY ? 'contradiction' : 'unrelated';
  let shared = 0;
  for (const word of a.topic) if (b.topic.has(word)) shared += 1;
  const onlyA = a.topic.size - shared;
  const onlyB = b.topic.size - shared;
  const swapped = shared >= 1 && onlyA >= 1 && onlyB >= 1 && onlyA <= 2 && onlyB <= 2;
  return swapped && shared >= Math.max(onlyA, onlyB) ? 'contradiction' : 'unrelated';
}
