// Why: short-term memory as the service keeps it: immutable events in actor/session logs,
// ordered by eventTimestamp then creation, with branches, metadata filters, the session and
// actor listings, and IngestData (which lands as an event too).
import { randomBytes, randomUUID } from 'node:crypto';
import { notFound, validationError } from '../errors.js';
import { eventMetadataMatches } from '../matching.js';
import { type PageKey, paginate, queryFingerprint, sortByKey } from '../pagination.js';
import { projectToShape } from '../project.js';
import type { MemoryState, StoredEvent, StoredSession } from '../state.js';
import type {
  BranchWire,
  CreateEventWire,
  EventAddressWire,
  EventMetadataValue,
  IngestDataWire,
  ListEventsWire,
  ListSessionsWire,
  PagingWire,
} from '../wire-types.js';
import { idempotent, type OperationContext, type OperationHandler } from './context.js';

/** The branch an event without one lives on. */
const MAIN_BRANCH = 'main';

function eventKey(event: StoredEvent): PageKey {
  return [event.eventTimestamp, event.seq];
}

function newEventId(eventTimestamp: number): string {
  const millis = Math.max(0, Math.round(eventTimestamp * 1000));
  return `${String(millis).padStart(16, '0')}#${randomBytes(8).toString('hex')}`;
}

function eventWire(memoryId: string, event: StoredEvent, includePayloads = true): Record<string, unknown> {
  return {
    memoryId,
    actorId: event.actorId,
    sessionId: event.sessionId,
    eventId: event.eventId,
    eventTimestamp: event.eventTimestamp,
    payload: includePayloads ? event.payload : [],
    ...(event.branch ? { branch: event.branch } : {}),
    ...(event.metadata ? { metadata: event.metadata } : {}),
  };
}

function findEventAnywhere(memory: MemoryState, actorId: string, eventId: string): StoredEvent | undefined {
  for (const session of memory.actors.get(actorId)?.sessions.values() ?? []) {
    const found = session.events.find((event) => event.eventId === eventId);
    if (found) return found;
  }
  return undefined;
}

function checkBranch(memory: MemoryState, actorId: string, sessionId: string, branch: BranchWire | undefined): void {
  if (branch?.rootEventId === undefined) return;
  const root = findEventAnywhere(memory, actorId, branch.rootEventId);
  if (!root) throw notFound(`Root event ${branch.rootEventId} of branch ${branch.name} not found.`);
  if (root.sessionId !== sessionId) {
    throw validationError('EventInOtherSession', `Root event ${branch.rootEventId} belongs to another session.`);
  }
}

function appendEvent(
  context: OperationContext,
  fields: {
    actorId: string;
    sessionId: string;
    eventTimestamp: number;
    payload: readonly unknown[];
    branch?: BranchWire;
    metadata?: Readonly<Record<string, EventMetadataValue>>;
  },
): StoredEvent {
  const session = context.memory.session(fields.actorId, fields.sessionId, context.now);
  const event: StoredEvent = {
    actorId: fields.actorId,
    sessionId: fields.sessionId,
    eventId: newEventId(fields.eventTimestamp),
    eventTimestamp: fields.eventTimestamp,
    payload: projectToShape(context.model, 'PayloadTypeList', fields.payload) as unknown[],
    ...(fields.branch ? { branch: fields.branch } : {}),
    ...(fields.metadata ? { metadata: fields.metadata } : {}),
    seq: context.memory.nextSeq(),
  };
  session.events.push(event);
  session.events.sort((a, b) => a.eventTimestamp - b.eventTimestamp || a.seq - b.seq);
  return event;
}

const createEvent: OperationHandler = (context) =>
  idempotent(context, () => {
    const input = context.input as unknown as CreateEventWire;
    const sessionId = input.sessionId ?? randomUUID();
    checkBranch(context.memory, input.actorId, sessionId, input.branch);
    const event = appendEvent(context, {
      actorId: input.actorId,
      sessionId,
      eventTimestamp: input.eventTimestamp,
      payload: input.payload,
      ...(input.branch ? { branch: { ...input.branch } } : {}),
      ...(input.metadata ? { metadata: input.metadata } : {}),
    });
    return { event: eventWire(context.memory.memoryId, event) };
  });

const ingestData: OperationHandler = (context) =>
  idempotent(context, () => {
    const input = context.input as unknown as IngestDataWire;
    const sessionId = input.sessionId ?? randomUUID();
    appendEvent(context, {
      actorId: input.actorId,
      sessionId,
      eventTimestamp: input.contentTimestamp,
      payload: input.source.inline?.payload ?? [],
      ...(input.metadata ? { metadata: input.metadata } : {}),
    });
    return { sessionId };
  });

function requireEvent(context: OperationContext): { session: StoredSession; event: StoredEvent } {
  const input = context.input as unknown as EventAddressWire;
  const session = context.memory.findSession(input.actorId, input.sessionId);
  const event = session?.events.find((candidate) => candidate.eventId === input.eventId);
  if (!session || !event) throw notFound(`Event ${input.eventId} not found.`);
  return { session, event };
}

const getEvent: OperationHandler = (context) => ({
  event: eventWire(context.memory.memoryId, requireEvent(context).event),
});

const deleteEvent: OperationHandler = (context) => {
  const { session, event } = requireEvent(context);
  session.events.splice(session.events.indexOf(event), 1);
  return { eventId: event.eventId };
};

function branchEvents(session: StoredSession, name: string, includeParentBranches: boolean): StoredEvent[] {
  const onBranch = session.events.filter((event) => (event.branch?.name ?? MAIN_BRANCH) === name);
  if (!includeParentBranches) return onBranch;
  const root = onBranch.find((event) => event.branch?.rootEventId !== undefined)?.branch?.rootEventId;
  const rootEvent = session.events.find((event) => event.eventId === root);
  if (!rootEvent) return onBranch;
  const parentName = rootEvent.branch?.name ?? MAIN_BRANCH;
  const parents = session.events.filter(
    (event) =>
      (event.branch?.name ?? MAIN_BRANCH) === parentName &&
      (event.eventTimestamp < rootEvent.eventTimestamp ||
        (event.eventTimestamp === rootEvent.eventTimestamp && event.seq <= rootEvent.seq)),
  );
  return sortByKey([...parents, ...onBranch], eventKey);
}

const listEvents: OperationHandler = (context) => {
  const input = context.input as unknown as ListEventsWire;
  const session = context.memory.findSession(input.actorId, input.sessionId);
  let events = session ? [...session.events] : [];
  if (session && input.filter?.branch) {
    events = branchEvents(session, input.filter.branch.name, input.filter.branch.includeParentBranches === true);
  }
  const metadataFilters = input.filter?.eventMetadata;
  if (metadataFilters) events = events.filter((event) => eventMetadataMatches(event.metadata, metadataFilters));
  const fingerprint = queryFingerprint(context.operation, [input.actorId, input.sessionId, input.filter ?? null]);
  const newestFirst = context.behaviour.eventOrder === 'newest-first';
  const keyOf = newestFirst ? (event: StoredEvent): PageKey => [-event.eventTimestamp, -event.seq] : eventKey;
  const { page, nextToken } = paginate(newestFirst ? sortByKey(events, keyOf) : events, keyOf, input, fingerprint);
  return {
    events: page.map((event) => eventWire(context.memory.memoryId, event, input.includePayloads !== false)),
    ...(nextToken ? { nextToken } : {}),
  };
};

const listSessions: OperationHandler = (context) => {
  const input = context.input as unknown as ListSessionsWire;
  const actor = context.memory.actors.get(input.actorId);
  let sessions = actor ? [...actor.sessions.values()] : [];
  if (input.filter?.eventFilter === 'HAS_EVENTS') sessions = sessions.filter((session) => session.events.length > 0);
  const keyOf = (session: StoredSession): PageKey => [session.createdAt, session.seq];
  const fingerprint = queryFingerprint(context.operation, [input.actorId, input.filter ?? null]);
  const { page, nextToken } = paginate(sortByKey(sessions, keyOf), keyOf, input, fingerprint);
  return {
    sessionSummaries: page.map((session) => ({
      sessionId: session.sessionId,
      actorId: session.actorId,
      createdAt: session.createdAt,
    })),
    ...(nextToken ? { nextToken } : {}),
  };
};

const listActors: OperationHandler = (context) => {
  const input = context.input as unknown as PagingWire;
  const actors = [...context.memory.actors.values()];
  const { page, nextToken } = paginate(actors, (actor) => [actor.seq], input, queryFingerprint(context.operation, []));
  return { actorSummaries: page.map((actor) => ({ actorId: actor.actorId })), ...(nextToken ? { nextToken } : {}) };
};

/** Handlers of the short-term (event) operations, by operation name. */
export const eventHandlers: Readonly<Record<string, OperationHandler>> = {
  CreateEvent: createEvent,
  GetEvent: getEvent,
  DeleteEvent: deleteEvent,
  ListEvents: listEvents,
  ListSessions: listSessions,
  ListActors: listActors,
  IngestData: ingestData,
};
