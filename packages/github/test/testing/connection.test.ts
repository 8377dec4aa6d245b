// Why: the paging rules every connection of the loopback API follows, checked directly: Relay's
// first/last/after/before, descending order, opaque cursors that survive items moving, and the
// data set's node index staying right when a test edits the arrays by hand.
import { describe, expect, it } from 'vitest';
import { paginate } from '../../src/testing/connection.js';
import { decodeCursor, encodeCursor, GitHubDataSet, generateRepository } from '../../src/testing/index.js';

const items = Array.from({ length: 10 }, (_, i) => ({ n: i + 1 }));
const key = (item: { n: number }) => [item.n];
const numbers = (page: { nodes: { n: number }[] }) => page.nodes.map((item) => item.n);

describe('paginate', () => {
  it('pages forward with first/after and backward with last/before', () => {
    const first = paginate(items, { first: 4 }, key);
    expect(numbers(first)).toEqual([1, 2, 3, 4]);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = paginate(items, { first: 4, after: first.pageInfo.endCursor }, key);
    expect(numbers(second)).toEqual([5, 6, 7, 8]);
    const last = paginate(items, { first: 4, after: second.pageInfo.endCursor }, key);
    expect(numbers(last)).toEqual([9, 10]);
    expect(last.pageInfo.hasNextPage).toBe(false);
    const tail = paginate(items, { last: 3 }, key);
    expect(numbers(tail)).toEqual([8, 9, 10]);
    expect(tail.pageInfo.hasPreviousPage).toBe(true);
    const before = paginate(items, { last: 3, before: tail.pageInfo.startCursor }, key);
    expect(numbers(before)).toEqual([5, 6, 7]);
    expect(before.totalCount).toBe(10);
  });

  it('orders descending and keeps cursors valid when items move', () => {
    const desc = paginate(items, { first: 3 }, key, true);
    expect(numbers(desc)).toEqual([10, 9, 8]);
    const moved = items.filter((item) => item.n !== 9);
    expect(numbers(paginate(moved, { first: 3, after: desc.pageInfo.endCursor }, key, true))).toEqual([7, 6, 5]);
    expect(paginate([], { first: 3 }, key).pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: null,
      endCursor: null,
    });
  });

  it('uses opaque cursors and refuses foreign ones like GitHub', () => {
    const cursor = encodeCursor(['2026-05-02T17:45:06Z', 42]);
    expect(cursor).not.toContain('2026');
    expect(decodeCursor(cursor)).toEqual(['2026-05-02T17:45:06Z', 42]);
    expect(decodeCursor('bm90IGEgY3Vyc29y')).toBeUndefined();
    expect(() => paginate(items, { first: 1, after: 'Y2xlYXJseSBub3Q=' }, key)).toThrow(
      '`Y2xlYXJseSBub3Q=` does not appear to be a valid cursor.',
    );
  });
});

describe('GitHubDataSet node index', () => {
  it('finds records added or removed by hand, and forgets deleted ones', () => {
    const data = new GitHubDataSet();
    const repo = data.addRepository(
      generateRepository({ owner: 'o', name: 'n', issues: 2, pullRequests: 1, commentsPerItem: 1 }),
    );
    const issue = repo.issues[0]!;
    expect(data.node(issue.id)?.type).toBe('Issue');
    const comment = { ...issue.comments[0]!, id: 'IC_by_hand', databaseId: 1 };
    issue.comments.push(comment);
    expect(data.node('IC_by_hand')).toMatchObject({ type: 'IssueComment', item: issue, repo });
    issue.comments.pop();
    expect(data.node('IC_by_hand')).toBeUndefined();
    data.deleteItem({ owner: 'o', name: 'n', kind: 'issue', number: issue.number });
    expect(data.node(issue.id)).toBeUndefined();
    expect(data.node(repo.pullRequests[0]!.id)?.type).toBe('PullRequest');
  });
});
