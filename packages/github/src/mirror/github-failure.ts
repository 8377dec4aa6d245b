// Why: a sync must tell apart failures the user fixes (no such repository, a token without a
// permission: a clear message naming it), failures that only interrupt the run (rate limits GitHub
// will lift, 5xx after retries, an abort: the next run resumes) and everything else. This module
// turns GraphQL errors and thrown HTTP errors into one of those.
import { RepomemError } from '@repomem/core';
import type { GraphQLErrorEntry } from './mirror-client.js';

/** Why a sync stopped before the end (it resumes from there next time). */
export type MirrorInterruption = 'max_requests' | 'aborted' | 'rate_limited' | 'github_unavailable';

/** The permission a fine-grained token or GitHub App needs to read each part of the mirror. */
export const PERMISSION_OF: Readonly<Record<string, string>> = {
  issues: 'Issues: read',
  pullRequests: 'Pull requests: read',
  discussions: 'Discussions: read',
  repository: 'Metadata: read (and access to the repository)',
};

/** `RepomemError` details of an access failure. */
export interface AccessFailureDetails {
  readonly reason: 'access_denied';
  /** The permission to grant, e.g. `Issues: read`. */
  readonly permission: string;
}

function accessError(repo: string, field: string, githubMessage: string): RepomemError {
  const permission = PERMISSION_OF[field] ?? PERMISSION_OF.repository ?? '';
  const details: AccessFailureDetails = { reason: 'access_denied', permission };
  return new RepomemError(
    'BACKEND_UNAVAILABLE',
    `the GitHub token cannot read ${field === 'repository' ? 'the repository' : field} of ${repo} (GitHub: ${githubMessage}); give it the permission ${permission}`,
    { details: { ...details } },
  );
}

/** The first field of `path` below `repository` (`issues`, `pullRequests`, `discussions`). */
function fieldOf(error: GraphQLErrorEntry): string {
  const path = error.path ?? [];
  const index = path.indexOf('repository');
  const raw = index === -1 ? undefined : path[index + 1];
  // GitHub names a field by its alias in `path` (the page query counts issues as `issueTotal`).
  const next = raw === 'issueTotal' ? 'issues' : raw;
  return typeof next === 'string' && next in PERMISSION_OF ? next : 'repository';
}

/** A forbidden lane field named by GraphQL errors (`discussions` when only discussions were refused). */
export function forbiddenFields(errors: readonly GraphQLErrorEntry[]): string[] {
  return errors.filter((error) => error.type === 'FORBIDDEN').map(fieldOf);
}

/** Throw the error GraphQL `errors` mean for `repo` (called when a page has errors). */
export function throwGraphQLErrors(repo: string, errors: readonly GraphQLErrorEntry[]): never {
  const notFound = errors.find((error) => error.type === 'NOT_FOUND' && fieldOf(error) === 'repository');
  if (notFound !== undefined) {
    throw new RepomemError(
      'NOT_FOUND',
      `GitHub has no repository ${repo}, or the token cannot see it (a private repository needs a token with access to it)`,
      { details: { repo } },
    );
  }
  const forbidden = errors.find((error) => error.type === 'FORBIDDEN' || error.type === 'INSUFFICIENT_SCOPES');
  if (forbidden !== undefined) throw accessError(repo, fieldOf(forbidden), forbidden.message);
  const first = errors[0];
  throw new RepomemError(
    'BACKEND_UNAVAILABLE',
    `GitHub refused the mirror query: ${errors.map((error) => `${error.type ?? 'ERROR'}: ${error.message}`).join('; ')}`,
    { details: { type: first?.type ?? '' } },
  );
}

interface HttpErrorLike {
  readonly status: number;
  readonly message: string;
  readonly response?: { readonly headers?: Record<string, unknown> };
}

function isHttpError(error: unknown): error is HttpErrorLike {
  return error instanceof Error && typeof (error as { status?: unknown }).status === 'number';
}

/**
 * Classify a thrown value: an interruption the next run resumes from, or a `RepomemError` to throw
 * (bad token, no access). Anything else is returned as is (thrown by the caller).
 */
export function classifyThrown(
  error: unknown,
  repo: string,
  aborted: boolean,
): { kind: 'interrupted'; reason: MirrorInterruption; message: string } | { kind: 'error'; error: unknown } {
  if (aborted) return { kind: 'interrupted', reason: 'aborted', message: 'the sync was aborted' };
  if (error instanceof RepomemError) return { kind: 'error', error };
  // @octokit/plugin-throttling throws a plain error for GraphQL's RATE_LIMITED answer it did not wait out.
  const graphqlErrors = (error as { data?: { errors?: unknown } } | null)?.data?.errors;
  if (
    Array.isArray(graphqlErrors) &&
    graphqlErrors.some((entry) => (entry as { type?: unknown } | null)?.type === 'RATE_LIMITED')
  ) {
    return {
      kind: 'interrupted',
      reason: 'rate_limited',
      message: "GitHub's GraphQL rate limit is used up until its reset; the sync resumes on the next run",
    };
  }
  if (!isHttpError(error)) return { kind: 'error', error };
  if (error.status === 401) {
    return {
      kind: 'error',
      error: new RepomemError(
        'BACKEND_UNAVAILABLE',
        `GitHub rejected the token (401 ${error.message}): it is expired, revoked or mistyped`,
        { details: { reason: 'access_denied', permission: 'a valid token' } },
      ),
    };
  }
  const headers = error.response?.headers ?? {};
  const limited =
    error.status === 429 ||
    headers['x-ratelimit-remaining'] === '0' ||
    headers['retry-after'] !== undefined ||
    /rate limit/i.test(error.message);
  if (limited) {
    return {
      kind: 'interrupted',
      reason: 'rate_limited',
      message: `GitHub's rate limit stopped the sync (${error.message}); it resumes on the next run`,
    };
  }
  if (error.status === 403) return { kind: 'error', error: accessError(repo, 'repository', error.message) };
  if (error.status >= 500) {
    return {
      kind: 'interrupted',
      reason: 'github_unavailable',
      message: `GitHub failed (${error.status} ${error.message}); the sync resumes on the next run`,
    };
  }
  return { kind: 'error', error };
}
