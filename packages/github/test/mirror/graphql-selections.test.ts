// Why: every query the sync can send is checked without a server against GitHub's published
// schema, node limit and documented cost, at the page sizes in use: a query GitHub would refuse or
// price high must fail here, not in a user's workflow.
import { describe, expect, it } from 'vitest';
import {
  type FollowUp,
  followUpQuery,
  MIRROR_LANES,
  numbersQuery,
  pageQuery,
  whereaboutsQuery,
} from '../../src/mirror/graphql-selections.js';
import { checkGitHubQuery } from '../../src/testing/index.js';

async function accepted(query: string, variables: Record<string, unknown>) {
  const check = await checkGitHubQuery(query, variables);
  if (check.kind !== 'accepted') throw new Error(JSON.stringify(check.errors));
  return check;
}

describe('mirror queries', () => {
  it('a page of every lane passes GitHub checks, at most 10 points and far below the node limit', async () => {
    const { query, variables } = pageQuery([
      { lane: 'issues', after: null, since: '2026-01-01T00:00:00Z' },
      { lane: 'pulls', after: 'Y3Vyc29y', since: null },
      { lane: 'discussions', after: null, since: null },
    ]);
    const check = await accepted(query, variables('acme', 'app'));
    expect(check.cost).toBeLessThanOrEqual(10);
    expect(check.nodeCount).toBeLessThan(100_000);
  });

  it('each lane alone, and at the smallest page scale', async () => {
    for (const lane of MIRROR_LANES) {
      for (const scale of [1, 1 / 8]) {
        const { query, variables } = pageQuery([{ lane, after: null, since: null }], scale);
        await accepted(query, variables('acme', 'app'));
      }
    }
  });

  it('follow-ups of every kind of overflowing connection, batched', async () => {
    const kinds: Omit<FollowUp, 'after'>[] = [
      { nodeId: 'I_1', typename: 'Issue', connection: 'comments' },
      { nodeId: 'I_1', typename: 'Issue', connection: 'labels' },
      { nodeId: 'PR_1', typename: 'PullRequest', connection: 'comments' },
      { nodeId: 'PR_1', typename: 'PullRequest', connection: 'reviews' },
      { nodeId: 'PR_1', typename: 'PullRequest', connection: 'files' },
      { nodeId: 'PR_1', typename: 'PullRequest', connection: 'labels' },
      { nodeId: 'D_1', typename: 'Discussion', connection: 'comments' },
      { nodeId: 'DC_1', typename: 'DiscussionComment', connection: 'replies' },
    ];
    const followUps = Array.from(
      { length: 40 },
      (_, index) => ({ ...kinds[index % kinds.length], after: 'c' }) as FollowUp,
    );
    const { query, variables } = followUpQuery(followUps);
    const check = await accepted(query, variables);
    expect(check.nodeCount).toBeLessThan(500_000);
  });

  it('the listing and whereabouts queries used to find vanished items', async () => {
    for (const lane of MIRROR_LANES) {
      await accepted(numbersQuery(lane), { owner: 'acme', name: 'app', after: null });
      const { query, variables } = whereaboutsQuery(lane, [1, 2, 3]);
      await accepted(query, { owner: 'acme', name: 'app', ...variables });
    }
  });
});
