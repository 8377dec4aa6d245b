// Why: AgentCore has no conditional write, so a document (or state value, or record collection)
// is an append-only chain of immutable events and its current value is a deterministic fold that
// every reader computes the same way. Each event names the event it was written on (its parent)
// and its height (the parent's height + 1). Events are ordered by (timestamp, eventId); at each
// height, the first event in that order is the chain's, the others lost a race from the same
// parent. Writers only build on chain events (the head they read, whose client token the service
// keeps unique per parent), so every event's parent is a chain event, and the head is the first
// event at the greatest height: a reader needs only the newest events, never the whole history.
// A writer whose event is not the first at its height reports a conflict (or retries), so no
// acknowledged edit is ever overwritten. Pure, no I/O.

/** The ordering and chain fields of one event, as kept in its metadata. */
export interface ChainLink {
  /** Event id assigned by the service. */
  readonly id: string;
  /** Event timestamp, in milliseconds. */
  readonly at: number;
  /** Event id of the head this event was written on (`null` for the first event). */
  readonly parent: string | null;
  /** Position in the chain: 1 for the first event, the parent's height + 1 otherwise. */
  readonly height: number;
  /** Random token of the writer, to recognise its own event. */
  readonly nonce: string;
  /** Kind of change (`put`, `delete`, `apply`). */
  readonly kind: string;
  /** Version of the value after this event (`null` after a delete). */
  readonly version: string | null;
  /** Size of the value in bytes (0 after a delete). */
  readonly size: number;
}

/** Heights per bucket: events carry their bucket so a reader can ask for the newest ones only. */
export const HEIGHTS_PER_BUCKET = 100;

/** The bucket of a height. */
export function bucketOf(height: number): number {
  return Math.floor(height / HEIGHTS_PER_BUCKET);
}

/** The total order every reader uses: timestamp, then event id. */
export function compareLinks(a: ChainLink, b: ChainLink): number {
  return a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The chain's event at each height present in `links`: the first in order at that height. */
function winners(links: readonly ChainLink[]): Map<number, ChainLink> {
  const byHeight = new Map<number, ChainLink>();
  for (const link of links) {
    const current = byHeight.get(link.height);
    if (current === undefined || compareLinks(link, current) < 0) byHeight.set(link.height, link);
  }
  return byHeight;
}

/**
 * The whole chain from a session's complete list of events, oldest first: the winner of each
 * height from 1 up, stopping at the first height without an event.
 */
export function foldChain(links: readonly ChainLink[]): ChainLink[] {
  const byHeight = winners(links);
  const chain: ChainLink[] = [];
  for (let height = 1; byHeight.has(height); height++) chain.push(byHeight.get(height) as ChainLink);
  return chain;
}

/**
 * The head: the winner at the greatest height. `links` must hold every event at that height (a
 * window of the newest buckets is enough); `undefined` for an empty session.
 */
export function chainHead(links: readonly ChainLink[]): ChainLink | undefined {
  let top = 0;
  for (const link of links) top = Math.max(top, link.height);
  return top === 0 ? undefined : winners(links).get(top);
}

/**
 * The event written with `nonce` when it won its height (so it joined the chain), else
 * `undefined`. `links` must hold every event at that event's height.
 */
export function committedLink(links: readonly ChainLink[], nonce: string): ChainLink | undefined {
  const mine = links.find((link) => link.nonce === nonce);
  if (mine === undefined) return undefined;
  return winners(links).get(mine.height)?.id === mine.id ? mine : undefined;
}

/**
 * Timestamp for an event written on `parent`: now, but always after the parent, so the order
 * puts a child after its parent even when clocks disagree.
 */
export function nextTimestamp(parent: ChainLink | undefined, now = Date.now()): number {
  return parent === undefined ? now : Math.max(now, parent.at + 1);
}
