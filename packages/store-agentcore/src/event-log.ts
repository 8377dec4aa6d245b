// Why: the chain of one session is read and extended through three calls only: list the events'
// metadata (never their payloads, so a long history stays cheap), fetch one event's payload, and
// append an event whose metadata carries its chain fields. The append's client token is derived
// from the parent, so the service's idempotency keeps at most one child per parent and an SDK or
// p-retry retry of the same append never creates a second event.
import { createHash, randomBytes } from 'node:crypto';
import {
  CreateEventCommand,
  GetEventCommand,
  ListEventsCommand,
  type PayloadType,
} from '@aws-sdk/client-bedrock-agentcore';
import { RepomemError } from '@repomem/core';
import type { AgentCoreConnection } from './connection.js';
import { bucketOf, type ChainLink } from './fold.js';
import { MAX_PAGE_SIZE } from './model-patterns.js';

/** Where a chain lives: an actor and one of its sessions. */
export interface SessionAddress {
  readonly actorId: string;
  readonly sessionId: string;
}

const KEY = {
  parent: 'repomem.parent',
  height: 'repomem.height',
  bucket: 'repomem.bucket',
  nonce: 'repomem.nonce',
  kind: 'repomem.kind',
  version: 'repomem.version',
  size: 'repomem.size',
} as const;
const NONE = '-';

/** Event ids hold `#`, which metadata values may not: stored with `:` instead. */
function idToMetadata(id: string): string {
  return id.replace('#', ':');
}

function idFromMetadata(value: string): string {
  return value.replace(':', '#');
}

function metadataString(
  metadata: Record<string, { stringValue?: string } | undefined> | undefined,
  key: string,
): string | undefined {
  const value = metadata?.[key];
  return value !== undefined && 'stringValue' in value ? value.stringValue : undefined;
}

/** A fresh writer nonce (hex). */
export function newNonce(): string {
  return randomBytes(12).toString('hex');
}

/** A chain link with its payload (when read with payloads). */
export interface LinkWithPayload {
  readonly link: ChainLink;
  readonly payload: readonly PayloadType[];
}

/**
 * Read the chain links of a session (every page), with their payloads when `withPayloads`.
 * Events without repomem's chain metadata (written by something else) are ignored.
 */
export async function readEvents(
  connection: AgentCoreConnection,
  address: SessionAddress,
  withPayloads: boolean,
  options: {
    readonly equals?: { readonly key: 'height' | 'bucket'; readonly value: number };
    readonly firstPageOnly?: boolean;
    readonly signal?: AbortSignal;
  } = {},
): Promise<LinkWithPayload[] & { complete?: boolean }> {
  const out: LinkWithPayload[] & { complete?: boolean } = [];
  const filter =
    options.equals === undefined
      ? undefined
      : {
          eventMetadata: [
            {
              left: { metadataKey: KEY[options.equals.key] },
              operator: 'EQUALS_TO' as const,
              right: { metadataValue: { stringValue: String(options.equals.value) } },
            },
          ],
        };
  let nextToken: string | undefined;
  do {
    const page = await connection.send(
      'ListEvents',
      (client, sendOptions) =>
        client.send(
          new ListEventsCommand({
            memoryId: connection.memoryId,
            actorId: address.actorId,
            sessionId: address.sessionId,
            includePayloads: withPayloads,
            maxResults: MAX_PAGE_SIZE,
            ...(filter === undefined ? {} : { filter }),
            ...(nextToken === undefined ? {} : { nextToken }),
          }),
          sendOptions,
        ),
      options.signal,
    );
    for (const event of page.events ?? []) {
      const nonce = metadataString(event.metadata, KEY.nonce);
      const parent = metadataString(event.metadata, KEY.parent);
      const kind = metadataString(event.metadata, KEY.kind);
      const version = metadataString(event.metadata, KEY.version);
      const height = Number(metadataString(event.metadata, KEY.height));
      if (event.eventId === undefined || nonce === undefined || parent === undefined || kind === undefined) continue;
      if (!Number.isSafeInteger(height) || height < 1) continue;
      out.push({
        link: {
          id: event.eventId,
          at: event.eventTimestamp?.getTime() ?? 0,
          parent: parent === NONE ? null : idFromMetadata(parent),
          height,
          nonce,
          kind,
          version: version === undefined || version === NONE ? null : version,
          size: Number(metadataString(event.metadata, KEY.size) ?? '0'),
        },
        payload: event.payload ?? [],
      });
    }
    nextToken = page.nextToken;
    if (options.firstPageOnly === true) {
      out.complete = nextToken === undefined || nextToken === '';
      return out;
    }
  } while (nextToken !== undefined && nextToken !== '');
  out.complete = true;
  return out;
}

/** Read the chain links of a session (metadata only, every page). */
export async function readLinks(connection: AgentCoreConnection, address: SessionAddress): Promise<ChainLink[]> {
  return (await readEvents(connection, address, false)).map((entry) => entry.link);
}

/** The payload of one event. Throws `NOT_FOUND` when the event is gone. */
export async function readPayload(
  connection: AgentCoreConnection,
  address: SessionAddress,
  eventId: string,
): Promise<PayloadType[]> {
  const output = await connection.send('GetEvent', (client, options) =>
    client.send(
      new GetEventCommand({
        memoryId: connection.memoryId,
        actorId: address.actorId,
        sessionId: address.sessionId,
        eventId,
      }),
      options,
    ),
  );
  const payload = output.event?.payload;
  if (payload === undefined) {
    throw new RepomemError('INVALID_DOCUMENT', `AgentCore event ${eventId} came back without its payload`);
  }
  return payload;
}

/** What to append. */
export interface AppendRequest {
  /** The head the event is written on (`undefined` for the first event). */
  readonly parent: ChainLink | undefined;
  /** Writer nonce (see {@link newNonce}). */
  readonly nonce: string;
  /** Kind of change. */
  readonly kind: string;
  /** Version after the change (`null` for a delete). */
  readonly version: string | null;
  /** Size after the change. */
  readonly size: number;
  /** Event timestamp in ms. */
  readonly at: number;
  /** Payload items (blobs; never extracted into long-term memory). */
  readonly payload: PayloadType[];
}

/**
 * The client token of an append: derived from the session and the parent, so two writers racing
 * from the same head send the same token and the service keeps one event, and a retried append
 * is recognised as the same request.
 */
export function appendToken(address: SessionAddress, parent: ChainLink | undefined): string {
  const hex = createHash('sha256')
    .update(`${address.actorId}\n${address.sessionId}\n${parent?.id ?? NONE}`)
    .digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Append one event. Returns the id the service gave it (another writer's, when the token was taken). */
export async function appendLink(
  connection: AgentCoreConnection,
  address: SessionAddress,
  request: AppendRequest,
): Promise<string | undefined> {
  const output = await connection.send('CreateEvent', (client, options) =>
    client.send(
      new CreateEventCommand({
        memoryId: connection.memoryId,
        actorId: address.actorId,
        sessionId: address.sessionId,
        eventTimestamp: new Date(request.at),
        clientToken: appendToken(address, request.parent),
        payload: request.payload,
        metadata: {
          [KEY.parent]: { stringValue: request.parent === undefined ? NONE : idToMetadata(request.parent.id) },
          [KEY.height]: { stringValue: String(heightOf(request.parent)) },
          [KEY.bucket]: { stringValue: String(bucketOf(heightOf(request.parent))) },
          [KEY.nonce]: { stringValue: request.nonce },
          [KEY.kind]: { stringValue: request.kind },
          [KEY.version]: { stringValue: request.version ?? NONE },
          [KEY.size]: { stringValue: String(request.size) },
        },
      }),
      options,
    ),
  );
  return output.event?.eventId;
}

/** Height of an event written on `parent`. */
export function heightOf(parent: ChainLink | undefined): number {
  return (parent?.height ?? 0) + 1;
}

/** The links at one height (one filtered request): enough to tell whether an event won it. */
export async function readHeight(
  connection: AgentCoreConnection,
  address: SessionAddress,
  height: number,
): Promise<ChainLink[]> {
  return (await readEvents(connection, address, false, { equals: { key: 'height', value: height } })).map(
    (entry) => entry.link,
  );
}

/**
 * The newest links of a session, enough to find its head: the first page (oldest events) when
 * it is the whole session; otherwise the buckets from the one holding `hint` (or the first
 * page's greatest height) upwards until one is empty. Costs one request for a session of up to
 * 100 events, and a constant few for any longer one.
 */
export async function readNewestLinks(
  connection: AgentCoreConnection,
  address: SessionAddress,
  firstPage?: Promise<LinkWithPayload[] & { complete?: boolean }>,
  hint = 0,
): Promise<ChainLink[]> {
  const page = await (firstPage ?? readEvents(connection, address, false, { firstPageOnly: true }));
  const links = page.map((entry) => entry.link);
  if (page.complete === true) return links;
  let top = hint;
  for (const link of links) top = Math.max(top, link.height);
  return readBucketsFrom(connection, address, top);
}

/**
 * The links of the buckets from the one holding `height` upwards until one is empty: every event
 * at the greatest height when `height` is a height the chain has reached (an observed one).
 */
export async function readBucketsFrom(
  connection: AgentCoreConnection,
  address: SessionAddress,
  height: number,
): Promise<ChainLink[]> {
  const readBucket = async (bucket: number): Promise<ChainLink[]> =>
    (await readEvents(connection, address, false, { equals: { key: 'bucket', value: bucket } })).map(
      (entry) => entry.link,
    );
  let bucket = bucketOf(height);
  const window = (await Promise.all([readBucket(bucket), readBucket(bucket + 1)])).flat();
  let last = window.some((link) => bucketOf(link.height) === bucket + 1);
  bucket += 1;
  while (last) {
    bucket += 1;
    const next = await readBucket(bucket);
    window.push(...next);
    last = next.length > 0;
  }
  return window;
}
