// Why: what GitHub answers a token that may not read something, through Octokit: a repository
// the token cannot see is NOT_FOUND (GraphQL and REST, as GitHub hides private repositories), a
// part it was not granted (a fine-grained token or App without "Pull requests: read") is FORBIDDEN
// with GitHub's wording; and checkGitHubQuery prices a query without any server.
import { Octokit } from '@octokit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkGitHubQuery,
  generateRepository,
  type LoopbackGitHub,
  startLoopbackGitHub,
} from '../../src/testing/index.js';

let server: LoopbackGitHub;

beforeAll(async () => {
  server = await startLoopbackGitHub({
    tokens: [
      { token: 'no-pulls', kind: 'app', viewer: 'helper-app', permissions: { pullRequests: 'none' } },
      { token: 'only-public', repositories: ['acme/public'], rateLimit: { limit: 1000 } },
    ],
  });
  server.data.addRepository(generateRepository({ owner: 'acme', name: 'public', issues: 3, pullRequests: 2 }));
  server.data.addRepository(generateRepository({ owner: 'acme', name: 'secret', issues: 3, pullRequests: 2 }));
});

afterAll(async () => {
  await server.close();
});

const client = (token: string) => new Octokit({ auth: token, baseUrl: server.url });

describe('tokens with limited access', () => {
  it("answers FORBIDDEN for a part the token was not granted, with GitHub's wording", async () => {
    const response = await client('no-pulls').request('POST /graphql', {
      query:
        '{ repository(owner: "acme", name: "public") { issues(first: 1) { totalCount } pullRequests(first: 1) { totalCount } } }',
    });
    expect(response.data).toEqual({
      data: { repository: null },
      errors: [
        {
          type: 'FORBIDDEN',
          path: ['repository', 'pullRequests'],
          extensions: { saml_failure: false },
          locations: [{ line: 1, column: 79 }],
          message: 'Resource not accessible by integration',
        },
      ],
    });
    const issues = await client('no-pulls').graphql<{ repository: { issues: { totalCount: number } } }>(
      '{ repository(owner: "acme", name: "public") { issues(first: 1) { totalCount } } }',
    );
    expect(issues.repository.issues.totalCount).toBe(3);
    const user = await client('no-pulls').request('GET /user');
    expect(user.data.login).toBe('helper-app');
  });

  it('meters each token in its own buckets', async () => {
    const main = await client('loopback-token').request('POST /graphql', { query: '{ rateLimit { limit } }' });
    const other = await client('only-public').request('POST /graphql', { query: '{ rateLimit { limit remaining } }' });
    expect(main.headers['x-ratelimit-limit']).toBe('5000');
    expect(other.headers['x-ratelimit-limit']).toBe('1000');
    expect(other.data).toEqual({ data: { rateLimit: { limit: 1000, remaining: 999 } } });
  });

  it('hides repositories the token cannot see (NOT_FOUND, REST 404)', async () => {
    const response = await client('only-public').request('POST /graphql', {
      query: '{ repository(owner: "acme", name: "secret") { id } }',
    });
    expect(response.data.errors[0]).toMatchObject({
      type: 'NOT_FOUND',
      message: "Could not resolve to a Repository with the name 'acme/secret'.",
    });
    const rest = await client('only-public')
      .request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'secret' })
      .catch((error: { status: number }) => error);
    expect(rest).toMatchObject({ status: 404 });
    const visible = await client('only-public').request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'public' });
    expect(visible.data.full_name).toBe('acme/public');
    const secretIssue = server.data.repository('acme', 'secret')!.issues[0]!;
    const node = await client('only-public').request('POST /graphql', {
      query: 'query ($id: ID!) { node(id: $id) { id } }',
      variables: { id: secretIssue.id },
    });
    expect(node.data).toMatchObject({ data: { node: null }, errors: [{ type: 'NOT_FOUND' }] });
  });
});

describe('checkGitHubQuery', () => {
  it('prices a query like GitHub and refuses what GitHub refuses, without a server', async () => {
    const page = `query ($after: String) { repository(owner: "o", name: "n") {
      issues(first: 100, after: $after) { nodes { labels(first: 20) { nodes { name } } comments(first: 20) { nodes { body reactionGroups { content reactors { totalCount } } } } } }
    } }`;
    // 1 (issues) + 100 (labels) + 100 (comments) = 201 requests -> 2 points; nodes 100 + 2,000 + 2,000.
    expect(await checkGitHubQuery(page, { after: null })).toEqual({
      kind: 'accepted',
      cost: 2,
      nodeCount: 4100,
      requestCount: 201,
    });
    const refused = await checkGitHubQuery('{ viewer { repositories { nodes { name } } } }');
    expect(refused).toMatchObject({ kind: 'refused', errors: [{ type: 'MISSING_PAGINATION_BOUNDARIES' }] });
    const both = await checkGitHubQuery(
      '{ repository(owner: "o", name: "n") { issues(first: 5, last: 5) { nodes { id } } } }',
    );
    expect(both).toMatchObject({
      kind: 'refused',
      errors: [{ message: 'Passing both `first` and `last` to paginate the `issues` connection is not supported.' }],
    });
    const invalid = await checkGitHubQuery(
      'query ($n: Int!) { repository(owner: "o", name: "n") { issue(number: $n) { id } } }',
    );
    expect(invalid.kind).toBe('refused');
  });
});
