// Why: Octokit reports every non-2xx answer (and every network failure, as status 500) by
// throwing; the reader must tell apart "not there" (a stale citation), "not allowed" (a token
// problem to fix), "slow down" (rate limit) and "try again" (5xx, network), because only the first
// may ever invalidate a memory. This module turns a thrown value into one of those outcomes.

/** What a failed contents request means for the reader. */
export type GitHubRequestFailure =
  /** 304: the cached copy (sent as `If-None-Match`) is still current. */
  | { readonly kind: 'not_modified' }
  /** 404 for the path (or the repository, which GitHub does not distinguish for private repos). */
  | { readonly kind: 'not_found' }
  /** 404 "No commit found for the ref" (422 "No commit found for SHA"): the revision itself is unknown. */
  | { readonly kind: 'unknown_ref'; readonly message: string }
  /** 403 with error code `too_large` (files over 100 MB). */
  | { readonly kind: 'too_large' }
  /** 401, or a 403 that is not a rate limit. */
  | { readonly kind: 'auth'; readonly status: number; readonly message: string }
  /** 429, or a 403 rate limit; `waitMs` is what GitHub asked for (retry-after or reset). */
  | { readonly kind: 'rate_limited'; readonly status: number; readonly waitMs: number; readonly message: string }
  /** 5xx, a network error or a timeout: worth retrying. */
  | { readonly kind: 'transient'; readonly status: number | undefined; readonly message: string }
  /** Any other HTTP status (400, 422...): not retried. */
  | { readonly kind: 'other'; readonly status: number; readonly message: string };

/** Wait used for a secondary rate limit that names no time (GitHub: "wait at least one minute"). */
const DEFAULT_RATE_LIMIT_WAIT_MS = 60_000;

interface HttpErrorLike {
  readonly status: number;
  readonly message: string;
  readonly response?: { readonly headers?: Record<string, unknown>; readonly data?: unknown };
}

function isHttpErrorLike(error: unknown): error is HttpErrorLike {
  return (
    error !== null &&
    typeof error === 'object' &&
    typeof (error as { status?: unknown }).status === 'number' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

function header(error: HttpErrorLike, name: string): string | undefined {
  const value = error.response?.headers?.[name];
  return value === undefined || value === null ? undefined : String(value);
}

function bodyMessage(error: HttpErrorLike): string {
  const data = error.response?.data;
  if (data !== null && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string') {
    return (data as { message: string }).message;
  }
  return error.message;
}

function hasErrorCode(error: HttpErrorLike, code: string): boolean {
  const data = error.response?.data;
  if (data === null || typeof data !== 'object') return false;
  const errors = (data as { errors?: unknown }).errors;
  return Array.isArray(errors) && errors.some((item) => (item as { code?: unknown } | null)?.code === code);
}

function rateLimitWaitMs(error: HttpErrorLike, now: number): number | undefined {
  const retryAfter = header(error, 'retry-after');
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  if (header(error, 'x-ratelimit-remaining') === '0') {
    const reset = Number(header(error, 'x-ratelimit-reset'));
    return Number.isFinite(reset) ? Math.max(0, reset * 1000 - now) : DEFAULT_RATE_LIMIT_WAIT_MS;
  }
  if (error.status === 429 || /rate limit/i.test(bodyMessage(error))) return DEFAULT_RATE_LIMIT_WAIT_MS;
  return undefined;
}

/**
 * Classify a value thrown by `octokit.request`. Values that are not HTTP errors (no numeric
 * `status`) are `undefined`: they are programming errors and must propagate unchanged.
 */
export function classifyGitHubFailure(error: unknown, now: number = Date.now()): GitHubRequestFailure | undefined {
  if (!isHttpErrorLike(error)) {
    // fetch's own AbortError (a timeout) has no status in some runtimes: treat as transient.
    if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
      return { kind: 'transient', status: undefined, message: error.message };
    }
    return undefined;
  }
  const { status } = error;
  const message = bodyMessage(error);
  if (status === 304) return { kind: 'not_modified' };
  if (status === 404) {
    if (/no commit found for the ref/i.test(message)) return { kind: 'unknown_ref', message };
    return { kind: 'not_found' };
  }
  // The commits API answers an unknown branch or sha with 422 "No commit found for SHA: <ref>".
  if (status === 422 && /no commit found for sha/i.test(message)) return { kind: 'unknown_ref', message };
  if (status === 401) return { kind: 'auth', status, message };
  if (status === 403 || status === 429) {
    if (status === 403 && hasErrorCode(error, 'too_large')) return { kind: 'too_large' };
    const waitMs = rateLimitWaitMs(error, now);
    if (waitMs !== undefined) return { kind: 'rate_limited', status, waitMs, message };
    return { kind: 'auth', status, message };
  }
  // Octokit reports network failures (ECONNREFUSED, DNS, reset) as status 500 without a response.
  if (status >= 500 || error.response === undefined) return { kind: 'transient', status, message };
  return { kind: 'other', status, message };
}
