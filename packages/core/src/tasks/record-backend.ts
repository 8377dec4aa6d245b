// Why: task memory (episodes, review rules, preferences, knowledge learned at task end, context
// receipts) must run the same on every store. This is the one small storage contract it needs:
// typed JSON records per repository and kind, written all-or-nothing with compare-and-swap on a
// revision, listed newest first and searched by plain words. Core's document-backed
// implementation serves any MemoryStore; stores with native records (AgentCore namespaces,
// PostgreSQL tables) implement it directly. `runTaskRecordBackendConformance` in
// `@repomem/core/testing` is the definition of "correct".
import { z } from 'zod';
import { RepoSlugSchema } from '../envelope/fields.js';
import { MAX_SERIALIZED_MEMORY_CHARS } from '../verified/record.js';

/** The kinds of task-memory record, each in its own collection (AgentCore: its own namespace). */
export const TASK_RECORD_KINDS = ['episode', 'rule', 'preference', 'knowledge', 'receipt'] as const;
/** One kind of task-memory record. */
export type TaskRecordKind = (typeof TASK_RECORD_KINDS)[number];

/** Longest record id, in characters. */
export const MAX_TASK_RECORD_ID_CHARS = 128;
/**
 * Longest serialised record (`JSON.stringify` of the whole record), in characters: one record
 * fits in one AgentCore memory record, like a verified memory.
 */
export const MAX_SERIALIZED_TASK_RECORD_CHARS = MAX_SERIALIZED_MEMORY_CHARS;

/**
 * A record id: 1-128 characters of letters, digits, `.`, `_`, `-`, `:`, `@` and `/` (task ids,
 * logins, content hashes), not starting or ending with `/` and without `//`, `.` or `..`
 * segments. Backends whose identifiers are narrower encode ids reversibly.
 */
export const TaskRecordIdSchema = z
  .string({ error: 'record id must be a string' })
  .min(1, { message: 'record id is empty' })
  .max(MAX_TASK_RECORD_ID_CHARS, { message: `record id is longer than ${MAX_TASK_RECORD_ID_CHARS} characters` })
  .regex(/^[A-Za-z0-9._:@/-]+$/, {
    message: 'record id may hold only letters, digits and . _ : @ / -',
  })
  .refine((value) => value.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..'), {
    message: 'record id has an empty, "." or ".." segment',
  });

/** A JSON object (the kind-specific body of a record). */
export type TaskRecordData = { readonly [key: string]: unknown };

/** A stored task-memory record. */
export const TaskRecordSchema = z
  .object({
    kind: z.enum(TASK_RECORD_KINDS),
    repo: RepoSlugSchema,
    id: TaskRecordIdSchema,
    /** 1 on creation, +1 on every write (the compare-and-swap token). */
    revision: z.number().int().min(1),
    /** ISO-8601 UTC time of the last write; lists are newest first by it. */
    updated_at: z.iso.datetime({ offset: true, message: 'expected an ISO 8601 timestamp' }),
    /**
     * Words a text search matches (subject, rule text, approach...): chosen by the writer, so
     * each backend indexes the same text.
     */
    text: z.string().max(MAX_SERIALIZED_TASK_RECORD_CHARS),
    /** Kind-specific body, validated by the task-memory module that owns the kind. */
    data: z.record(z.string(), z.unknown()),
  })
  .refine((record) => JSON.stringify(record).length <= MAX_SERIALIZED_TASK_RECORD_CHARS, {
    message: `record is longer than ${MAX_SERIALIZED_TASK_RECORD_CHARS} characters as JSON`,
  });
/** A stored task-memory record. */
export type TaskRecord = z.infer<typeof TaskRecordSchema>;

/** One record write: the full new record and the revision it must currently have. */
export interface TaskRecordWrite {
  /** The record as it should be stored (its `revision` already incremented by the caller). */
  readonly record: TaskRecord;
  /** The stored record's `revision` this write was computed from; `null` when creating. */
  readonly expectedRevision: number | null;
}

/** A write whose expectation did not hold. */
export interface TaskRecordConflict {
  /** Kind of the record. */
  readonly kind: TaskRecordKind;
  /** Record id. */
  readonly id: string;
  /** What the caller expected (`null` = absent). */
  readonly expectedRevision: number | null;
  /** What is stored (`null` = absent). */
  readonly actualRevision: number | null;
}

/** Outcome of {@link TaskRecordBackend.apply}: every write landed, or none did. */
export type TaskRecordApplyResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly conflicts: readonly TaskRecordConflict[] };

/** Which records of one kind a list or search returns. */
export interface TaskRecordQuery {
  /** Repository; never returns another repository's records. */
  readonly repo: string;
  /** Kind of record. */
  readonly kind: TaskRecordKind;
  /**
   * Only ids that start with this prefix (for example `pr-42/`): compared character by
   * character, case-sensitively; made of the id characters only (`INVALID_ARGUMENT` otherwise).
   */
  readonly idPrefix?: string;
  /** Most records to return, a non-negative integer (default: all). */
  readonly limit?: number;
  /**
   * Aborts a slow read (hydration passes each source's signal, aborted on its timeout). Network
   * backends should cancel their requests and reject with the signal's reason; others may ignore it.
   */
  readonly signal?: AbortSignal;
}

/**
 * How a search combines its words: `all` (default) keeps records holding every word of the
 * query, `any` those holding at least one (hydration ranks by a task description this way).
 */
export type TaskRecordMatch = 'all' | 'any';

/** A {@link TaskRecordQuery} with search text. */
export interface TaskRecordSearchQuery extends TaskRecordQuery {
  /**
   * Plain words (core's query tokenizer: lowercased words of 2+ characters or digits); every
   * character is text, never query syntax. At most 1,024 characters and 64 distinct words.
   */
  readonly text: string;
  /** How words combine (default `all`). */
  readonly match?: TaskRecordMatch;
}

/** A stored record a backend could not read and left out (see {@link TaskRecordBackend.drainSkippedRecords}). */
export interface SkippedTaskRecord {
  /** Repository queried. */
  readonly repo: string;
  /** Kind queried. */
  readonly kind: TaskRecordKind;
  /** Where the record is kept (a document path, a row key). */
  readonly location: string;
  /** What is wrong with it (not JSON, truncated, another repository's record...). */
  readonly problem: string;
}

/**
 * Storage of task-memory records. Every method validates its arguments first and throws
 * `RepomemError` `INVALID_ARGUMENT` for a repository that is not `owner/name`, an unknown kind,
 * an id outside {@link TaskRecordIdSchema}, a record failing {@link TaskRecordSchema} (16,000
 * characters as JSON at most), a `revision` other than `expectedRevision + 1` (1 when creating),
 * a bad `idPrefix` or `limit`; after `close()` every call but `close` throws `STORE_CLOSED`.
 * Implementations: `createDocumentTaskRecordBackend` in core
 * (any MemoryStore) and the native ones of record-capable stores.
 */
export interface TaskRecordBackend {
  /** Short name for messages (`documents`, `sqlite`, `agentcore`). */
  readonly name: string;
  /**
   * Atomically apply `writes` (each checked against its `expectedRevision`): either all land
   * or none does and the conflicts are returned. Writes to the same kind and id twice in one
   * call are misuse (`INVALID_ARGUMENT`).
   */
  apply(writes: readonly TaskRecordWrite[]): Promise<TaskRecordApplyResult>;
  /** One record; `undefined` when absent or in another repository. */
  get(repo: string, kind: TaskRecordKind, id: string): Promise<TaskRecord | undefined>;
  /** Records newest first by `updated_at`, then by `id` descending. */
  list(query: TaskRecordQuery): Promise<TaskRecord[]>;
  /**
   * Records whose `text` contains every word (or, with `match: 'any'`, at least one word) of
   * `text`: plain words, case-insensitive, never query syntax; a query with no word matches
   * nothing. Best match first by `scoreTaskRecordText` (distinct query words found, then their
   * occurrences); equal scores newest first. `searchTaskRecords` is the reference a native backend may
   * apply to the candidates of its own index.
   */
  search(query: TaskRecordSearchQuery): Promise<TaskRecord[]>;
  /** Remove a record if present; `true` when one was removed. */
  delete(repo: string, kind: TaskRecordKind, id: string): Promise<boolean>;
  /**
   * Records found unreadable since the last call, each reported once. A backend whose storage
   * can hold a damaged record (a truncated file, another repository's record copied in) leaves
   * it out of `get`, `list` and `search`, so one bad record never hides the others, and writing
   * its id again (as if absent) replaces it; callers show what this returns as warnings.
   */
  drainSkippedRecords?(): readonly SkippedTaskRecord[];
  /** Release resources (idempotent). */
  close(): Promise<void>;
}
