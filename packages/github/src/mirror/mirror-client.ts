// Why: every request of a mirror sync goes through one Octokit client built here, so the rules
// live in one place: the token only ever reaches the API host it belongs to (see
// resolveGitHubEndpoint), GraphQL requests are sent one at a time, secondary rate limits and
// `retry-after` are honoured by @octokit/plugin-throttling, 502/503/504 are retried by
// @octokit/plugin-retry, network failures are retried here, every HTTP attempt is counted and the
// quota GitHub reports (`x-ratelimit-*`) is kept for the summary. An aborted signal stops at once.
// (Pagination is the sync's own: it continues several connections of several items in one query,
// which @octokit/plugin-paginate-graphql, following one connection per query, cannot express.)
import { Octokit } from '@octokit/core';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { RepomemError } from '@repomem/core';
import Bottleneck from 'bottleneck';
import { type GitHubEnvironment, resolveGitHubEndpoint } from '../citations/github-endpoint.js';

/** The API quota GitHub reported on its last answer (`x-ratelimit-*` headers). */
export interface GitHubQuota {
  /** Points left in the current window. */
  readonly remaining: number;
  /** Points per window. */
  readonly limit: number;
  /** When the window resets (ISO 8601). */
  readonly resetAt: string;
}

/** Options of {@link createMirrorClient}. */
export interface MirrorClientOptions {
  /** Token; default `env.GITHUB_TOKEN` (see resolveGitHubEndpoint). */
  readonly token?: string;
  /** REST API root; default `env.GITHUB_API_URL`, else api.github.com. */
  readonly baseUrl?: string;
  /** GraphQL endpoint; default `env.GITHUB_GRAPHQL_URL`, else derived from the API root. */
  readonly graphqlUrl?: string;
  /** Environment read for the defaults. */
  readonly env: GitHubEnvironment;
  /** Stops every request at once. */
  readonly signal?: AbortSignal;
  /** Retries of a 502/503/504 or a network failure. */
  readonly retries: number;
  /** Unit of the retry and rate-limit waits in milliseconds (1,000 in production: GitHub speaks seconds). */
  readonly waitUnitMs: number;
  /** Longest rate-limit wait honoured, in seconds; a longer one stops the sync (resumable). */
  readonly maxRateLimitWaitSeconds: number;
  /** Secondary rate limits retried per request. */
  readonly secondaryRetries: number;
}

/** A GraphQL error as GitHub reports it. */
export interface GraphQLErrorEntry {
  readonly type?: string;
  readonly message: string;
  readonly path?: readonly (string | number)[];
}

/** The answer of one GraphQL request: data (possibly partial) and errors. */
export interface GraphQLAnswer {
  readonly data: unknown;
  readonly errors: readonly GraphQLErrorEntry[];
}

/** The client a sync uses. */
export interface MirrorClient {
  /** Send one GraphQL query; HTTP failures throw, GraphQL errors are returned with the data. */
  query(query: string, variables: Readonly<Record<string, unknown>>): Promise<GraphQLAnswer>;
  /** HTTP attempts so far (retries included). */
  readonly requests: () => number;
  /** The last quota GitHub reported, if any. */
  readonly quota: () => GitHubQuota | undefined;
  /** Rate-limit waits so far (secondary limits and `retry-after`). */
  readonly rateLimitWaits: () => number;
}

/** Status Octokit is given for a request the caller aborted (not retried). */
const ABORTED_STATUS = 499;

const RETRYABLE_NETWORK = /fetch failed|ECONNRESET|ECONNREFUSED|EPIPE|socket hang up|other side closed/i;

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The sync was aborted', 'AbortError');
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(signal as AbortSignal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The GraphQL endpoint for `baseUrl` (Enterprise Server: `https://host/api/v3` answers GraphQL at `/api/graphql`). */
function defaultGraphqlUrl(baseUrl: string): string {
  return /\/api\/v3$/.test(baseUrl) ? `${baseUrl.replace(/\/v3$/, '')}/graphql` : `${baseUrl}/graphql`;
}

function checkedGraphqlUrl(text: string, baseUrl: string, source: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RepomemError('INVALID_ARGUMENT', `${source} is not a URL: ${JSON.stringify(text)}`);
  }
  // The token goes to the GraphQL endpoint too: it must be the API's own host.
  if (url.origin !== new URL(baseUrl).origin || url.username !== '' || url.password !== '') {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `${source} (${url.origin}) is not on the API host ${new URL(baseUrl).origin}: the token is sent only to that host`,
    );
  }
  return url.href;
}

/**
 * Build the client of one sync. Throws `INVALID_ARGUMENT` when no token is given (GitHub's GraphQL
 * API answers nobody without one) or the endpoints are not acceptable.
 */
export function createMirrorClient(options: MirrorClientOptions): MirrorClient {
  const endpoint = resolveGitHubEndpoint({
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.token === undefined ? {} : { token: options.token }),
    env: options.env,
  });
  if (endpoint.token === undefined) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      "no GitHub token: GitHub's GraphQL API needs one. Set GITHUB_TOKEN (in Actions: the github.token of the run) or GH_TOKEN, or pass token; it needs read access to issues, pull requests, discussions and metadata",
    );
  }
  const graphqlText = options.graphqlUrl ?? options.env.GITHUB_GRAPHQL_URL;
  const graphqlUrl =
    graphqlText === undefined || graphqlText === ''
      ? defaultGraphqlUrl(endpoint.baseUrl)
      : checkedGraphqlUrl(
          graphqlText,
          endpoint.baseUrl,
          options.graphqlUrl === undefined ? 'GITHUB_GRAPHQL_URL' : 'graphqlUrl',
        );

  let requests = 0;
  let waits = 0;
  let quota: GitHubQuota | undefined;
  const signal = options.signal;

  const countingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    for (let attempt = 0; ; attempt += 1) {
      // After an abort Octokit must not retry: it would read a thrown AbortError as a retryable 500,
      // so the abort is answered as 499 ("client closed request"), which the retry plugin leaves alone.
      if (signal?.aborted) return new Response(null, { status: ABORTED_STATUS });
      requests += 1;
      try {
        const response = await fetch(input, init);
        const remaining = Number(response.headers.get('x-ratelimit-remaining'));
        const limit = Number(response.headers.get('x-ratelimit-limit'));
        const reset = Number(response.headers.get('x-ratelimit-reset'));
        if (response.headers.has('x-ratelimit-remaining') && Number.isFinite(remaining)) {
          quota = {
            remaining,
            limit: Number.isFinite(limit) ? limit : 0,
            resetAt: Number.isFinite(reset) ? new Date(reset * 1000).toISOString() : '',
          };
        }
        return response;
      } catch (error) {
        const message = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
        if (signal?.aborted) return new Response(null, { status: ABORTED_STATUS });
        if (attempt >= options.retries || !RETRYABLE_NETWORK.test(message)) throw error;
        await sleep((attempt + 1) ** 2 * options.waitUnitMs, signal);
      }
    }
  };

  const MirrorOctokit = Octokit.plugin(throttling, retry);
  const octokit = new MirrorOctokit({
    auth: endpoint.token,
    baseUrl: endpoint.baseUrl,
    request: { fetch: countingFetch, ...(signal === undefined ? {} : { signal }) },
    // Reads are sent one at a time (GitHub's advice against secondary limits), without the
    // one-second spacing the plugin keeps for writes: every mirror request is a query.
    throttle: {
      write: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
      retryAfterBaseValue: options.waitUnitMs,
      fallbackSecondaryRateRetryAfter: 60,
      onRateLimit: (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) => {
        if (retryCount >= 1 || retryAfter > options.maxRateLimitWaitSeconds || signal?.aborted) return false;
        waits += 1;
        return true;
      },
      onSecondaryRateLimit: (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) => {
        if (retryCount >= options.secondaryRetries || retryAfter > options.maxRateLimitWaitSeconds || signal?.aborted) {
          return false;
        }
        waits += 1;
        return true;
      },
    },
    // 5xx (GitHub's "Something went wrong while executing your query" included) are retried with
    // backoff; network failures are retried by countingFetch; an abort (499) never.
    retry: {
      retries: options.retries,
      retryAfterBaseValue: options.waitUnitMs,
      doNotRetry: [400, 401, 403, 404, 410, 422, 451, ABORTED_STATUS],
    },
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });

  return {
    async query(query, variables) {
      if (signal?.aborted) throw abortError(signal);
      let response: Awaited<ReturnType<typeof octokit.request>>;
      try {
        response = await octokit.request({ method: 'POST', url: graphqlUrl, query, variables });
      } catch (error) {
        if (signal?.aborted) throw abortError(signal);
        throw error;
      }
      const body = response.data as { data?: unknown; errors?: GraphQLErrorEntry[] } | null;
      return { data: body?.data ?? null, errors: Array.isArray(body?.errors) ? body.errors : [] };
    },
    requests: () => requests,
    quota: () => quota,
    rateLimitWaits: () => waits,
  };
}
