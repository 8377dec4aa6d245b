// Why: people correct rules too (`repomem rules supersede`). A rule typed by a person goes
// through the same injection screen as an extracted one (the CLI may run in an automation fed
// by outside text) and carries provenance that says it was written by hand.
import { RepomemError } from '../../errors.js';
import { screenRuleText } from './injection-screen.js';
import type { CandidateRule } from './parse-rule-output.js';
import { AUTHORITY_WEIGHTS, type AuthorAssociation, authorityOf, hasWriteAccess } from './reviewer-authority.js';
import { RuleProvenanceSchema } from './rule-record.js';

/** Prompt version recorded on rules written by a person. */
export const MANUAL_RULE_PROMPT_VERSION = 'manual';

/** Input of {@link manualRuleCandidate}. */
export interface ManualRuleInput {
  /** The rule text. */
  readonly rule: string;
  /** Its scope (path, module, file pattern), if any. */
  readonly scope?: string;
  /** Login of the person writing it. */
  readonly author: string;
  /** Their association with the repository (default `OWNER`: the person running the command). */
  readonly association?: AuthorAssociation;
  /** Clock (default: now). */
  readonly now?: Date;
}

/**
 * A candidate rule written by a person. Throws `INVALID_ARGUMENT` naming every reason when the
 * text fails the injection screen or the author has no write access.
 */
export function manualRuleCandidate(input: ManualRuleInput): CandidateRule {
  const association = input.association ?? 'OWNER';
  const screened = screenRuleText(input.rule);
  const scope = input.scope?.trim();
  const scopeScreen = scope === undefined || scope === '' ? undefined : screenRuleText(`scope ${scope}`);
  const problems = [
    ...(screened.ok ? [] : screened.rejections),
    ...(scopeScreen === undefined || scopeScreen.ok ? [] : scopeScreen.rejections),
    ...(hasWriteAccess(association)
      ? []
      : [{ reason: 'reviewer_without_write_access', message: `${association} has no write access` }]),
  ];
  if (!screened.ok || problems.length > 0) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `the rule was refused: ${problems.map((p) => `${p.reason} (${p.message})`).join('; ')}`,
      {
        details: { reasons: problems.map((problem) => problem.reason) },
      },
    );
  }
  const authority = authorityOf(association);
  const provenance = RuleProvenanceSchema.parse({
    reviewer: input.author.replace(/^@/, ''),
    association,
    extracted_at: (input.now ?? new Date()).toISOString(),
    prompt_version: MANUAL_RULE_PROMPT_VERSION,
  });
  return {
    line: 1,
    rule: screened.text,
    ...(scope === undefined || scope === '' ? {} : { scope }),
    authority,
    weight: AUTHORITY_WEIGHTS[authority],
    provenance,
  };
}
