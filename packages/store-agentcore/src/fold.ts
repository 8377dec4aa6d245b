// Why: AgentCore has no conditional write, so a document (or state value, or record collection)
// is an append-only chain of immutable events and its current value is a deterministic fold that
// every reader computes the same way: events in (timestamp, eventId) order, each applied only
// when it names the current head as its parent. Two writers that raced from the same head both
// append, but only the first in that order extends the chain; the other sees it lost and reports
// a conflict (or retries), so no acknowledged edit is ever overwritten. Pure, no I/O.

/** The ordering and chain fields of one event, as kept in its metadata. */
export interface ChainLink {
  /** Event id assigned by the service. */
  readonly id: string;
  /** Event timestamp, in milliseconds. */
  readonly at: number;
  /** Event id of the head this event was written on (`null` for the first event). */
  readonly parent: string | null;
  /** Random token of the writer, to recognise its own event. */
  readonly nonce: string;
  /** Kind of change (`put`, `delete`, `apply`). */
  readonly kind: string;
  /** Version of the value after this event (`null` after a delete). */
  readonly version: string | null;
  /** Size of the value in bytes (0 after a delete). */
  readonly size: number;
}

/** The total order every reader uses: timestamp, then event id. */
export function compareLinks(a: ChainLink, b: ChainLink): number {
  return a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Fold a session's events into its chain: sorted by {@link compareLinks}, an event joins when its
 * parent is the last event that joined (`null` for the first). Returns the chain in order; its
 * last link is the current head.
 */
export function foldChain(links: readonly ChainLink[]): ChainLink[] {
  const sorted = [...links].sort(compareLinks);
  const chain: ChainLink[] = [];
  let head: string | null = null;
  for (const link of sorted) {
    if (link.parent === head) {
      chain.push(link);
      head = link.id;
    }
  }
  return chain;
}

/** The head of the fold, or `undefined` for an empty session. */
export function chainHead(links: readonly ChainLink[]): ChainLink | undefined {
  return foldChain(links).at(-1);
}

/** The chain link written with `nonce`, or `undefined` when that write did not join the chain. */
export function committedLink(links: readonly ChainLink[], nonce: string): ChainLink | undefined {
  return foldChain(links).find((link) => link.nonce === nonce);
}

/**
 * Timestamp for an event written on `parent`: now, but always after the parent, so the order
 * puts a child after its parent even when clocks disagree.
 */
export function nextTimestamp(parent: ChainLink | undefined, now = Date.now()): number {
  return parent === undefined ? now : Math.max(now, parent.at + 1);
}
