// Why: the whole Tier 2 step in one call, usable from a webhook handler, an Action or the CLI:
// build the versioned prompt for a review, ask the caller's model (injected, so nothing here
// needs a model to be tested), parse, screen and classify the answer, and store what passed (active
// rules, and pending ones for a maintainer to approve). Reviews from
// people without write access never reach the model unless the caller allows them.
import type { TaskRecordBackend } from '../record-backend.js';
import { buildRuleExtractionPrompt } from './extraction-prompt.js';
import { type ParsedRuleOutput, type ParseRuleOutputOptions, parseRuleOutput } from './parse-rule-output.js';
import type { ReviewFeedback } from './review-feedback.js';
import { hasWriteAccess } from './reviewer-authority.js';
import { type RuleBookOptions, type SaveRulesResult, saveRules } from './rule-book.js';

/**
 * The caller's language-model call: takes the extraction prompt, returns the model's text.
 * `signal` aborts it when the caller gives up.
 */
export type RuleExtractionModel = (prompt: string, options: { readonly signal?: AbortSignal }) => Promise<string>;

/** Input of {@link extractReviewRules}. */
export interface ExtractReviewRulesInput extends ParseRuleOutputOptions, RuleBookOptions {
  /** The review (see `feedbackFromWebhook`, `feedbackFromApiReview`). */
  readonly feedback: ReviewFeedback;
  /** The model call. */
  readonly model: RuleExtractionModel;
  /** Where accepted rules are stored; omitted = parse only (a dry run). */
  readonly backend?: TaskRecordBackend;
  /** Aborts the model call. */
  readonly signal?: AbortSignal;
}

/** Outcome of {@link extractReviewRules}. */
export type ExtractReviewRulesResult =
  | {
      readonly kind: 'skipped';
      /** `reviewer_without_write_access` or `no_text`. */
      readonly reason: 'reviewer_without_write_access' | 'no_text';
      readonly message: string;
    }
  | {
      readonly kind: 'extracted';
      /** Version of the prompt used (recorded on each rule). */
      readonly promptVersion: string;
      /** The parsed, screened answer. */
      readonly parsed: ParsedRuleOutput;
      /** What storing did (absent without a backend or without a rule to store). */
      readonly saved?: SaveRulesResult;
    };

/** Extract, screen and (with a backend) store the rules of one review. */
export async function extractReviewRules(input: ExtractReviewRulesInput): Promise<ExtractReviewRulesResult> {
  const { feedback } = input;
  if (!hasWriteAccess(feedback.association) && input.allowReviewersWithoutWriteAccess !== true) {
    return {
      kind: 'skipped',
      reason: 'reviewer_without_write_access',
      message: `@${feedback.reviewer} is ${feedback.association}, without write access: the review was not sent to the model`,
    };
  }
  if (feedback.comments.length === 0) return { kind: 'skipped', reason: 'no_text', message: 'the review has no text' };
  const now = (input.now ?? (() => new Date()))();
  const prompt = buildRuleExtractionPrompt(feedback, now);
  const output = await input.model(prompt.text, input.signal === undefined ? {} : { signal: input.signal });
  const parsed = parseRuleOutput(
    output,
    {
      repo: feedback.repo,
      pr: feedback.pr,
      ...(feedback.prUrl === undefined ? {} : { pr_url: feedback.prUrl }),
      reviewer: feedback.reviewer,
      association: feedback.association,
      ...(feedback.reviewId === undefined ? {} : { review_id: feedback.reviewId }),
      ...(feedback.commentId === undefined ? {} : { comment_id: feedback.commentId }),
      ...(feedback.reviewedAt === undefined ? {} : { reviewed_at: feedback.reviewedAt }),
      extracted_at: now.toISOString(),
      prompt_version: prompt.promptVersion,
    },
    input,
  );
  const toSave = [...parsed.accepted, ...parsed.pending];
  if (input.backend === undefined || toSave.length === 0) {
    return { kind: 'extracted', promptVersion: prompt.promptVersion, parsed };
  }
  const saved = await saveRules(input.backend, feedback.repo, toSave, input);
  return { kind: 'extracted', promptVersion: prompt.promptVersion, parsed, saved };
}
