// Why: the data side of the loopback API, through Octokit: an item updated while a client pages
// moves past the client's cursor (as on GitHub, the case a sync must not miss), nested connections
// continue through node(id), discussions serve replies and answers, deleted and transferred items
// answer as on GitHub, minimized comments stay listed, and the generator is deterministic.
import { Octokit } from '@octokit/core';
import { paginateGraphQL } from '@octokit/plugin-paginate-graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRepository, type LoopbackGitHub, startLoopbackGitHub } from '../../src/testing/index.js';

const GraphQLOctokit = Octokit.plugin(paginateGraphQL);
let server: LoopbackGitHub;
let octokit: InstanceType<typeof GraphQLOctokit>;

beforeAll(async () => {
  server = await startLoopbackGitHub();
  server.data.addRepository(
    generateRepository({
      owner: 'acme',
      name: 'widgets',
      issues: 30,
      pullRequests: 10,
      discussions: 6,
      commentsPerItem: 4,
    }),
  );
  server.data.addRepository(
    generateRepository({ owner: 'acme', name: 'deep', issues: 2, pullRequests: 0, commentsPerItem: 130, seed: 2 }),
  );
  server.data.addRepository(generateRepository({ owner: 'acme', name: 'plain', issues: 3, pullRequests: 1 }));
  octokit = new GraphQLOctokit({ auth: 'loopback-token', baseUrl: server.url });
});

afterAll(async () => {
  await server.close();
});

const ref = (number: number) => ({ owner: 'acme', name: 'widgets', kind: 'issue' as const, number });

describe('loopback data', () => {
  it('moves an item updated mid-pagination past the cursor (ascending by updatedAt)', async () => {
    const page = `query ($cursor: String) { repository(owner: "acme", name: "widgets") {
      issues(first: 10, after: $cursor, orderBy: {field: UPDATED_AT, direction: ASC}) { nodes { number updatedAt } pageInfo { hasNextPage endCursor } }
    } }`;
    let firstPage: number[] = [];
    server.onRequest(({ index, body }) => {
      if ((body as { variables?: { cursor?: string } }).variables?.cursor === undefined) return;
      if (firstPage.length > 0) {
        server.data.updateItem(ref(firstPage[0]!), { title: 'changed during the sync' });
        firstPage = [];
      }
      expect(index).toBeGreaterThan(0);
    });
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const result: {
        repository: { issues: { nodes: { number: number }[]; pageInfo: { hasNextPage: boolean; endCursor: string } } };
      } = await octokit.graphql(page, cursor === undefined ? {} : { cursor });
      if (cursor === undefined) firstPage = result.repository.issues.nodes.map((node) => node.number);
      seen.push(...result.repository.issues.nodes.map((node) => node.number));
      cursor = result.repository.issues.pageInfo.hasNextPage ? result.repository.issues.pageInfo.endCursor : undefined;
    } while (cursor !== undefined);
    server.onRequest(undefined);
    expect(seen).toHaveLength(31);
    const changed = seen[0]!;
    expect(seen.at(-1)).toBe(changed);
    expect(server.data.item(ref(changed))?.title).toBe('changed during the sync');
  });

  it('continues an overflowing nested connection through node(id)', async () => {
    const first = await octokit.graphql<{
      repository: {
        issue: {
          id: string;
          comments: { totalCount: number; nodes: unknown[]; pageInfo: { hasNextPage: boolean; endCursor: string } };
        };
      };
    }>(
      `{ repository(owner: "acme", name: "deep") { issue(number: 1) { id comments(first: 100) { totalCount nodes { id } pageInfo { hasNextPage endCursor } } } } }`,
    );
    const { issue } = first.repository;
    expect(issue.comments.totalCount).toBe(130);
    expect(issue.comments.pageInfo.hasNextPage).toBe(true);
    const rest = await octokit.graphql<{
      f0: { page: { nodes: { id: string; url: string }[]; pageInfo: { hasNextPage: boolean } } };
    }>(
      `query ($id: ID!, $after: String) { f0: node(id: $id) { ... on Issue { page: comments(first: 100, after: $after) { nodes { id url } pageInfo { hasNextPage } } } } }`,
      { id: issue.id, after: issue.comments.pageInfo.endCursor },
    );
    expect(rest.f0.page.nodes).toHaveLength(30);
    expect(rest.f0.page.pageInfo.hasNextPage).toBe(false);
    expect(rest.f0.page.nodes[0]!.url).toMatch(/^https:\/\/github\.com\/acme\/deep\/issues\/1#issuecomment-\d+$/);
    const nodes = await octokit.graphql<{ nodes: ({ __typename: string } | null)[] }>(
      'query ($ids: [ID!]!) { nodes(ids: $ids) { __typename } }',
      { ids: [issue.id, rest.f0.page.nodes[0]!.id] },
    );
    expect(nodes.nodes).toEqual([{ __typename: 'Issue' }, { __typename: 'IssueComment' }]);
  });

  it('serves discussions with categories, replies and answers; none where discussions are off', async () => {
    const result = await octokit.graphql<{
      widgets: {
        hasDiscussionsEnabled: boolean;
        discussions: {
          totalCount: number;
          nodes: {
            category: { name: string };
            answer: { id: string } | null;
            comments: { nodes: { id: string; isAnswer: boolean; replies: { nodes: { replyTo: { id: string } }[] } }[] };
          }[];
        };
      };
      plain: { hasDiscussionsEnabled: boolean; discussions: { totalCount: number } };
    }>(`{
      widgets: repository(owner: "acme", name: "widgets") { hasDiscussionsEnabled discussions(first: 10) { totalCount nodes {
        category { name } answer { id } comments(first: 10) { nodes { id isAnswer replies(first: 5) { nodes { replyTo { id } } } } } } } }
      plain: repository(owner: "acme", name: "plain") { hasDiscussionsEnabled discussions(first: 10) { totalCount } }
    }`);
    expect(result.widgets.hasDiscussionsEnabled).toBe(true);
    expect(result.widgets.discussions.totalCount).toBe(6);
    for (const discussion of result.widgets.discussions.nodes) {
      const [first] = discussion.comments.nodes;
      if (first === undefined) continue;
      expect(first.replies.nodes.every((reply) => reply.replyTo.id === first.id)).toBe(true);
      if (discussion.answer !== null) expect(first.isAnswer).toBe(discussion.answer.id === first.id);
    }
    expect(result.plain).toEqual({ hasDiscussionsEnabled: false, discussions: { totalCount: 0 } });
  });

  it('answers NOT_FOUND for a deleted issue and follows a transferred one to its new repository', async () => {
    server.data.deleteItem(ref(2));
    const moved = server.data.transferIssue(ref(3), { owner: 'acme', name: 'plain' });
    const response = await octokit.request('POST /graphql', {
      query: `{ repository(owner: "acme", name: "widgets") {
        gone: issue(number: 2) { number }
        moved: issue(number: 3) { number url repository { nameWithOwner } }
      } }`,
    });
    expect(response.data.data.repository).toEqual({
      gone: null,
      moved: {
        number: moved.number,
        url: `https://github.com/acme/plain/issues/${moved.number}`,
        repository: { nameWithOwner: 'acme/plain' },
      },
    });
    expect(response.data.errors).toEqual([
      expect.objectContaining({
        type: 'NOT_FOUND',
        path: ['repository', 'gone'],
        message: 'Could not resolve to an Issue with the number of 2.',
      }),
    ]);
  });

  it('bumps updatedAt on new comments and keeps minimized comments listed', async () => {
    const before = server.data.item(ref(5))!.updatedAt;
    const comment = server.data.addComment(ref(5), { author: 'acme-bob', body: 'late news' });
    server.data.minimizeComment(comment.id, 'outdated');
    expect(server.data.item(ref(5))!.updatedAt > before).toBe(true);
    const result = await octokit.graphql<{
      repository: {
        issue: { comments: { nodes: { body: string; isMinimized: boolean; minimizedReason: string | null }[] } };
      };
    }>(
      '{ repository(owner: "acme", name: "widgets") { issue(number: 5) { comments(last: 1) { nodes { body isMinimized minimizedReason } } } } }',
    );
    expect(result.repository.issue.comments.nodes).toEqual([
      { body: 'late news', isMinimized: true, minimizedReason: 'outdated' },
    ]);
  });

  it('opens new items with the next shared number and bumps a pull request on a new review', async () => {
    const repo = server.data.repository('acme', 'plain')!;
    const highest = Math.max(...repo.issues.map((i) => i.number), ...repo.pullRequests.map((p) => p.number));
    const issue = server.data.addItem('acme', 'plain', 'issue', { title: 'fresh', author: 'acme-carol' });
    const pull = server.data.addItem('acme', 'plain', 'pullRequest', { title: 'fresh change', author: 'acme-dave' });
    expect([issue.number, pull.number]).toEqual([highest + 1, highest + 2]);
    const before = pull.updatedAt;
    server.data.addReview(
      { owner: 'acme', name: 'plain', kind: 'pullRequest', number: pull.number },
      { author: 'acme-bob', state: 'APPROVED' },
    );
    expect(pull.updatedAt > before).toBe(true);
    const result = await octokit.graphql<{
      repository: {
        pullRequest: {
          title: string;
          state: string;
          reviews: { nodes: { state: string; author: { login: string } }[] };
        };
      };
    }>(
      'query ($n: Int!) { repository(owner: "acme", name: "plain") { pullRequest(number: $n) { title state reviews(first: 5) { nodes { state author { login } } } } } }',
      { n: pull.number },
    );
    expect(result.repository.pullRequest).toEqual({
      title: 'fresh change',
      state: 'OPEN',
      reviews: { nodes: [{ state: 'APPROVED', author: { login: 'acme-bob' } }] },
    });
  });

  it('searches issues and pull requests with GitHub qualifiers (repo, is, updated, sort)', async () => {
    const repo = server.data.repository('acme', 'widgets')!;
    const since = [...repo.pullRequests.map((pull) => pull.updatedAt)].sort()[5]!;
    const expected = repo.pullRequests
      .filter((pull) => pull.updatedAt >= since)
      .sort((a, b) => (a.updatedAt < b.updatedAt ? -1 : a.updatedAt > b.updatedAt ? 1 : a.number - b.number))
      .map((pull) => pull.number);
    const result = await octokit.graphql.paginate<{
      search: { issueCount: number; nodes: { __typename: string; number: number }[] };
    }>(
      `query ($q: String!, $cursor: String) { search(type: ISSUE, query: $q, first: 2, after: $cursor) {
        issueCount nodes { __typename ... on PullRequest { number } } pageInfo { hasNextPage endCursor } } }`,
      { q: `repo:acme/widgets is:pr updated:>=${since} sort:updated-asc` },
    );
    expect(result.search.issueCount).toBe(expected.length);
    expect(result.search.nodes.map((node) => node.number)).toEqual(expected);
    expect(new Set(result.search.nodes.map((node) => node.__typename))).toEqual(new Set(['PullRequest']));
  });

  it('generates the same repository from the same seed', () => {
    const options = { owner: 'o', name: 'n', issues: 20, pullRequests: 10, discussions: 3, seed: 42 };
    expect(generateRepository(options)).toEqual(generateRepository(options));
    expect(generateRepository(options)).not.toEqual(generateRepository({ ...options, seed: 43 }));
    const repo = generateRepository(options);
    const numbers = [...repo.issues, ...repo.pullRequests].map((item) => item.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });
});
