// Why: the loopback GitHub API itself: an HTTP server on 127.0.0.1 that checks the token like
// GitHub (401 and GitHub's JSON), meters GraphQL points and REST requests in separate buckets with
// `x-ratelimit-*` headers on every answer, injects the failures a sync must survive (secondary
// rate limits with `retry-after`, 502s; seeded, so a run is reproducible), and lets a test change
// the data between any two requests.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { RepomemError } from '@repomem/core';
import { GitHubDataSet } from './data-set.js';
import {
  faultAnswer,
  faultPicker,
  type LoopbackFaultOptions,
  type LoopbackRequest,
  unauthorizedAnswer,
} from './faults.js';
import { gitHubSchema } from './github-schema.js';
import { answerGraphQL } from './graphql-endpoint.js';
import { RateLimitBucket } from './rate-limit.js';
import { answerRest } from './rest-routes.js';
import { type LoopbackTokenOptions, type TokenGrant, tokenGrant } from './token-grants.js';

/** Options of {@link startLoopbackGitHub}. */
export interface LoopbackGitHubOptions {
  /** The bearer token requests must carry (default `loopback-token`); missing or wrong answers 401 like GitHub. */
  readonly token?: string;
  /** Login of the token's user: `viewer`, `GET /user`, `viewerDidAuthor` (default `loopback-user`). */
  readonly viewer?: string;
  /** Delay before each answer, in milliseconds. */
  readonly latencyMs?: number;
  /** GraphQL points per hour of the main token (default 5000) and what is left at start (default: all); each token has its own. */
  readonly rateLimit?: { readonly limit?: number; readonly remaining?: number };
  /** Injected failures: secondary rate limits, 502s, or a fault chosen per request. */
  readonly faults?: LoopbackFaultOptions;
  /** More accepted tokens, each with its own user, visible repositories and permissions. */
  readonly tokens?: readonly LoopbackTokenOptions[];
  /** The data to serve (default: an empty data set to fill through `data`). */
  readonly data?: GitHubDataSet;
}

/** Counters since start (or the last {@link LoopbackGitHub.resetStats}). */
export interface LoopbackStats {
  /** Every request received, refused ones included. */
  requests: number;
  graphqlRequests: number;
  restRequests: number;
  /** GraphQL points charged. */
  cost: number;
  /** Requests answered without running: bad credentials, injected faults, invalid or refused queries, exhausted quota. */
  rejected: number;
}

/** A running loopback GitHub API. */
export interface LoopbackGitHub {
  /** REST base, e.g. `http://127.0.0.1:PORT` (what `GITHUB_API_URL` would hold; Octokit's `baseUrl`). */
  readonly url: string;
  /** `${url}/graphql` (what `GITHUB_GRAPHQL_URL` would hold). */
  readonly graphqlUrl: string;
  /** The served data; change it at any time (also from an {@link LoopbackGitHub.onRequest} hook). */
  readonly data: GitHubDataSet;
  /** Request counters. */
  stats(): LoopbackStats;
  /** Zeroes the counters (the quota is not refilled). */
  resetStats(): void;
  /** Called before each request is answered; lets a test change data mid-sync. `undefined` removes the hook. */
  onRequest(hook: ((request: LoopbackRequest) => void | Promise<void>) | undefined): void;
  /** Stops the server. */
  close(): Promise<void>;
}

/** Starts a loopback GitHub API on 127.0.0.1 (an ephemeral port). */
export async function startLoopbackGitHub(options: LoopbackGitHubOptions = {}): Promise<LoopbackGitHub> {
  const token = options.token ?? 'loopback-token';
  const viewer = options.viewer ?? 'loopback-user';
  const latencyMs = nonNegative(options.latencyMs ?? 0, 'latencyMs');
  const limit = nonNegative(options.rateLimit?.limit ?? 5000, 'rateLimit.limit');
  const mainQuota: Quota = {
    graphql: new RateLimitBucket('graphql', limit, options.rateLimit?.remaining ?? limit),
    core: new RateLimitBucket('core', 5000),
  };
  // GitHub meters each token (user or installation) separately, and anonymous requests by address.
  const quotas = new Map<string, Quota>([[token, mainQuota]]);
  for (const extra of options.tokens ?? []) {
    const extraLimit = nonNegative(extra.rateLimit?.limit ?? 5000, 'tokens[].rateLimit.limit');
    quotas.set(extra.token, {
      graphql: new RateLimitBucket('graphql', extraLimit, extra.rateLimit?.remaining ?? extraLimit),
      core: new RateLimitBucket('core', 5000),
    });
  }
  // Unauthenticated requests (GitHub answers them 401 here) carry the address's REST quota, 60 an hour.
  const anonymousCore = new RateLimitBucket('core', 60);
  const anonymous: Quota = { graphql: anonymousCore, core: anonymousCore };
  const pickFault = faultPicker(options.faults);
  const retryAfter = nonNegative(options.faults?.retryAfterSeconds ?? 1, 'faults.retryAfterSeconds');
  const data = options.data ?? new GitHubDataSet();
  const grants = new Map<string, TokenGrant>([[token, tokenGrant({}, viewer)]]);
  for (const extra of options.tokens ?? []) grants.set(extra.token, tokenGrant(extra, viewer));
  let hook: ((request: LoopbackRequest) => void | Promise<void>) | undefined;
  let received = 0;
  let stats = emptyStats();
  await gitHubSchema();

  const server = createServer((req, res) => {
    const index = received++;
    const requestId = `LOOP:${index.toString(16).toUpperCase().padStart(6, '0')}`;
    handle(req, res, index, requestId).catch((error: unknown) => {
      // A failing onRequest hook (or a bug here) still answers like GitHub's 500, headers included.
      if (res.headersSent) {
        res.destroy();
        return;
      }
      send(
        res,
        500,
        { ...mainQuota.core.headers(), 'x-github-request-id': requestId },
        {
          message: `Loopback GitHub API failure: ${error instanceof Error ? error.message : String(error)}`,
          status: '500',
        },
      );
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, index: number, requestId: string): Promise<void> {
    const { pathname } = new URL(req.url ?? '/', 'http://127.0.0.1');
    const kind = pathname === '/graphql' ? 'graphql' : 'rest';
    const presented = bearer(req.headers.authorization);
    const grant = presented === undefined ? undefined : grants.get(presented);
    const quota = (presented !== undefined && grant !== undefined ? quotas.get(presented) : undefined) ?? anonymous;
    const bucket = kind === 'graphql' ? quota.graphql : quota.core;
    stats.requests++;
    if (kind === 'graphql') stats.graphqlRequests++;
    else stats.restRequests++;
    const raw = await readBody(req);
    let body: unknown;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
      } catch {
        stats.rejected++;
        send(
          res,
          400,
          { ...bucket.headers(), 'x-github-request-id': requestId },
          { message: 'Problems parsing JSON', documentation_url: 'https://docs.github.com/graphql', status: '400' },
        );
        return;
      }
    }
    if (hook !== undefined) await hook({ kind, index, ...(body === undefined ? {} : { body }) });
    if (latencyMs > 0) await sleep(latencyMs);
    const headers = (): Record<string, string> => ({ ...bucket.headers(), 'x-github-request-id': requestId });

    if (grant === undefined) {
      stats.rejected++;
      const answer = unauthorizedAnswer(kind, presented !== undefined);
      send(res, answer.status, { ...headers(), ...answer.headers }, answer.body);
      return;
    }
    const fault = pickFault({ kind, index, ...(body === undefined ? {} : { body }) });
    if (fault !== undefined) {
      stats.rejected++;
      const answer = faultAnswer(fault, requestId, retryAfter);
      send(res, answer.status, { ...headers(), ...answer.headers }, answer.body);
      return;
    }
    if (kind === 'graphql') {
      if (req.method !== 'POST') {
        stats.rejected++;
        send(res, 404, headers(), {
          message: 'Not Found',
          documentation_url: 'https://docs.github.com/graphql',
          status: '404',
        });
        return;
      }
      const answer = await answerGraphQL(body, data, grant, quota.graphql);
      stats.cost += answer.cost;
      if (answer.refused) stats.rejected++;
      send(res, answer.status, headers(), answer.body);
      return;
    }
    if (pathname !== '/rate_limit') quota.core.take(1);
    const answer = answerRest(req.method ?? 'GET', pathname, {
      data,
      grant,
      apiUrl: url,
      core: quota.core,
      graphql: quota.graphql,
    });
    send(res, answer.status, headers(), answer.body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    graphqlUrl: `${url}/graphql`,
    data,
    stats: () => ({ ...stats }),
    resetStats: () => {
      stats = emptyStats();
    },
    onRequest: (next) => {
      hook = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** A token's hourly buckets: GraphQL points and REST requests. */
interface Quota {
  readonly graphql: RateLimitBucket;
  readonly core: RateLimitBucket;
}

function emptyStats(): LoopbackStats {
  return { requests: 0, graphqlRequests: 0, restRequests: 0, cost: 0, rejected: 0 };
}

function bearer(header: string | undefined): string | undefined {
  const match = /^(?:bearer|token)\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

function nonNegative(value: number, name: string): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new RepomemError('INVALID_ARGUMENT', `${name} must be a non-negative number (got ${value}).`);
  }
  return value;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-github-media-type': 'github.v4; format=json',
  });
  res.end(text);
}
