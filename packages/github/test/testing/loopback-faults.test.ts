// Why: the failures a sync must survive, as GitHub answers them and as the real Octokit plugins
// see them: 401 with GitHub's messages, a secondary rate limit (403 + retry-after) that the
// throttling plugin waits out, 502s that the retry plugin retries, an exhausted hourly quota
// reported as RATE_LIMITED; plus the REST routes and the request counters.
import { Octokit } from '@octokit/core';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { afterEach, describe, expect, it } from 'vitest';
import { generateRepository, type LoopbackGitHub, startLoopbackGitHub } from '../../src/testing/index.js';

const ResilientOctokit = Octokit.plugin(throttling, retry);
const QUERY = '{ repository(owner: "acme", name: "widgets") { issues(first: 5) { nodes { number } } } }';
let server: LoopbackGitHub | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Parameters<typeof startLoopbackGitHub>[0] = {}): Promise<LoopbackGitHub> {
  server = await startLoopbackGitHub(options);
  server.data.addRepository(generateRepository({ owner: 'acme', name: 'widgets', issues: 10, pullRequests: 2 }));
  return server;
}

async function failure(
  promise: Promise<unknown>,
): Promise<{ status?: number; message: string; response?: { data: unknown; headers: Record<string, string> } }> {
  try {
    await promise;
  } catch (error) {
    return error as { status?: number; message: string };
  }
  throw new Error('expected a failure');
}

describe('loopback GitHub failures', () => {
  it("answers 401 with GitHub's JSON for a missing or wrong token", async () => {
    const api = await start({ token: 'right' });
    const anonymous = await failure(new Octokit({ baseUrl: api.url }).graphql(QUERY));
    expect(anonymous.status).toBe(401);
    expect(anonymous.response?.data).toEqual({
      message: 'This endpoint requires you to be authenticated.',
      documentation_url: 'https://docs.github.com/graphql',
      status: '401',
    });
    const wrong = await failure(new Octokit({ baseUrl: api.url, auth: 'wrong' }).request('GET /user'));
    expect(wrong.status).toBe(401);
    expect(wrong.response?.data).toMatchObject({ message: 'Bad credentials' });
    expect(wrong.response?.headers['x-ratelimit-resource']).toBe('core');
    const ok = await new Octokit({ baseUrl: api.url, auth: 'right' }).request('GET /user');
    expect(ok.data).toMatchObject({ login: 'loopback-user', type: 'User' });
    expect(api.stats()).toMatchObject({ requests: 3, graphqlRequests: 1, restRequests: 2, rejected: 2 });
  });

  it('sends secondary rate limits that the throttling plugin waits out', async () => {
    const api = await start({ faults: { secondaryRateLimitEvery: 2, retryAfterSeconds: 1 } });
    const waits: number[] = [];
    const octokit = new ResilientOctokit({
      baseUrl: api.url,
      auth: 'loopback-token',
      throttle: {
        retryAfterBaseValue: 1, // retry-after seconds -> milliseconds, to keep the test fast
        onSecondaryRateLimit: (retryAfter) => {
          waits.push(retryAfter);
          return true;
        },
        onRateLimit: () => false,
      },
      retry: { enabled: false },
    });
    const first = await octokit.graphql<{ repository: { issues: { nodes: unknown[] } } }>(QUERY);
    const second = await octokit.graphql<{ repository: { issues: { nodes: unknown[] } } }>(QUERY);
    expect(first.repository.issues.nodes).toHaveLength(5);
    expect(second.repository.issues.nodes).toHaveLength(5);
    expect(waits).toEqual([1]);
    expect(api.stats()).toMatchObject({ requests: 3, rejected: 1 });

    const raw = await failure(new Octokit({ baseUrl: api.url, auth: 'loopback-token' }).request('GET /user'));
    expect(raw.status).toBe(403);
    expect(raw.message).toMatch(/secondary rate limit/);
    expect(raw.response?.headers['retry-after']).toBe('1');
  });

  it('injects seeded 502s that the retry plugin retries', async () => {
    const api = await start({ faults: { badGatewayRate: 0.5, seed: 3 } });
    const octokit = new ResilientOctokit({
      baseUrl: api.url,
      auth: 'loopback-token',
      throttle: { enabled: false },
      retry: { retries: 10, retryAfterBaseValue: 1 },
    });
    for (let i = 0; i < 6; i++) await octokit.request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'widgets' });
    const stats = api.stats();
    expect(stats.rejected).toBeGreaterThan(0);
    expect(stats.requests).toBe(6 + stats.rejected);

    const plain = await failure(
      new Octokit({ baseUrl: (await start({ faults: { badGatewayRate: 1 } })).url, auth: 'loopback-token' }).graphql(
        QUERY,
      ),
    );
    expect(plain.status).toBe(502);
  });

  it('injects the fault a test chooses for a request (a page too heavy for GitHub times out)', async () => {
    const api = await start({
      faults: {
        inject: (request) => (JSON.stringify(request.body ?? {}).includes('first: 5') ? 'bad-gateway' : undefined),
      },
    });
    const octokit = new Octokit({ baseUrl: api.url, auth: 'loopback-token' });
    const heavy = await failure(octokit.graphql(QUERY));
    expect(heavy.status).toBe(502);
    expect(heavy.message).toMatch(/This may be the result of a timeout/);
    const light = await octokit.graphql<{ repository: { issues: { nodes: unknown[] } } }>(
      QUERY.replace('first: 5', 'first: 2'),
    );
    expect(light.repository.issues.nodes).toHaveLength(2);
  });

  it('reports an exhausted hourly quota as RATE_LIMITED with zero points left', async () => {
    const api = await start({ rateLimit: { limit: 100, remaining: 1 } });
    const limited: number[] = [];
    const octokit = new ResilientOctokit({
      baseUrl: api.url,
      auth: 'loopback-token',
      throttle: {
        onRateLimit: (retryAfter) => {
          limited.push(retryAfter);
          return false;
        },
        onSecondaryRateLimit: () => false,
      },
      retry: { enabled: false },
    });
    await new Octokit({ baseUrl: api.url, auth: 'loopback-token' }).graphql(QUERY); // costs the last point
    const error = await failure(octokit.graphql(QUERY));
    expect(error.message).toMatch(/rate limit/i);
    expect(limited).toHaveLength(1);
    const response = await new Octokit({ baseUrl: api.url, auth: 'loopback-token' }).request('POST /graphql', {
      query: QUERY,
    });
    expect(response.headers['x-ratelimit-remaining']).toBe('0');
    expect(response.data).toEqual({
      errors: [{ type: 'RATE_LIMITED', message: expect.stringContaining('API rate limit already exceeded') }],
    });
  });
});

describe('loopback REST routes', () => {
  it('answers /rate_limit, /repos/{owner}/{repo} with permissions, and 404 like GitHub', async () => {
    const api = await start({ rateLimit: { limit: 5000, remaining: 4000 } });
    const octokit = new Octokit({ baseUrl: api.url, auth: 'loopback-token' });
    const limits = await octokit.request('GET /rate_limit');
    expect(limits.data.resources.graphql).toMatchObject({ limit: 5000, remaining: 4000, used: 1000 });
    expect(limits.data.rate.limit).toBe(5000);
    const repo = await octokit.request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'widgets' });
    expect(repo.data).toMatchObject({ full_name: 'acme/widgets', has_issues: true, has_discussions: false });
    expect(repo.data.permissions).toEqual({ admin: true, maintain: true, push: true, triage: true, pull: true });
    expect(Number(repo.headers['x-ratelimit-remaining'])).toBe(4999);
    const missing = await failure(octokit.request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'missing' }));
    expect(missing.status).toBe(404);
    expect(missing.response?.data).toMatchObject({ message: 'Not Found' });
  });

  it('answers 500 with the quota headers when the onRequest hook fails', async () => {
    const api = await start();
    api.onRequest(() => {
      throw new Error('hook broke');
    });
    const error = await failure(new Octokit({ baseUrl: api.url, auth: 'loopback-token' }).request('GET /user'));
    expect(error.status).toBe(500);
    expect(error.response?.data).toMatchObject({ message: 'Loopback GitHub API failure: hook broke' });
    expect(error.response?.headers['x-ratelimit-limit']).toBe('5000');
  });

  it('calls the onRequest hook before answering, with the request kind, index and body', async () => {
    const api = await start();
    const seen: unknown[] = [];
    api.onRequest((request) => {
      seen.push({
        kind: request.kind,
        index: request.index,
        query: (request.body as { query?: string } | undefined)?.query,
      });
    });
    const octokit = new Octokit({ baseUrl: api.url, auth: 'loopback-token' });
    await octokit.request('GET /user');
    await octokit.graphql(QUERY);
    api.onRequest(undefined);
    await octokit.request('GET /user');
    expect(seen).toEqual([
      { kind: 'rest', index: 0, query: undefined },
      { kind: 'graphql', index: 1, query: QUERY },
    ]);
    api.resetStats();
    expect(api.stats()).toEqual({ requests: 0, graphqlRequests: 0, restRequests: 0, cost: 0, rejected: 0 });
  });
});
