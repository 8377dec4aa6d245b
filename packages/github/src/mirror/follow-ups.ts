// Why: items are written only once complete. This fetches every nested connection of a page's
// items that overflowed (and whatever overflows in the pages it brings: more discussion comments
// with their own replies), batching connections of many items into each request.

import { throwGraphQLErrors } from './github-failure.js';
import { followUpQuery, PAGE_SIZES } from './graphql-selections.js';
import type { GraphQLAnswer } from './mirror-client.js';
import { followUpsOf, type LaneItem, type PendingFollowUp } from './page-items.js';

/** Complete `items` in place through `send` (which enforces the request cap and the abort). */
export async function completeItems(
  items: readonly LaneItem[],
  send: (query: string, variables: Record<string, unknown>) => Promise<GraphQLAnswer>,
  repo: string,
): Promise<void> {
  let queue: PendingFollowUp[] = items.flatMap(followUpsOf);
  while (queue.length > 0) {
    const batch = queue.slice(0, PAGE_SIZES.followUpsPerRequest);
    queue = queue.slice(batch.length);
    const follow = followUpQuery(batch.map((entry) => entry.request));
    const answer = await send(follow.query, follow.variables);
    if (answer.errors.length > 0 && answer.data === null) throwGraphQLErrors(repo, answer.errors);
    const data = (answer.data ?? {}) as Record<string, { page?: unknown } | null>;
    batch.forEach((entry, index) => {
      const node = data[`f${index}`];
      // The node vanished meanwhile: its item is written with what was read.
      if (node === null || node === undefined || node.page === undefined) return;
      queue.push(...entry.accept(node.page));
    });
  }
}
