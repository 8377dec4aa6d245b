// Why: reviews reach rule extraction three ways (a `pull_request_review` webhook, a
// `pull_request_review_comment` webhook, or review objects read from the REST API), all of it
// outside data. Each is validated with zod here and reduced to one `ReviewFeedback`, so the
// prompt builder and the provenance never look at raw payloads.
import { z } from 'zod';
import { RepoSlugSchema } from '../../envelope/fields.js';
import { type AuthorAssociation, AuthorAssociationSchema } from './reviewer-authority.js';

/** Longest review or comment body kept for the prompt, in characters (longer ones are cut). */
export const MAX_REVIEW_BODY_CHARS = 4000;
/** Most inline comments of one review kept for the prompt. */
export const MAX_REVIEW_COMMENTS = 50;

const UserSchema = z.object({ login: z.string().min(1).max(100) });
const IsoTime = z.iso.datetime({ offset: true });
const Body = z.string().nullable().optional();

const PullRequestSchema = z.object({
  number: z.number().int().min(1),
  html_url: z.string().optional(),
});
const RepositorySchema = z.object({ full_name: RepoSlugSchema });

/** Zod schema of the fields rule extraction reads from a `pull_request_review` webhook payload. */
export const PullRequestReviewEventSchema = z.object({
  action: z.string(),
  review: z.object({
    id: z.number().int(),
    user: UserSchema,
    body: Body,
    state: z.string(),
    author_association: AuthorAssociationSchema,
    submitted_at: IsoTime.nullable().optional(),
    html_url: z.string().optional(),
  }),
  pull_request: PullRequestSchema,
  repository: RepositorySchema,
});
/** A `pull_request_review` webhook payload (the fields rule extraction reads). */
export type PullRequestReviewEvent = z.infer<typeof PullRequestReviewEventSchema>;

/** Zod schema of the fields rule extraction reads from a `pull_request_review_comment` webhook payload. */
export const PullRequestReviewCommentEventSchema = z.object({
  action: z.string(),
  comment: z.object({
    id: z.number().int(),
    user: UserSchema,
    body: z.string(),
    path: z.string().optional(),
    line: z.number().int().nullable().optional(),
    original_line: z.number().int().nullable().optional(),
    author_association: AuthorAssociationSchema,
    created_at: IsoTime.optional(),
    pull_request_review_id: z.number().int().nullable().optional(),
  }),
  pull_request: PullRequestSchema,
  repository: RepositorySchema,
});
/** A `pull_request_review_comment` webhook payload (the fields rule extraction reads). */
export type PullRequestReviewCommentEvent = z.infer<typeof PullRequestReviewCommentEventSchema>;

/** Zod schema of a review object of the REST API (`GET /repos/{o}/{r}/pulls/{n}/reviews`). */
export const ApiReviewSchema = z.object({
  id: z.number().int(),
  user: UserSchema.nullable(),
  body: Body,
  state: z.string(),
  author_association: AuthorAssociationSchema,
  submitted_at: IsoTime.nullable().optional(),
});
/** A review object of the REST API. */
export type ApiReview = z.infer<typeof ApiReviewSchema>;

/** Zod schema of a review comment of the REST API (`GET .../pulls/{n}/reviews/{id}/comments`). */
export const ApiReviewCommentSchema = z.object({
  id: z.number().int(),
  body: z.string(),
  path: z.string().optional(),
  line: z.number().int().nullable().optional(),
  original_line: z.number().int().nullable().optional(),
});
/** A review comment of the REST API. */
export type ApiReviewComment = z.infer<typeof ApiReviewCommentSchema>;

/** One piece of review text: the review's body or one inline comment. */
export interface ReviewComment {
  /** The text (cut to {@link MAX_REVIEW_BODY_CHARS}). */
  readonly body: string;
  /** File the inline comment is on. */
  readonly path?: string;
  /** Line the inline comment is on. */
  readonly line?: number;
  /** Comment id (inline comments). */
  readonly commentId?: number;
}

/** A review, whichever way it arrived: what extraction needs and what provenance records. */
export interface ReviewFeedback {
  /** Repository (`owner/name`). */
  readonly repo: string;
  /** Pull request number. */
  readonly pr: number;
  /** Pull request URL, when known. */
  readonly prUrl?: string;
  /** Reviewer's login. */
  readonly reviewer: string;
  /** Reviewer's association with the repository. */
  readonly association: AuthorAssociation;
  /** Review state (`approved`, `changes_requested`, `commented`), lower-case; absent for a lone comment. */
  readonly state?: string;
  /** Review id. */
  readonly reviewId?: number;
  /** Comment id when the feedback is one inline comment. */
  readonly commentId?: number;
  /** When the review was submitted (ISO 8601), when known. */
  readonly reviewedAt?: string;
  /** Review body and inline comments, empty ones left out. */
  readonly comments: readonly ReviewComment[];
}

function cut(text: string): string {
  return text.length <= MAX_REVIEW_BODY_CHARS ? text : `${text.slice(0, MAX_REVIEW_BODY_CHARS)} [cut]`;
}

function comment(body: string | null | undefined, extra: Omit<ReviewComment, 'body'> = {}): ReviewComment[] {
  if (body === null || body === undefined || body.trim() === '') return [];
  return [{ body: cut(body), ...extra }];
}

function inline(c: {
  readonly id: number;
  readonly body: string;
  readonly path?: string | undefined;
  readonly line?: number | null | undefined;
  readonly original_line?: number | null | undefined;
}): ReviewComment[] {
  const line = c.line ?? c.original_line ?? undefined;
  return comment(c.body, {
    commentId: c.id,
    ...(c.path === undefined ? {} : { path: c.path }),
    ...(line === undefined ? {} : { line }),
  });
}

/** The feedback of a validated `pull_request_review` webhook payload. */
export function feedbackFromReviewEvent(event: PullRequestReviewEvent): ReviewFeedback {
  const review = event.review;
  return {
    repo: event.repository.full_name,
    pr: event.pull_request.number,
    ...(event.pull_request.html_url === undefined ? {} : { prUrl: event.pull_request.html_url }),
    reviewer: review.user.login,
    association: review.author_association,
    state: review.state.toLowerCase(),
    reviewId: review.id,
    ...(review.submitted_at === null || review.submitted_at === undefined ? {} : { reviewedAt: review.submitted_at }),
    comments: comment(review.body),
  };
}

/** The feedback of a validated `pull_request_review_comment` webhook payload. */
export function feedbackFromReviewCommentEvent(event: PullRequestReviewCommentEvent): ReviewFeedback {
  const c = event.comment;
  return {
    repo: event.repository.full_name,
    pr: event.pull_request.number,
    ...(event.pull_request.html_url === undefined ? {} : { prUrl: event.pull_request.html_url }),
    reviewer: c.user.login,
    association: c.author_association,
    commentId: c.id,
    ...(c.pull_request_review_id === null || c.pull_request_review_id === undefined
      ? {}
      : { reviewId: c.pull_request_review_id }),
    ...(c.created_at === undefined ? {} : { reviewedAt: c.created_at }),
    comments: inline(c),
  };
}

/** Input of {@link feedbackFromApiReview}: a REST review object and its inline comments. */
export interface ApiReviewInput {
  /** Repository (`owner/name`). */
  readonly repo: string;
  /** Pull request number. */
  readonly pr: number;
  /** Pull request URL, when known. */
  readonly prUrl?: string;
  /** The review object (validated here). */
  readonly review: unknown;
  /** The review's inline comments (validated here). */
  readonly comments?: readonly unknown[];
}

/**
 * The feedback of a review read from the REST API. Throws a ZodError when the review or a
 * comment does not have the documented shape, or the review has no user (a deleted account).
 */
export function feedbackFromApiReview(input: ApiReviewInput): ReviewFeedback {
  const repo = RepoSlugSchema.parse(input.repo);
  const pr = z.number().int().min(1).parse(input.pr);
  const review = ApiReviewSchema.extend({ user: UserSchema }).parse(input.review);
  const comments = z.array(ApiReviewCommentSchema).parse(input.comments ?? []);
  return {
    repo,
    pr,
    ...(input.prUrl === undefined ? {} : { prUrl: input.prUrl }),
    reviewer: review.user.login,
    association: review.author_association,
    state: review.state.toLowerCase(),
    reviewId: review.id,
    ...(review.submitted_at === null || review.submitted_at === undefined ? {} : { reviewedAt: review.submitted_at }),
    comments: [...comment(review.body), ...comments.slice(0, MAX_REVIEW_COMMENTS).flatMap(inline)],
  };
}

/** Which review webhook event a payload came with. */
export type ReviewEventName = 'pull_request_review' | 'pull_request_review_comment';

/** Outcome of {@link feedbackFromWebhook}. */
export type ReviewWebhookParse =
  | { readonly kind: 'feedback'; readonly feedback: ReviewFeedback }
  | { readonly kind: 'ignored'; readonly reason: string }
  | { readonly kind: 'invalid'; readonly message: string };

/**
 * The feedback of a review webhook payload (already JSON-parsed). Review submissions and edits,
 * and comment creations and edits, yield feedback; dismissals, deletions and empty reviews are
 * `ignored`; payloads without the documented fields are `invalid`.
 */
export function feedbackFromWebhook(event: ReviewEventName, payload: unknown): ReviewWebhookParse {
  if (event === 'pull_request_review') {
    const parsed = PullRequestReviewEventSchema.safeParse(payload);
    if (!parsed.success) return { kind: 'invalid', message: z.prettifyError(parsed.error) };
    if (parsed.data.action !== 'submitted' && parsed.data.action !== 'edited') {
      return { kind: 'ignored', reason: `review action ${parsed.data.action}` };
    }
    const feedback = feedbackFromReviewEvent(parsed.data);
    return feedback.comments.length === 0
      ? { kind: 'ignored', reason: 'the review has no text' }
      : { kind: 'feedback', feedback };
  }
  const parsed = PullRequestReviewCommentEventSchema.safeParse(payload);
  if (!parsed.success) return { kind: 'invalid', message: z.prettifyError(parsed.error) };
  if (parsed.data.action !== 'created' && parsed.data.action !== 'edited') {
    return { kind: 'ignored', reason: `review comment action ${parsed.data.action}` };
  }
  const feedback = feedbackFromReviewCommentEvent(parsed.data);
  return feedback.comments.length === 0
    ? { kind: 'ignored', reason: 'the comment has no text' }
    : { kind: 'feedback', feedback };
}
