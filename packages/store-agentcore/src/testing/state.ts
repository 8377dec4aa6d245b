// Why: the emulator's in-memory picture of each memory resource (actors, sessions, immutable
// events, long-term records, failed extraction jobs, idempotency tokens), kept apart from the
// wire and the handlers so each operation module only reads and writes these maps.
import type { BranchWire, EventMetadataValue, RecordMetadataValue } from './wire-types.js';

/** An immutable short-term event. */
export interface StoredEvent {
  readonly actorId: string;
  readonly sessionId: string;
  readonly eventId: string;
  /** Epoch seconds. */
  readonly eventTimestamp: number;
  readonly payload: readonly unknown[];
  readonly branch?: BranchWire;
  readonly metadata?: Readonly<Record<string, EventMetadataValue>>;
  /** Creation order inside the memory (ties on eventTimestamp keep it). */
  readonly seq: number;
}

/** A session of one actor, its events kept in (eventTimestamp, seq) order. */
export interface StoredSession {
  readonly actorId: string;
  readonly sessionId: string;
  /** Epoch seconds. */
  readonly createdAt: number;
  readonly seq: number;
  readonly events: StoredEvent[];
}

/** An actor and its sessions. */
export interface StoredActor {
  readonly actorId: string;
  readonly seq: number;
  readonly sessions: Map<string, StoredSession>;
}

/** A long-term memory record (mutable only through batch update / delete). */
export interface StoredRecord {
  readonly memoryRecordId: string;
  text: string;
  memoryStrategyId: string;
  namespaces: string[];
  metadata: Record<string, RecordMetadataValue> | undefined;
  /** Epoch seconds. */
  readonly createdAt: number;
  /** Epoch seconds of the last update. */
  updatedAt: number;
  readonly seq: number;
}

/** A failed long-term extraction job, as `ListMemoryExtractionJobs` reports it. */
export interface StoredExtractionJob {
  readonly jobID: string;
  readonly actorId?: string;
  readonly sessionId?: string;
  readonly strategyId?: string;
  readonly failureReason?: string;
  readonly messages: readonly { readonly eventId: string; readonly messageIndex: number }[];
  readonly seq: number;
}

/** The remembered answer to an idempotent request carrying a `clientToken`. */
export interface IdempotentReplay {
  readonly fingerprint: string;
  readonly output: unknown;
}

/** One AgentCore memory resource. */
export class MemoryState {
  /** The memory id (never its ARN). */
  readonly memoryId: string;
  readonly actors = new Map<string, StoredActor>();
  readonly records = new Map<string, StoredRecord>();
  readonly failedJobs = new Map<string, StoredExtractionJob>();
  readonly idempotency = new Map<string, IdempotentReplay>();
  private seq = 0;

  constructor(memoryId: string) {
    this.memoryId = memoryId;
  }

  /** Next creation sequence number (total order of everything created in this memory). */
  nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }

  /** The session, created (with its actor) when missing. */
  session(actorId: string, sessionId: string, now: number): StoredSession {
    let actor = this.actors.get(actorId);
    if (!actor) {
      actor = { actorId, seq: this.nextSeq(), sessions: new Map() };
      this.actors.set(actorId, actor);
    }
    let session = actor.sessions.get(sessionId);
    if (!session) {
      session = { actorId, sessionId, createdAt: now, seq: this.nextSeq(), events: [] };
      actor.sessions.set(sessionId, session);
    }
    return session;
  }

  /** The session when it exists. */
  findSession(actorId: string, sessionId: string): StoredSession | undefined {
    return this.actors.get(actorId)?.sessions.get(sessionId);
  }
}

/** Strips an ARN (`arn:aws:bedrock-agentcore:region:account:memory/ID`) down to the memory id. */
export function memoryIdOf(idOrArn: string): string {
  const slash = idOrArn.lastIndexOf('memory/');
  return idOrArn.startsWith('arn:') && slash >= 0 ? idOrArn.slice(slash + 'memory/'.length) : idOrArn;
}
