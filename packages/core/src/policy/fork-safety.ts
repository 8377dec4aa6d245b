// Why: PR-closed memory curation runs on `pull_request_target`, in the base repository with a
// write-scoped token. Content of a fork PR that was closed without merge is attacker-controlled
// and must never reach the model with that token; when the event data cannot be read, refuse.
import { z } from 'zod';
import { RepoSlugSchema } from '../envelope/fields.js';
import {
  describeValue,
  expected,
  formatIssues,
  objectExpected,
  toRootedIssues,
} from '../envelope/validation-issues.js';

const RepoSchema = z.object({ full_name: RepoSlugSchema }, { error: objectExpected });

/** The part of a GitHub `pull_request` webhook payload the predicate reads (extra fields are ignored). */
export const ClosedPullRequestSchema = z.object(
  {
    merged: z.boolean(expected('a boolean')),
    head: z.object({ repo: RepoSchema.nullable() }, { error: objectExpected }),
    base: z.object({ repo: RepoSchema }, { error: objectExpected }),
  },
  { error: objectExpected },
);

/** A validated closed pull request (subset of the webhook payload). */
export type ClosedPullRequest = z.output<typeof ClosedPullRequestSchema>;

/** Why curation is or is not allowed. */
export type PrClosedCurationReason =
  | 'manual_dispatch'
  | 'same_repo'
  | 'merged_fork'
  | 'unmerged_fork'
  | 'unsupported_event'
  | 'invalid_pull_request';

/** Result of {@link isPrClosedCurationAllowed}. */
export interface PrClosedCurationDecision {
  /** Whether memory curation may run. */
  readonly allowed: boolean;
  /** Machine-readable reason. */
  readonly reason: PrClosedCurationReason;
  /** Human-readable explanation. */
  readonly message: string;
}

/** Input of {@link isPrClosedCurationAllowed}. */
export interface PrClosedCurationInput {
  /** `github.event_name`: `pull_request_target`, `pull_request` or `workflow_dispatch`. */
  readonly event: string;
  /** `github.event.pull_request` (needs `merged`, `head.repo.full_name` or `head.repo: null`, `base.repo.full_name`). */
  readonly pr?: unknown;
}

/**
 * Fork-safety predicate for PR-closed memory curation. Allowed: manual `workflow_dispatch`, a PR
 * whose head repository is the base repository (compared case-insensitively), or a merged fork PR
 * (its content was reviewed and merged; a deliberate trust trade-off). Refused: a fork PR closed
 * without merge (a deleted fork, `head.repo: null`, counts as a fork), any other event, and
 * missing or malformed PR data (fail closed).
 */
export function isPrClosedCurationAllowed(input: PrClosedCurationInput): PrClosedCurationDecision {
  if (input.event === 'workflow_dispatch') {
    return { allowed: true, reason: 'manual_dispatch', message: 'manual workflow_dispatch run' };
  }
  if (input.event !== 'pull_request_target' && input.event !== 'pull_request') {
    return {
      allowed: false,
      reason: 'unsupported_event',
      message: `event ${describeValue(input.event)} is not pull_request_target, pull_request or workflow_dispatch`,
    };
  }
  const parsed = ClosedPullRequestSchema.safeParse(input.pr, { reportInput: true });
  if (!parsed.success) {
    return {
      allowed: false,
      reason: 'invalid_pull_request',
      message: `cannot verify the pull request (refused): ${formatIssues(toRootedIssues(parsed.error.issues, 'pull_request'))}`,
    };
  }
  const pr = parsed.data;
  const base = pr.base.repo.full_name;
  const head = pr.head.repo?.full_name;
  if (head !== undefined && head.toLowerCase() === base.toLowerCase()) {
    return { allowed: true, reason: 'same_repo', message: `pull request from ${base} itself` };
  }
  const from = head === undefined ? 'a deleted fork' : `fork ${head}`;
  if (pr.merged) return { allowed: true, reason: 'merged_fork', message: `merged pull request from ${from}` };
  return {
    allowed: false,
    reason: 'unmerged_fork',
    message: `pull request from ${from} closed without merge: skipped (fork safety)`,
  };
}
