// Why: the small storage contract verified memory needs, so the lifecycle logic (contradictions,
// expiry, recall) lives once in core and each store only persists records: SQLite natively with
// indexes, any MemoryStore as JSON documents. Writes are compare-and-swap on `revision` so two
// processes never lose each other's changes.
import type { MemoryStatus, TelemetryEvent, TelemetryEventType, VerifiedMemory } from './record.js';

/** One record write: the full new record, and the revision it must currently have (`null` = must not exist). */
export interface RecordWrite {
  /** The record as it should be stored (its `revision` already incremented by the caller). */
  readonly record: VerifiedMemory;
  /** The stored record's `revision` this write was computed from; `null` when creating. */
  readonly expectedRevision: number | null;
}

/** A write whose expectation did not hold. */
export interface RecordConflict {
  /** Memory id. */
  readonly id: string;
  /** What the caller expected (`null` = absent). */
  readonly expectedRevision: number | null;
  /** What is stored (`null` = absent). */
  readonly actualRevision: number | null;
}

/** Outcome of {@link VerifiedMemoryBackend.apply}: all writes landed, or none did. */
export type RecordApplyResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly conflicts: readonly RecordConflict[] };

/** Filters shared by the record queries. */
export interface RecordQuery {
  /** Repository; queries never return another repository's records. */
  readonly repo: string;
  /** Statuses to include (default: all). */
  readonly statuses?: readonly MemoryStatus[];
  /** When set, exclude records whose `expires_at` is at or before this ISO timestamp. */
  readonly liveAt?: string;
  /** Most records to return (default: all). */
  readonly limit?: number;
}

/** Per-repository counts returned by {@link VerifiedMemoryBackend.stats}. */
export interface RecordStats {
  /** Repository. */
  readonly repo: string;
  /** Records by status. */
  readonly byStatus: Readonly<Record<MemoryStatus, number>>;
  /** Active records whose `expires_at` is at or before `liveAt` (0 when not asked). */
  readonly expired: number;
  /** Telemetry events by type. */
  readonly events: Readonly<Record<TelemetryEventType, number>>;
}

/**
 * Storage of verified memories and their telemetry. Implementations: the document-backed one in
 * core (`createDocumentRecordBackend`, any MemoryStore) and the native SQLite one.
 * `runRecordBackendConformance` in `@repomem/core/testing` is the definition of "correct".
 */
export interface VerifiedMemoryBackend {
  /** Short name for messages (`sqlite`, `documents`). */
  readonly name: string;
  /**
   * Atomically apply `writes` (each checked against its `expectedRevision`) and append `events`.
   * Either everything lands or nothing does and the conflicts are returned.
   */
  apply(writes: readonly RecordWrite[], events: readonly TelemetryEvent[]): Promise<RecordApplyResult>;
  /** One record of `repo` by id; `undefined` when absent or in another repository. */
  get(repo: string, id: string): Promise<VerifiedMemory | undefined>;
  /** Records newest first by `refreshed_at`, then `created_at`, then `id` (descending). */
  recent(query: RecordQuery): Promise<VerifiedMemory[]>;
  /** Records with at least one citation whose path equals `path` (normalised), newest first. */
  byPath(query: RecordQuery & { readonly path: string }): Promise<VerifiedMemory[]>;
  /** Records whose {@link subjectKey} equals `subjectKey`, newest first. */
  bySubject(query: RecordQuery & { readonly subjectKey: string }): Promise<VerifiedMemory[]>;
  /**
   * Full-text search over subject, fact, reason and scope. The query is plain words, matched
   * literally and case-insensitively (quotes, `*`, `-`, `NEAR` are text, never syntax); every
   * word must match. Best match first.
   */
  search(query: RecordQuery & { readonly text: string }): Promise<VerifiedMemory[]>;
  /**
   * Remove one record when its `revision` is still `expectedRevision` (compare-and-swap, so a
   * record changed meanwhile is never removed); `true` when one was removed, `false` when it is
   * absent or changed. Its telemetry stays (an audit log). Optional: the quarantine review
   * (`deleteQuarantinedMemories`) deletes through it and reports `UNSUPPORTED` without it; every
   * backend repomem ships implements it.
   */
  delete?(repo: string, id: string, expectedRevision: number): Promise<boolean>;
  /** Append telemetry events that go with no record change (retrieved, applied). */
  appendEvents(events: readonly TelemetryEvent[]): Promise<void>;
  /** Telemetry of `repo`, oldest first; optionally of one memory, optionally the last `limit`. */
  events(query: {
    readonly repo: string;
    readonly memoryId?: string;
    readonly limit?: number;
  }): Promise<TelemetryEvent[]>;
  /** Counts for `repo`; `liveAt` enables the `expired` count. */
  stats(query: { readonly repo: string; readonly liveAt?: string }): Promise<RecordStats>;
  /** Release resources (idempotent). */
  close(): Promise<void>;
}
