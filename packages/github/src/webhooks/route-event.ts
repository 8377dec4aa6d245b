// Why: once a delivery is authentic (or, in an Action, the runner handed us the event), the
// routing is the same: review events become rule extraction, `pull_request` closed events
// become the outcome signal on the task's episode and move what was learned on the branch
// (promoted on merge, quarantined when closed unmerged; issue 26), anything else is
// acknowledged and ignored.
// Hosts that receive events without signatures (GitHub Actions) call this directly.
import {
  type AuthorAssociation,
  type CitationReader,
  type ExtractReviewRulesResult,
  extractReviewRules,
  feedbackFromReviewEvent,
  feedbackFromWebhook,
  hasWriteAccess,
  isRepomemError,
  type PromotionReport,
  PullRequestReviewCommentEventSchema,
  PullRequestReviewEventSchema,
  promoteBranchMemories,
  type QuarantineReport,
  quarantineBranchMemories,
  type ReviewFeedback,
  type RuleBookOptions,
  type RuleExtractionModel,
  recordEpisodeOutcome,
  type TaskRecordBackend,
  type VerifiedMemoryBackend,
} from '@repomem/core';
import { z } from 'zod';
import { fetchReviewFeedback, type ReviewApiOptions } from './review-comments.js';

/** What routing needs besides the event. */
export interface RouteEventOptions extends RuleBookOptions {
  /** Where rules and episodes live. */
  readonly backend: TaskRecordBackend;
  /**
   * Verified memories: promoted or quarantined with the branch's learnings, episodes and rules
   * when its pull request closes. Without it only task records move.
   */
  readonly verified?: VerifiedMemoryBackend;
  /** Reads code at the merge commit to re-verify promoted memories (without it they are promoted unverified). */
  readonly citations?: CitationReader;
  /**
   * The language-model call of rule extraction. Without it, review events are acknowledged
   * and skipped (`no_model`).
   */
  readonly model?: RuleExtractionModel;
  /** Accept rules from reviewers without write access (at their lower weight, pending). Default `false`. */
  readonly allowReviewersWithoutWriteAccess?: boolean;
  /**
   * Associations counted as the repository's maintainers (default OWNER, MEMBER, COLLABORATOR):
   * a rule from anyone else is stored pending, for a maintainer to approve.
   */
  readonly maintainers?: readonly AuthorAssociation[];
  /** Repositories handled (`owner/name`, case-insensitive); others are ignored. Default: all. */
  readonly repositories?: readonly string[];
  /** Aborts the model call. */
  readonly signal?: AbortSignal;
  /**
   * Read each submitted review back through the REST API, inline comments included (a
   * `pull_request_review` payload holds only the summary), and ignore the
   * `pull_request_review_comment` events of comments created with a review (its review event
   * covers them). Without it, each payload is used as it is.
   */
  readonly reviewApi?: ReviewApiOptions;
}

/** Outcome of routing one event. `status` is the HTTP status a webhook host should answer. */
export type RouteEventResult =
  | { readonly kind: 'pong'; readonly status: 200 }
  | { readonly kind: 'ignored'; readonly status: 202; readonly event: string; readonly reason: string }
  | { readonly kind: 'invalid_payload'; readonly status: 400; readonly event: string; readonly message: string }
  | {
      readonly kind: 'rules';
      readonly status: 200 | 202;
      readonly repo: string;
      readonly pr: number;
      /** Rule extraction's result (`skipped` when no model is configured or the reviewer lacks write access). */
      readonly result:
        | ExtractReviewRulesResult
        | { readonly kind: 'skipped'; readonly reason: 'no_model'; readonly message: string };
    }
  | {
      readonly kind: 'outcome';
      readonly status: 200 | 202;
      readonly repo: string;
      readonly pr: number;
      /** `positive` for a merged pull request, `negative` for one closed without merge. */
      readonly outcome: 'positive' | 'negative';
      /** Task ids of the episodes marked; empty when no episode names this pull request. */
      readonly episodes: readonly string[];
      /** Task ids whose stored outcome comes from a newer state of the pull request (left as they are). */
      readonly stale: readonly string[];
      /** What happened to the records learned on the pull request's branch (issue 26). */
      readonly branch: BranchMemoryOutcome;
    };

/** What a closed pull request did to the memories learned on its branch. */
export type BranchMemoryOutcome =
  /** Merged: promoted into the branch it merged into, re-verified at the merge commit. */
  | { readonly kind: 'promoted'; readonly report: PromotionReport }
  /** Closed unmerged: quarantined (kept, never served, listed for review). */
  | { readonly kind: 'quarantined'; readonly report: QuarantineReport }
  /** Nothing moved, and why (a fork's branch, no merge commit, a branch name repomem refuses). */
  | { readonly kind: 'skipped'; readonly reason: string };

const PullRequestClosedSchema = z.object({
  action: z.string(),
  pull_request: z.object({
    number: z.number().int().min(1),
    html_url: z.string().optional(),
    merged: z.boolean().nullable().optional(),
    closed_at: z.string().nullable().optional(),
    merged_at: z.string().nullable().optional(),
    updated_at: z.string().nullable().optional(),
    merge_commit_sha: z.string().nullable().optional(),
    head: z.object({ ref: z.string(), repo: z.object({ full_name: z.string() }).nullable().optional() }).optional(),
    base: z.object({ ref: z.string() }).optional(),
  }),
  repository: z.object({ full_name: z.string(), default_branch: z.string().optional() }),
});

/**
 * The time of the pull request state an event reports: the latest of its own `closed_at`,
 * `merged_at` and `updated_at` (undefined when it carries none: then the arrival time).
 */
function stateTime(pr: z.infer<typeof PullRequestClosedSchema>['pull_request']): string | undefined {
  const times = [pr.closed_at, pr.merged_at, pr.updated_at]
    .map((value) => (typeof value === 'string' ? Date.parse(value) : Number.NaN))
    .filter((ms) => !Number.isNaN(ms));
  return times.length === 0 ? undefined : new Date(Math.max(...times)).toISOString();
}

const RepositoryOfSchema = z.object({ repository: z.object({ full_name: z.string() }) });

function handles(options: RouteEventOptions, payload: unknown): string | undefined {
  if (options.repositories === undefined) return undefined;
  const parsed = RepositoryOfSchema.safeParse(payload);
  const repo = parsed.success ? parsed.data.repository.full_name.toLowerCase() : undefined;
  if (repo !== undefined && options.repositories.some((name) => name.toLowerCase() === repo)) return undefined;
  return `repository ${repo ?? '(none)'} is not handled here`;
}

type FeedbackRead =
  | { readonly kind: 'feedback'; readonly feedback: ReviewFeedback }
  | { readonly kind: 'ignored'; readonly reason: string }
  | { readonly kind: 'invalid'; readonly message: string };

/** The review's feedback: from the payload, or (with `reviewApi`) read back through the REST API. */
async function readFeedback(
  event: 'pull_request_review' | 'pull_request_review_comment',
  payload: unknown,
  options: RouteEventOptions,
): Promise<FeedbackRead> {
  if (options.reviewApi === undefined) return feedbackFromWebhook(event, payload);
  if (event === 'pull_request_review_comment') {
    const comment = PullRequestReviewCommentEventSchema.safeParse(payload);
    const reviewId = comment.success ? comment.data.comment.pull_request_review_id : undefined;
    if (comment.success && comment.data.action === 'created' && reviewId !== null && reviewId !== undefined) {
      return { kind: 'ignored', reason: `comment created with review ${reviewId}, read with that review` };
    }
    return feedbackFromWebhook(event, payload);
  }
  const parsed = PullRequestReviewEventSchema.safeParse(payload);
  if (!parsed.success) return { kind: 'invalid', message: z.prettifyError(parsed.error) };
  if (parsed.data.action !== 'submitted' && parsed.data.action !== 'edited') {
    return { kind: 'ignored', reason: `review action ${parsed.data.action}` };
  }
  const summary = feedbackFromReviewEvent(parsed.data);
  // Nothing is fetched for a reviewer whose words will not be used.
  if (!hasWriteAccess(summary.association) && options.allowReviewersWithoutWriteAccess !== true) {
    return { kind: 'feedback', feedback: summary };
  }
  const full = await fetchReviewFeedback(
    {
      repo: summary.repo,
      pr: summary.pr,
      ...(summary.prUrl === undefined ? {} : { prUrl: summary.prUrl }),
      reviewId: parsed.data.review.id,
    },
    options.reviewApi,
  );
  return full.comments.length === 0
    ? { kind: 'ignored', reason: 'the review has no text' }
    : { kind: 'feedback', feedback: full };
}

async function routeReview(
  event: 'pull_request_review' | 'pull_request_review_comment',
  payload: unknown,
  options: RouteEventOptions,
): Promise<RouteEventResult> {
  const read = await readFeedback(event, payload, options);
  if (read.kind === 'invalid') return { kind: 'invalid_payload', status: 400, event, message: read.message };
  if (read.kind === 'ignored') return { kind: 'ignored', status: 202, event, reason: read.reason };
  const { feedback } = read;
  if (options.model === undefined) {
    return {
      kind: 'rules',
      status: 202,
      repo: feedback.repo,
      pr: feedback.pr,
      result: { kind: 'skipped', reason: 'no_model', message: 'no language model is configured for rule extraction' },
    };
  }
  const result = await extractReviewRules({
    feedback,
    model: options.model,
    backend: options.backend,
    ...(options.allowReviewersWithoutWriteAccess === undefined
      ? {}
      : { allowReviewersWithoutWriteAccess: options.allowReviewersWithoutWriteAccess }),
    ...(options.maintainers === undefined ? {} : { maintainers: options.maintainers }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.compare === undefined ? {} : { compare: options.compare }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return {
    kind: 'rules',
    status: result.kind === 'extracted' ? 200 : 202,
    repo: feedback.repo,
    pr: feedback.pr,
    result,
  };
}

async function routePullRequest(payload: unknown, options: RouteEventOptions): Promise<RouteEventResult> {
  const parsed = PullRequestClosedSchema.safeParse(payload);
  if (!parsed.success) {
    return { kind: 'invalid_payload', status: 400, event: 'pull_request', message: z.prettifyError(parsed.error) };
  }
  const { action, pull_request: pr, repository } = parsed.data;
  if (action !== 'closed') return { kind: 'ignored', status: 202, event: 'pull_request', reason: `action ${action}` };
  const merged = pr.merged === true;
  const eventAt = stateTime(pr);
  const base = {
    backend: options.backend,
    repo: repository.full_name,
    merged,
    ...(eventAt === undefined ? {} : { eventAt }),
    ...(options.now === undefined ? {} : { now: options.now }),
  };
  let result =
    pr.html_url === undefined
      ? { kind: 'not_found' as const }
      : await recordEpisodeOutcome({ ...base, target: { prUrl: pr.html_url } });
  if (result.kind === 'not_found') result = await recordEpisodeOutcome({ ...base, target: { prNumber: pr.number } });
  const branch = await moveBranchMemories(parsed.data, merged, options);
  const stale = result.kind === 'recorded' ? result.stale : [];
  const episodes =
    result.kind === 'recorded' ? result.episodes.map((episode) => episode.id).filter((id) => !stale.includes(id)) : [];
  return {
    kind: 'outcome',
    status: episodes.length > 0 || stale.length > 0 || movedRecords(branch) > 0 ? 200 : 202,
    repo: repository.full_name,
    pr: pr.number,
    outcome: merged ? 'positive' : 'negative',
    episodes,
    stale,
    branch,
  };
}

/** How many records a branch outcome changed. */
function movedRecords(branch: BranchMemoryOutcome): number {
  if (branch.kind === 'promoted') return branch.report.promoted.length;
  if (branch.kind === 'quarantined') return branch.report.quarantined.length;
  return 0;
}

/**
 * Promote (merged) or quarantine (closed unmerged) what was learned on the pull request's head
 * branch. A fork's branch is skipped: its name belongs to another repository, so records learned
 * here under that name are not its. Promotion goes into the branch the pull request merged into
 * (`base.ref`; the default branch for most pull requests, the parent branch of a stacked one).
 */
async function moveBranchMemories(
  event: z.infer<typeof PullRequestClosedSchema>,
  merged: boolean,
  options: RouteEventOptions,
): Promise<BranchMemoryOutcome> {
  const { pull_request: pr, repository } = event;
  if (pr.head === undefined) return { kind: 'skipped', reason: 'the event names no head branch' };
  const headRepo = pr.head.repo?.full_name;
  if (headRepo !== undefined && headRepo.toLowerCase() !== repository.full_name.toLowerCase()) {
    return { kind: 'skipped', reason: `the head branch is in the fork ${headRepo}` };
  }
  const targets = {
    repo: repository.full_name,
    tasks: options.backend,
    ...(options.verified === undefined ? {} : { verified: options.verified }),
  };
  try {
    if (!merged) {
      const report = await quarantineBranchMemories({
        ...targets,
        ref: pr.head.ref,
        pullRequest: pr.number,
        ...(options.now === undefined ? {} : { now: options.now }),
      });
      return { kind: 'quarantined', report };
    }
    const into = pr.base?.ref ?? repository.default_branch;
    if (typeof pr.merge_commit_sha !== 'string') return { kind: 'skipped', reason: 'the event names no merge commit' };
    if (into === undefined) return { kind: 'skipped', reason: 'the event names no base branch' };
    const report = await promoteBranchMemories({
      ...targets,
      ref: pr.head.ref,
      mergeCommit: pr.merge_commit_sha,
      defaultBranch: into,
      pullRequest: pr.number,
      ...(options.citations === undefined ? {} : { citations: options.citations }),
      ...(options.now === undefined ? {} : { now: options.now }),
    });
    return { kind: 'promoted', report };
  } catch (error) {
    if (isRepomemError(error) && error.code === 'INVALID_ARGUMENT') return { kind: 'skipped', reason: error.message };
    throw error;
  }
}

/**
 * Route one GitHub event (already authenticated) by its name (`X-GitHub-Event`):
 * `pull_request_review` and `pull_request_review_comment` -> rule extraction,
 * `pull_request` closed -> episode outcome, `ping` -> `pong`, anything else -> `ignored`.
 */
export async function routeGitHubEvent(
  event: string,
  payload: unknown,
  options: RouteEventOptions,
): Promise<RouteEventResult> {
  if (event === 'ping') return { kind: 'pong', status: 200 };
  const known = event === 'pull_request_review' || event === 'pull_request_review_comment' || event === 'pull_request';
  if (!known) return { kind: 'ignored', status: 202, event, reason: `event ${event} is not handled` };
  const elsewhere = handles(options, payload);
  if (elsewhere !== undefined) return { kind: 'ignored', status: 202, event, reason: elsewhere };
  if (event === 'pull_request') return routePullRequest(payload, options);
  return routeReview(event, payload, options);
}
