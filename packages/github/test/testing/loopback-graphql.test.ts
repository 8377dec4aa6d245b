// Why: the loopback GitHub API through the real Octokit client (@octokit/core with the pagination
// plugin): queries page with opaque cursors, what GitHub refuses is refused with GitHub's errors
// (unknown fields, connections without `first`, node-limit overflow), the documented cost formula
// holds on a worked example, and the quota headers count down.
import { Octokit } from '@octokit/core';
import { paginateGraphQL } from '@octokit/plugin-paginate-graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkGitHubQuery,
  generateRepository,
  type LoopbackGitHub,
  startLoopbackGitHub,
} from '../../src/testing/index.js';

const GraphQLOctokit = Octokit.plugin(paginateGraphQL);
let server: LoopbackGitHub;
let octokit: InstanceType<typeof GraphQLOctokit>;

beforeAll(async () => {
  server = await startLoopbackGitHub();
  server.data.addRepository(
    generateRepository({ owner: 'acme', name: 'widgets', issues: 250, pullRequests: 40, discussions: 12, seed: 7 }),
  );
  octokit = new GraphQLOctokit({ auth: 'loopback-token', baseUrl: server.url });
});

afterAll(async () => {
  await server.close();
});

/** The GraphQL errors of a rejected call (Octokit's GraphqlResponseError carries them). */
async function graphQLErrors(promise: Promise<unknown>): Promise<{ type?: string; message: string }[]> {
  try {
    await promise;
  } catch (error) {
    return (error as { errors: { type?: string; message: string }[] }).errors;
  }
  throw new Error('expected the query to be refused');
}

describe('GraphQL over the loopback API', () => {
  it('pages through 250 issues with opaque cursors', async () => {
    const result = await octokit.graphql.paginate<{
      repository: {
        issues: {
          totalCount: number;
          nodes: { number: number; updatedAt: string; comments: { totalCount: number } }[];
        };
      };
    }>(
      `query ($cursor: String) {
        repository(owner: "acme", name: "widgets") {
          issues(first: 100, after: $cursor, orderBy: {field: UPDATED_AT, direction: ASC}) {
            totalCount
            nodes { number updatedAt comments(first: 10) { totalCount } }
            pageInfo { hasNextPage endCursor }
          }
        }
      }`,
    );
    const issues = result.repository.issues.nodes;
    expect(issues).toHaveLength(250);
    expect(new Set(issues.map((issue) => issue.number)).size).toBe(250);
    const times = issues.map((issue) => issue.updatedAt);
    expect([...times].sort()).toEqual(times);
    expect(issues[0]!.comments.totalCount).toBe(3);
  });

  it('filters issues by `since` and serves nested pull request connections', async () => {
    const all = server.data.repository('acme', 'widgets')!;
    const since = [...all.issues.map((issue) => issue.updatedAt)].sort()[200]!;
    const result = await octokit.graphql<{
      repository: {
        issues: { totalCount: number };
        pullRequests: {
          nodes: {
            reviews: { nodes: { state: string; commit: { oid: string } }[] };
            files: { nodes: { path: string }[] };
          }[];
        };
      };
    }>(
      `query ($since: DateTime!) {
        repository(owner: "acme", name: "widgets") {
          issues(first: 1, filterBy: {since: $since}) { totalCount }
          pullRequests(first: 5) { nodes { reviews(first: 10) { nodes { state commit { oid } } } files(first: 10) { nodes { path } } } }
        }
      }`,
      { since },
    );
    expect(result.repository.issues.totalCount).toBe(all.issues.filter((issue) => issue.updatedAt >= since).length);
    const pull = result.repository.pullRequests.nodes[0]!;
    expect(pull.reviews.nodes).toHaveLength(2);
    expect(pull.reviews.nodes[0]!.commit.oid).toMatch(/^[0-9a-f]{40}$/);
    expect(pull.files.nodes).toHaveLength(3);
  });

  it("rejects a field GitHub does not have with GitHub's error", async () => {
    const errors = await graphQLErrors(octokit.graphql('{ repository(owner: "acme", name: "widgets") { nope } }'));
    expect(errors).toEqual([
      expect.objectContaining({
        message: "Field 'nope' doesn't exist on type 'Repository'",
        extensions: { code: 'undefinedField', typeName: 'Repository', fieldName: 'nope' },
      }),
    ]);
  });

  it('rejects a malformed DateTime variable as GitHub does', async () => {
    const errors = await graphQLErrors(
      octokit.graphql(
        'query ($since: DateTime) { repository(owner: "acme", name: "widgets") { issues(first: 1, filterBy: {since: $since}) { totalCount } } }',
        { since: '2026-05-02 17:45' },
      ),
    );
    expect(errors[0]).toMatchObject({
      message: 'Variable $since of type DateTime was provided invalid value',
      extensions: { value: '2026-05-02 17:45' },
    });
  });

  it('rejects a connection without `first` or `last`', async () => {
    const errors = await graphQLErrors(
      octokit.graphql('{ repository(owner: "acme", name: "widgets") { issues { nodes { number } } } }'),
    );
    expect(errors[0]).toMatchObject({
      type: 'MISSING_PAGINATION_BOUNDARIES',
      message: 'You must provide a `first` or `last` value to properly paginate the `issues` connection.',
    });
  });

  it('rejects a page over 100 and a query over 500,000 nodes', async () => {
    const tooMany = await graphQLErrors(
      octokit.graphql('{ repository(owner: "acme", name: "widgets") { issues(first: 101) { nodes { number } } } }'),
    );
    expect(tooMany[0]!.type).toBe('EXCESSIVE_PAGINATION');
    const overflow = await graphQLErrors(
      octokit.graphql(`{ repository(owner: "acme", name: "widgets") {
        issues(first: 100) { nodes { comments(first: 100) { nodes { reactions(first: 100) { nodes { id } } } } } }
      } }`),
    );
    expect(overflow[0]).toMatchObject({ type: 'MAX_NODE_LIMIT_EXCEEDED' });
    expect(overflow[0]!.message).toContain('1,010,100');
  });

  it('charges the documented cost: requests per connection / 100, rounded', async () => {
    // GitHub's worked example: 1 request for 100 repositories' worth of issues... here: 1 for the
    // issues, 100 for their comments, 100 x 50 = 5,000 for the comments' reactions: 5,101 -> 51.
    const result = await octokit.graphql<{ rateLimit: { cost: number; nodeCount: number } }>(`{
      repository(owner: "acme", name: "widgets") {
        issues(first: 100) { nodes { comments(first: 50) { nodes { reactions(first: 60) { totalCount } } } } }
      }
      rateLimit { cost nodeCount }
    }`);
    expect(result.rateLimit).toEqual({ cost: 51, nodeCount: 100 + 100 * 50 + 100 * 50 * 60 });
    const cheap = await octokit.graphql<{ rateLimit: { cost: number } }>('{ rateLimit { cost } }');
    expect(cheap.rateLimit.cost).toBe(1);
  });

  it("matches the worked examples of GitHub's documentation (node counts and cost)", async () => {
    // "Rate limits and node limits for the GraphQL API": the simple and complex node examples,
    // and the cost example (1 + 100 + 5,000 requests = 5,101 -> 51 points).
    const simple = `query { viewer { repositories(first: 50) { edges { repository: node { name
      issues(first: 10) { totalCount edges { node { title bodyHTML } } } } } } } }`;
    const complex = `query { viewer {
      repositories(first: 50) { edges { repository: node { name
        pullRequests(first: 20) { edges { pullRequest: node { title comments(first: 10) { edges { comment: node { bodyHTML } } } } } }
        issues(first: 20) { totalCount edges { issue: node { title bodyHTML comments(first: 10) { edges { comment: node { bodyHTML } } } } } } } } }
      followers(first: 10) { edges { follower: node { login } } } } }`;
    const cost = `query { viewer { login repositories(first: 100) { edges { node { id
      issues(first: 50) { edges { node { id labels(first: 60) { edges { node { id name } } } } } } } } } } }`;
    expect(await checkGitHubQuery(simple)).toMatchObject({ kind: 'accepted', nodeCount: 550 });
    expect(await checkGitHubQuery(complex)).toMatchObject({ kind: 'accepted', nodeCount: 22_060 });
    expect(await checkGitHubQuery(cost)).toEqual({
      kind: 'accepted',
      nodeCount: 305_100,
      requestCount: 5_101,
      cost: 51,
    });
  });

  it('sends x-ratelimit headers that count down by the query cost', async () => {
    const query =
      '{ repository(owner: "acme", name: "widgets") { issues(first: 100) { nodes { comments(first: 100) { totalCount } } } } }';
    const first = await octokit.request('POST /graphql', { query });
    const second = await octokit.request('POST /graphql', { query });
    expect(first.headers['x-ratelimit-resource']).toBe('graphql');
    expect(first.headers['x-ratelimit-limit']).toBe('5000');
    const before = Number(first.headers['x-ratelimit-remaining']);
    expect(Number(second.headers['x-ratelimit-remaining'])).toBe(before - 1);
    expect(Number(second.headers['x-ratelimit-used'])).toBe(5000 - before + 1);
    expect(Number(second.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
  });

  it('answers introspection, and names a field the model does not serve instead of returning null', async () => {
    const schema = await octokit.graphql<{ __type: { fields: { name: string }[] } }>(
      '{ __type(name: "RateLimit") { fields { name } } }',
    );
    expect(schema.__type.fields.map((field) => field.name)).toContain('cost');
    const errors = await graphQLErrors(octokit.graphql('{ meta { gitIpAddresses } }'));
    expect(errors[0]).toMatchObject({
      type: 'LOOPBACK_UNSUPPORTED',
      message: 'The loopback GitHub API does not serve Query.meta yet.',
    });
  });

  it('answers NOT_FOUND with a null repository for a missing one', async () => {
    const response = await octokit.request('POST /graphql', {
      query: '{ repository(owner: "acme", name: "missing") { hasDiscussionsEnabled } }',
    });
    expect(response.data).toEqual({
      data: { repository: null },
      errors: [
        {
          type: 'NOT_FOUND',
          path: ['repository'],
          locations: [{ line: 1, column: 3 }],
          message: "Could not resolve to a Repository with the name 'acme/missing'.",
        },
      ],
    });
  });
});
