// Why: the failures a sync must survive, decided per request and answered with GitHub's own
// status codes, headers and bodies: secondary rate limits (403 + `retry-after`), query timeouts
// (502), bad credentials (401). Decisions are seeded or chosen by the test, so a run reproduces.
import { RepomemError } from '@repomem/core';
import { seededRandom } from './ids.js';

/** A failure the loopback API can answer a request with. */
export type LoopbackFault = 'secondary-rate-limit' | 'bad-gateway';

/** A request about to be answered, as hooks and fault pickers see it. */
export interface LoopbackRequest {
  readonly kind: 'graphql' | 'rest';
  /** 0 for the first request the server received, then 1, 2... */
  readonly index: number;
  /** Parsed JSON body (GraphQL: `{query, variables}`). */
  readonly body?: unknown;
}

/** Injected failures of a loopback GitHub API. */
export interface LoopbackFaultOptions {
  /** Every n-th request (counting all requests) answers 403 with GitHub's secondary rate limit message. */
  readonly secondaryRateLimitEvery?: number;
  /** Seconds sent in `retry-after` with a secondary rate limit (default 1). */
  readonly retryAfterSeconds?: number;
  /** Probability (0..1) that a request answers 502 Bad Gateway. */
  readonly badGatewayRate?: number;
  /** Seed of the fault dice (default 1): the same seed fails the same requests. */
  readonly seed?: number;
  /**
   * Chooses a fault for one request (after the token is checked): `secondary-rate-limit` or
   * `bad-gateway` (GitHub's answer to a query that timed out), or undefined to answer normally.
   */
  readonly inject?: (request: LoopbackRequest) => LoopbackFault | undefined;
}

/** An HTTP answer: status, extra headers, JSON body. */
export interface FaultAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** Decides, request by request, which fault (if any) to answer with. */
export function faultPicker(
  options: LoopbackFaultOptions = {},
): (request: LoopbackRequest) => LoopbackFault | undefined {
  const everyNth = options.secondaryRateLimitEvery ?? 0;
  const rate = options.badGatewayRate ?? 0;
  if (!Number.isInteger(everyNth) || everyNth < 0) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `faults.secondaryRateLimitEvery must be a whole number (got ${everyNth}).`,
    );
  }
  if (!(rate >= 0 && rate <= 1)) {
    throw new RepomemError('INVALID_ARGUMENT', `faults.badGatewayRate must be between 0 and 1 (got ${rate}).`);
  }
  const dice = seededRandom(options.seed ?? 1);
  return (request) => {
    const chosen = options.inject?.(request);
    if (chosen !== undefined) return chosen;
    if (everyNth > 0 && (request.index + 1) % everyNth === 0) return 'secondary-rate-limit';
    if (rate > 0 && dice() < rate) return 'bad-gateway';
    return undefined;
  };
}

/** GitHub's answer for `fault`, naming the request id as GitHub's messages do. */
export function faultAnswer(fault: LoopbackFault, requestId: string, retryAfterSeconds = 1): FaultAnswer {
  if (fault === 'secondary-rate-limit') {
    return {
      status: 403,
      headers: { 'retry-after': String(retryAfterSeconds) },
      body: {
        message: `You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ${requestId}.`,
        documentation_url:
          'https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        status: '403',
      },
    };
  }
  return {
    status: 502,
    headers: {},
    body: {
      data: null,
      errors: [
        {
          message: `Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug. Please include \`${requestId}\` when reporting this issue.`,
        },
      ],
    },
  };
}

/** GitHub's 401 for a missing or unknown token. */
export function unauthorizedAnswer(kind: LoopbackRequest['kind'], tokenPresented: boolean): FaultAnswer {
  const message = tokenPresented
    ? 'Bad credentials'
    : kind === 'graphql'
      ? 'This endpoint requires you to be authenticated.'
      : 'Requires authentication';
  const docs = kind === 'graphql' ? 'https://docs.github.com/graphql' : 'https://docs.github.com/rest';
  return { status: 401, headers: {}, body: { message, documentation_url: docs, status: '401' } };
}
