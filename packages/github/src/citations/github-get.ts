// Why: every GitHub request the citation reader makes (contents, comparisons, the repository's
// default branch) is one GET that retries what is transient, returns what the caller decides on
// (not found, not modified) and throws the rest as BACKEND_UNAVAILABLE, worded the same way.
import type { Octokit } from '@octokit/core';
import { RepomemError } from '@repomem/core';
import pRetry, { AbortError } from 'p-retry';
import { classifyGitHubFailure } from './github-request-failure.js';

/** The answer of one GET: the body (with its ETag), not modified (304), or not found (404, unknown ref). */
export type GitHubGetAnswer =
  | { readonly kind: 'ok'; readonly data: unknown; readonly etag: string | undefined }
  | { readonly kind: 'not_modified' }
  | { readonly kind: 'not_found'; readonly message: string };

/** One GET of `route` with `parameters`; `where` names it in messages. */
export type GitHubGet = (route: string, parameters: Record<string, unknown>, where: string) => Promise<GitHubGetAnswer>;

/**
 * A {@link GitHubGet} over `octokit`: a 5xx, a network error or a rate limit is retried `retries`
 * times (first delay `retryDelayMs`, doubled); a 404 or an unknown ref is `not_found`, a 304
 * `not_modified`; authentication failures, a refusal as too large, other statuses and exhausted
 * retries throw `BACKEND_UNAVAILABLE`.
 */
export function createGitHubGet(octokit: Octokit, retries: number, retryDelayMs: number): GitHubGet {
  return async (route, parameters, where) => {
    const attempt = async () => {
      try {
        const response = await octokit.request(route, parameters);
        const etag = response.headers.etag;
        return { kind: 'ok' as const, data: response.data, etag: typeof etag === 'string' ? etag : undefined };
      } catch (error) {
        const failure = classifyGitHubFailure(error);
        if (failure === undefined) throw new AbortError(error as Error);
        switch (failure.kind) {
          case 'not_modified':
            return { kind: 'not_modified' as const };
          case 'not_found':
            return { kind: 'not_found' as const, message: 'Not Found' };
          case 'unknown_ref':
            return { kind: 'not_found' as const, message: failure.message };
          case 'transient':
          case 'rate_limited':
            throw new Error(`GitHub ${failure.kind === 'transient' ? 'failing' : 'rate limited'}: ${failure.message}`);
          case 'too_large':
            throw new AbortError(new RepomemError('BACKEND_UNAVAILABLE', `GitHub refused ${where} as too large`));
          case 'auth':
          case 'other':
            throw new AbortError(
              new RepomemError(
                'BACKEND_UNAVAILABLE',
                `GitHub answered ${failure.status} for ${where}: ${failure.message}`,
                {
                  cause: error,
                  details: { status: failure.status },
                },
              ),
            );
        }
      }
    };
    try {
      return await pRetry(attempt, { retries, minTimeout: retryDelayMs, factor: 2 });
    } catch (error) {
      if (error instanceof RepomemError) throw error;
      throw new RepomemError(
        'BACKEND_UNAVAILABLE',
        `${error instanceof Error ? error.message : String(error)} (${where}, ${retries + 1} attempt(s))`,
        { cause: error },
      );
    }
  };
}
