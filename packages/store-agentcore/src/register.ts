// Why: documents, state values and record collections share one mechanism: a value kept as a
// chain of immutable events in its own session (the truth), with memory records in its own
// namespace as a materialised copy that listings and the service's retrieval read. This module
// reads a value (the records when they belong to the chain's head, else the head event itself)
// and commits a change with compare-and-swap on the folded version: append on the head that was
// read, then re-read the chain; the write committed only if its event joined the chain.
import type { PayloadType } from '@aws-sdk/client-bedrock-agentcore';
import { type ExpectedVersion, expectationHolds, RepomemError } from '@repomem/core';
import { bytesToText, type ContentEncoding, splitText, textToBytes } from './chunks.js';
import type { AgentCoreConnection } from './connection.js';
import {
  appendLink,
  heightOf,
  newNonce,
  readBucketsFrom,
  readEvents,
  readHeight,
  readNewestLinks,
  readPayload,
  type SessionAddress,
} from './event-log.js';
import { type ChainLink, chainHead, committedLink, HEIGHTS_PER_BUCKET, nextTimestamp } from './fold.js';
import { MAX_PAYLOAD_ITEMS, MAX_RECORD_TEXT_CHARS } from './model-patterns.js';
import { createRecords, deleteRecords, listRecords, type NewRecord, type StoredRecord } from './records.js';

/** Where one value lives. */
export interface RegisterAddress {
  /** The session holding its chain. */
  readonly session: SessionAddress;
  /** The namespace holding its materialised records (`undefined`: no records, events only). */
  readonly namespace: string | undefined;
  /** The value's name (document path, state key), kept in every event to detect a hash collision. */
  readonly name: string;
}

/** Record metadata keys of a materialised value. */
export const RECORD_KEYS = {
  event: 'repomem.event',
  at: 'repomem.at',
  height: 'repomem.height',
  version: 'repomem.version',
  size: 'repomem.size',
  chunk: 'repomem.chunk',
  chunks: 'repomem.chunks',
  encoding: 'repomem.encoding',
} as const;

/** What a read found. */
export interface RegisterView {
  /** Head of the chain (`undefined`: never written). */
  readonly head: ChainLink | undefined;
  /** Ids of the records in the value's namespace when they were read (to replace on the next write). */
  readonly recordIds: readonly string[];
}

/** A value read with its content. */
export interface RegisterValue extends RegisterView {
  /** Content, or `undefined` when absent or deleted. */
  readonly content: Uint8Array | undefined;
}

/** A change to commit: new bytes with their version, or `null` to delete. */
export type RegisterChange = { readonly content: Uint8Array; readonly version: string } | null;

/** Outcome of {@link commitRegister}. */
export type RegisterCommit =
  | {
      readonly status: 'committed';
      readonly version: string | null;
      readonly view: RegisterView;
    }
  | { readonly status: 'conflict'; readonly actual: string | null };

/** Largest value a register holds, in bytes (base64 in at most 99 payload items of 16,000 characters). */
export const MAX_REGISTER_BYTES = 1024 * 1024;

const CHUNK = MAX_RECORD_TEXT_CHARS;

/** The version a head stands for (`null`: absent or deleted). */
export function headVersion(head: ChainLink | undefined): string | null {
  return head === undefined || head.kind === 'delete' ? null : head.version;
}

function collision(address: RegisterAddress, found: unknown): RepomemError {
  return new RepomemError(
    'INVALID_DOCUMENT',
    `AgentCore session ${address.session.sessionId} holds ${JSON.stringify(found)}, not ${JSON.stringify(address.name)} (a hash collision or a foreign writer); nothing was merged`,
    { details: { name: address.name, sessionId: address.session.sessionId } },
  );
}

/** Payload of an event carrying `content` (header, then base64 chunks). */
export function contentPayload(name: string, content: Uint8Array | null): PayloadType[] {
  const header: PayloadType = { blob: { repomem: 1, name, deleted: content === null } };
  if (content === null) return [header];
  const chunks = splitText(Buffer.from(content).toString('base64'), CHUNK);
  if (chunks.length + 1 > MAX_PAYLOAD_ITEMS) {
    throw new RepomemError(
      'FILE_TOO_LARGE',
      `${name} is too large for one AgentCore event (${content.byteLength} bytes)`,
    );
  }
  return [header, ...chunks.map((chunk): PayloadType => ({ blob: { c: chunk } }))];
}

/** The content an event carries, checking it belongs to `address` (see {@link contentPayload}). */
export function contentFromPayload(address: RegisterAddress, payload: readonly PayloadType[]): Uint8Array {
  const [header, ...rest] = payload;
  const head = header !== undefined && 'blob' in header ? (header.blob as { name?: unknown } | undefined) : undefined;
  if (head?.name !== address.name) throw collision(address, head?.name);
  let base64 = '';
  for (const item of rest) {
    const chunk = 'blob' in item ? (item.blob as { c?: unknown } | undefined)?.c : undefined;
    if (typeof chunk !== 'string') throw collision(address, 'an event without content chunks');
    base64 += chunk;
  }
  return new Uint8Array(Buffer.from(base64, 'base64'));
}

/** Records materialising `content` as written by event `head`. */
export function recordsFor(namespace: string, head: ChainLink, content: Uint8Array): NewRecord[] {
  const { encoding, text } = bytesToText(content);
  const chunks = splitText(text, CHUNK);
  const base = {
    [RECORD_KEYS.event]: head.id.replace('#', ':'),
    [RECORD_KEYS.at]: String(head.at),
    [RECORD_KEYS.height]: String(head.height),
    [RECORD_KEYS.version]: head.version ?? '-',
    [RECORD_KEYS.size]: String(content.byteLength),
    [RECORD_KEYS.chunks]: String(chunks.length),
    [RECORD_KEYS.encoding]: encoding,
  };
  const at = new Date(head.at);
  if (chunks.length === 0)
    return [{ namespace, text: '(empty document)', metadata: { ...base, [RECORD_KEYS.chunk]: '0' }, at }];
  return chunks.map((chunk, index) => ({
    namespace,
    text: chunk,
    metadata: { ...base, [RECORD_KEYS.chunk]: String(index) },
    at,
  }));
}

/** One value's materialised state found among records: the newest complete set. */
export interface MaterialisedValue {
  readonly eventId: string;
  readonly at: number;
  readonly version: string;
  readonly size: number;
  /** Content rebuilt from the chunks. */
  content(): Uint8Array;
}

/**
 * Among the records of one value's namespace, the newest complete set (all chunks of one event;
 * duplicates from a retried batch are ignored), or `undefined`.
 */
export function materialised(records: readonly StoredRecord[]): MaterialisedValue | undefined {
  const byEvent = new Map<string, StoredRecord[]>();
  for (const record of records) {
    const event = record.metadata[RECORD_KEYS.event];
    if (event === undefined) continue;
    const list = byEvent.get(event) ?? [];
    list.push(record);
    byEvent.set(event, list);
  }
  let best: MaterialisedValue | undefined;
  for (const [event, list] of byEvent) {
    const first = list[0] as StoredRecord;
    const count = Number(first.metadata[RECORD_KEYS.chunks]);
    const chunks = new Map<number, string>();
    for (const record of list) chunks.set(Number(record.metadata[RECORD_KEYS.chunk]), record.text);
    const complete =
      count === 0 ? chunks.has(0) : Array.from({ length: count }, (_, i) => chunks.has(i)).every(Boolean);
    if (!complete) continue;
    const at = Number(first.metadata[RECORD_KEYS.at]);
    const eventId = event.replace(':', '#');
    if (best !== undefined && (best.at > at || (best.at === at && best.eventId > eventId))) continue;
    const encoding = (first.metadata[RECORD_KEYS.encoding] ?? 'utf8') as ContentEncoding;
    best = {
      eventId,
      at,
      version: first.metadata[RECORD_KEYS.version] ?? '',
      size: Number(first.metadata[RECORD_KEYS.size]),
      content: () =>
        count === 0
          ? new Uint8Array(0)
          : textToBytes(encoding, Array.from({ length: count }, (_, i) => chunks.get(i) as string).join('')),
    };
  }
  return best;
}

/**
 * The chain's newest links and the value's records: one round trip when `hint` (a height this
 * process saw) points at the newest bucket or the chain is short, two otherwise.
 */
async function readLinksAndRecords(
  connection: AgentCoreConnection,
  address: RegisterAddress,
  hint?: number,
): Promise<{ links: ChainLink[]; records: StoredRecord[] }> {
  const recordsRead =
    address.namespace === undefined ? Promise.resolve([]) : listRecords(connection, { namespace: address.namespace });
  if (hint !== undefined && hint >= HEIGHTS_PER_BUCKET) {
    const [links, records] = await Promise.all([readBucketsFrom(connection, address.session, hint), recordsRead]);
    return { links, records };
  }
  const [page, records] = await Promise.all([
    readEvents(connection, address.session, false, { firstPageOnly: true }),
    recordsRead,
  ]);
  let recordHint = 0;
  for (const record of records) recordHint = Math.max(recordHint, Number(record.metadata[RECORD_KEYS.height]) || 0);
  const links = await readNewestLinks(connection, address.session, Promise.resolve(page), recordHint);
  return { links, records };
}

/** Read the chain head and the record ids (no content). */
export async function viewRegister(
  connection: AgentCoreConnection,
  address: RegisterAddress,
  hint?: number,
): Promise<RegisterView> {
  const { links, records } = await readLinksAndRecords(connection, address, hint);
  return { head: chainHead(links), recordIds: records.map((record) => record.id) };
}

/**
 * Read a value: the chain head (the truth) and, in parallel, its records; the content comes from
 * the records when they were written by that head, otherwise from the head event's payload.
 */
export async function readRegister(
  connection: AgentCoreConnection,
  address: RegisterAddress,
  hint?: number,
): Promise<RegisterValue> {
  const { links, records } = await readLinksAndRecords(connection, address, hint);
  const head = chainHead(links);
  const recordIds = records.map((record) => record.id);
  if (headVersion(head) === null || head === undefined) return { head, recordIds, content: undefined };
  const cached = materialised(records);
  if (cached !== undefined && cached.eventId === head.id) return { head, recordIds, content: cached.content() };
  const payload = await readPayload(connection, address.session, head.id);
  return { head, recordIds, content: contentFromPayload(address, payload) };
}

function lostToken(error: unknown): boolean {
  return (
    error instanceof RepomemError &&
    (error.details?.service === 'ConflictException' ||
      (error.code === 'INVALID_ARGUMENT' && /idempoten|client ?token/i.test(String(error.details?.reason ?? ''))))
  );
}

/** Options of {@link commitRegister}. */
export interface CommitOptions {
  /** A view read earlier by this instance (saves a read; a stale one only costs a retry). */
  readonly known?: RegisterView;
  /** Most attempts before giving up with `CONFLICT` (default 64). */
  readonly maxAttempts?: number;
}

/**
 * Commit `change` when `expected` holds for the folded version (a version, `null` = absent,
 * `undefined` = no check): append an event on the head, then (in parallel) re-read the chain,
 * write the new records and delete the previous ones. Committed when the event joined the chain;
 * when another writer's event won, re-read and try again (a version that no longer matches is a
 * conflict naming the current version). Deleting an absent value commits without writing.
 */
export async function commitRegister(
  connection: AgentCoreConnection,
  address: RegisterAddress,
  expected: ExpectedVersion,
  change: RegisterChange,
  options: CommitOptions = {},
): Promise<RegisterCommit> {
  const maxAttempts = options.maxAttempts ?? 64;
  let known = options.known;
  // Heights only grow: a head this process saw is a safe place to start reading from.
  let hint = options.known?.head?.height;
  const payload = contentPayload(address.name, change === null ? null : change.content);
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const fresh = known === undefined;
    const view = known ?? (await viewRegister(connection, address, hint));
    known = undefined;
    hint = view.head?.height ?? hint;
    const actual = headVersion(view.head);
    if (!expectationHolds(expected, actual)) {
      if (!fresh) continue;
      return { status: 'conflict', actual };
    }
    if (change === null && actual === null) return { status: 'committed', version: null, view };
    const nonce = newNonce();
    const at = nextTimestamp(view.head);
    let eventId: string | undefined;
    try {
      eventId = await appendLink(connection, address.session, {
        parent: view.head,
        nonce,
        kind: change === null ? 'delete' : 'put',
        version: change === null ? null : change.version,
        size: change === null ? 0 : change.content.byteLength,
        at,
        payload,
      });
    } catch (error) {
      if (lostToken(error)) continue;
      throw error;
    }
    const provisional: ChainLink = {
      id: eventId ?? '',
      at,
      parent: view.head?.id ?? null,
      height: heightOf(view.head),
      nonce,
      kind: change === null ? 'delete' : 'put',
      version: change === null ? null : change.version,
      size: change === null ? 0 : change.content.byteLength,
    };
    const materialise =
      address.namespace !== undefined && change !== null && eventId !== undefined
        ? createRecords(connection, recordsFor(address.namespace, provisional, change.content))
        : Promise.resolve<string[]>([]);
    const [links, created] = await Promise.all([
      readHeight(connection, address.session, provisional.height),
      materialise,
      view.recordIds.length > 0 ? deleteRecords(connection, view.recordIds) : Promise.resolve(),
    ]);
    const mine = committedLink(links, nonce);
    if (mine !== undefined) {
      return {
        status: 'committed',
        version: headVersion(mine),
        view: { head: mine, recordIds: created },
      };
    }
    if (created.length > 0) await deleteRecords(connection, created);
  }
  throw new RepomemError(
    'CONFLICT',
    `gave up writing ${address.name} after ${maxAttempts} attempts lost to concurrent writers`,
  );
}
