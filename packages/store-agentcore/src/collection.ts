// Why: verified memories and task records need compare-and-swap over several records at once
// (a supersede writes two), which no record API of the service offers. A collection is one chain
// of events (see fold.ts) whose events each carry a delta (records written, telemetry appended);
// its state is the fold of the deltas of the chain, and a delta joins only when it was computed
// on the chain's head, so every check a delta made still holds when it lands. Memory records are
// written afterwards as a materialised copy for the service's retrieval and other readers.
import { type RepomemError, RepomemError as RepomemErrorClass } from '@repomem/core';
import type { AgentCoreConnection } from './connection.js';
import { appendLink, heightOf, newNonce, readEvents, readHeight, type SessionAddress } from './event-log.js';
import { type ChainLink, committedLink, foldChain, nextTimestamp } from './fold.js';
import { contentFromPayload, contentPayload } from './register.js';

/** Where a collection's chain lives, and its name (kept in every event). */
export interface CollectionAddress {
  readonly session: SessionAddress;
  readonly name: string;
}

/** The deltas of a collection's chain, in order, and its head. */
export interface CollectionView<Delta> {
  readonly head: ChainLink | undefined;
  readonly deltas: readonly Delta[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Read and fold a collection: every delta of the chain, oldest first (`signal` cancels the reads). */
export async function readCollection<Delta>(
  connection: AgentCoreConnection,
  address: CollectionAddress,
  parse: (json: unknown) => Delta,
  signal?: AbortSignal,
): Promise<CollectionView<Delta>> {
  const entries = await readEvents(connection, address.session, true, signal === undefined ? {} : { signal });
  const chain = foldChain(entries.map((entry) => entry.link));
  const payloads = new Map(entries.map((entry) => [entry.link.id, entry.payload]));
  const registerAddress = { session: address.session, namespace: undefined, name: address.name };
  const deltas = chain.map((link) => {
    const text = decoder.decode(contentFromPayload(registerAddress, payloads.get(link.id) ?? []));
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new RepomemErrorClass('INVALID_DOCUMENT', `AgentCore event ${link.id} of ${address.name} is not JSON`, {
        cause: error,
      });
    }
    return parse(json);
  });
  return { head: chain.at(-1), deltas };
}

/** What a decision over the current state returns: a delta to append, or a refusal. */
export type CollectionDecision<Delta, Refusal> =
  | { readonly kind: 'append'; readonly delta: Delta }
  | { readonly kind: 'refuse'; readonly refusal: Refusal }
  | { readonly kind: 'nothing' };

/** Outcome of {@link commitCollection}. */
export type CollectionCommit<Delta, Refusal> =
  | { readonly ok: true; readonly view: CollectionView<Delta> }
  | { readonly ok: false; readonly refusal: Refusal };

/**
 * Read the collection, let `decide` compute a delta from it (or refuse), append it on the head
 * and keep it only when it joined the chain; otherwise read again and decide again (at most
 * `maxAttempts`, default 64, then `CONFLICT`). Returns the state including the delta.
 */
export async function commitCollection<Delta, Refusal>(
  connection: AgentCoreConnection,
  address: CollectionAddress,
  parse: (json: unknown) => Delta,
  decide: (view: CollectionView<Delta>) => CollectionDecision<Delta, Refusal>,
  maxAttempts = 64,
): Promise<CollectionCommit<Delta, Refusal>> {
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const view = await readCollection(connection, address, parse);
    const decision = decide(view);
    if (decision.kind === 'refuse') return { ok: false, refusal: decision.refusal };
    if (decision.kind === 'nothing') return { ok: true, view };
    const bytes = encoder.encode(JSON.stringify(decision.delta));
    const nonce = newNonce();
    try {
      await appendLink(connection, address.session, {
        parent: view.head,
        nonce,
        kind: 'apply',
        version: nonce,
        size: bytes.byteLength,
        at: nextTimestamp(view.head),
        payload: contentPayload(address.name, bytes),
      });
    } catch (error) {
      if (isLostToken(error)) continue;
      throw error;
    }
    const links = await readHeight(connection, address.session, heightOf(view.head));
    if (committedLink(links, nonce) !== undefined) {
      return { ok: true, view: { head: view.head, deltas: [...view.deltas, decision.delta] } };
    }
  }
  throw new RepomemErrorClass(
    'CONFLICT',
    `gave up writing ${address.name} after ${maxAttempts} attempts lost to concurrent writers`,
  );
}

function isLostToken(error: unknown): error is RepomemError {
  return (
    error instanceof RepomemErrorClass &&
    (error.details?.service === 'ConflictException' ||
      (error.code === 'INVALID_ARGUMENT' && /idempoten|client ?token/i.test(String(error.details?.reason ?? ''))))
  );
}
