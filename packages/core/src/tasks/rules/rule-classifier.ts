// Why: a pattern screen alone cannot reach zero on text written to look like a coding rule, so a
// rule that passed the screen is classified in layers before it may reach an agent: (1) is it a
// code convention (rule-convention.ts, an allow-list of shapes), (2) does it touch a sensitive
// subject (rule-subjects.ts, on the normalised text), (3) does its reviewer count as a
// maintainer. Any doubt makes it `pending`: stored, never hydrated, until a maintainer approves
// it. No single layer has to be perfect for the active set to stay clean.
import { type ConventionProblem, conventionProblems } from './rule-convention.js';
import { findSensitiveSubjects, type SensitiveSubject } from './rule-subjects.js';
import { normalizeRuleText } from './rule-text-normalize.js';

/** Why a rule waits for a maintainer instead of becoming active. */
export const PENDING_REASONS = [
  'sensitive_subject',
  'not_a_code_convention',
  'not_english',
  'reviewer_below_maintainers',
  'contradicts_active_rule',
  'screen_unsure',
  'code_example',
] as const;
/** Why a rule waits for a maintainer. */
export type PendingReasonCode = (typeof PENDING_REASONS)[number];

/** One reason a rule is pending, for the maintainer who decides. */
export interface PendingReason {
  /** Stable reason code. */
  readonly reason: PendingReasonCode;
  /** What was found, for humans. */
  readonly message: string;
  /** The sensitive subjects found (reason `sensitive_subject`). */
  readonly subjects?: readonly SensitiveSubject[];
}

/** Outcome of {@link classifyRuleText}. */
export type RuleClassification =
  | { readonly kind: 'active' }
  | { readonly kind: 'pending'; readonly reasons: readonly PendingReason[] };

type ShapeProblem = Exclude<ConventionProblem, 'not_english' | 'code_example'>;

const SHAPE_MESSAGES: Readonly<Record<ShapeProblem, string>> = Object.freeze({
  not_imperative: 'does not read as a code convention (no convention verb such as use, prefer, avoid, name)',
  no_code_subject: 'names no part of the code (types, functions, tests, modules, docs...)',
});

/**
 * Classify a screened rule text (see `screenRuleText`): `active` only when it reads as an English
 * code convention and touches no sensitive subject; otherwise `pending` with every reason.
 */
export function classifyRuleText(text: string): RuleClassification {
  const normalized = normalizeRuleText(text);
  const reasons: PendingReason[] = [];
  const subjects = findSensitiveSubjects(normalized, text);
  if (subjects.length > 0) {
    reasons.push({
      reason: 'sensitive_subject',
      message: `touches ${subjects.map((match) => `${match.subject.replace(/_/g, ' ')} ("${match.matched}")`).join(', ')}`,
      subjects: subjects.map((match) => match.subject),
    });
  }
  const problems = conventionProblems(text, normalized);
  if (problems.includes('not_english')) {
    reasons.push({ reason: 'not_english', message: 'not written in English: the classifier cannot read it' });
  }
  if (problems.includes('code_example')) {
    reasons.push({
      reason: 'code_example',
      message: 'holds a code example (a call, function, assignment or command): word lists cannot read code',
    });
  }
  const shape = problems.filter(
    (problem): problem is ShapeProblem => problem !== 'not_english' && problem !== 'code_example',
  );
  if (shape.length > 0) {
    reasons.push({
      reason: 'not_a_code_convention',
      message: shape.map((problem) => SHAPE_MESSAGES[problem]).join('; '),
    });
  }
  return reasons.length === 0 ? { kind: 'active' } : { kind: 'pending', reasons };
}
