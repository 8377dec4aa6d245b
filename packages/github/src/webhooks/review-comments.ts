// Why: a `pull_request_review` payload carries the review's summary but not its inline comments,
// which is where reviewers usually state conventions. As the seed's feedback loop does, the
// whole review is read back through the REST API (the review and its comments), validated by
// core's schemas, so one model call sees everything the reviewer said.
import { Octokit } from '@octokit/core';
import { feedbackFromApiReview, MAX_REVIEW_COMMENTS, RepomemError, type ReviewFeedback } from '@repomem/core';
import { type GitHubEnvironment, resolveGitHubEndpoint } from '../citations/github-endpoint.js';

/** How the REST API is reached to read a review (defaults: `GITHUB_API_URL`, `GITHUB_TOKEN`). */
export interface ReviewApiOptions {
  /** A ready client (tests, GitHub Apps); wins over the other options. */
  readonly octokit?: Octokit;
  /** API root (default `$GITHUB_API_URL`, else https://api.github.com). */
  readonly baseUrl?: string;
  /** Token with pull-request read access (default `$GITHUB_TOKEN`). */
  readonly token?: string;
  /** Environment read for the defaults (default `process.env`). */
  readonly env?: GitHubEnvironment;
}

/** Which review to read. */
export interface ReviewReference {
  /** Repository (`owner/name`). */
  readonly repo: string;
  /** Pull request number. */
  readonly pr: number;
  /** Pull request URL, when known (kept in provenance). */
  readonly prUrl?: string;
  /** Review id. */
  readonly reviewId: number;
}

function client(options: ReviewApiOptions): Octokit {
  if (options.octokit !== undefined) return options.octokit;
  const endpoint = resolveGitHubEndpoint({
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.token === undefined ? {} : { token: options.token }),
    env: options.env ?? process.env,
  });
  return new Octokit({ baseUrl: endpoint.baseUrl, ...(endpoint.token === undefined ? {} : { auth: endpoint.token }) });
}

/**
 * Read one review and its inline comments (first {@link MAX_REVIEW_COMMENTS}) through the REST
 * API and return them as core's `ReviewFeedback`. Throws `BACKEND_UNAVAILABLE` when GitHub
 * cannot be reached or answers with an error, and a ZodError when the answer does not have the
 * documented shape.
 */
export async function fetchReviewFeedback(
  review: ReviewReference,
  options: ReviewApiOptions = {},
): Promise<ReviewFeedback> {
  const [owner, name] = review.repo.split('/');
  if (owner === undefined || name === undefined) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid repository ${JSON.stringify(review.repo)}`);
  }
  const octokit = client(options);
  const target = { owner, repo: name, pull_number: review.pr, review_id: review.reviewId };
  let body: unknown;
  let comments: unknown;
  try {
    const [reviewResponse, commentsResponse] = await Promise.all([
      octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}', target),
      octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments', {
        ...target,
        per_page: MAX_REVIEW_COMMENTS,
      }),
    ]);
    body = reviewResponse.data;
    comments = commentsResponse.data;
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    throw new RepomemError(
      'BACKEND_UNAVAILABLE',
      `could not read review ${review.reviewId} of ${review.repo}#${review.pr} from GitHub${typeof status === 'number' ? ` (HTTP ${status})` : ''}`,
      { cause: error, details: { repo: review.repo, pr: review.pr, review: review.reviewId } },
    );
  }
  return feedbackFromApiReview({
    repo: review.repo,
    pr: review.pr,
    ...(review.prUrl === undefined ? {} : { prUrl: review.prUrl }),
    review: body,
    comments: Array.isArray(comments) ? comments : [],
  });
}
