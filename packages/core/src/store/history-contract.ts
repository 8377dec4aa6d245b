// Why: "what did the agent know, and when?" (forensic memory) is a question for any store that
// keeps past revisions, not only git. The optional history API answers it with store-neutral
// types; the seed-002 moments (checkpoint, session close, promote) are a core service over it.
import type { StoredDocument } from './contract.js';

/** One past revision of the store, newest first in {@link StoreHistory.log}. */
export interface HistoryEntry {
  /** Store revision id (git: the commit id). */
  readonly revision: string;
  /** When it was written. */
  readonly time: Date;
  /** Summary line (`chore(memory): add bullet to MEMORY.md`, `checkpoint: ...`). */
  readonly message: string;
  /** Text between the summary and the trailers (`''` when none). */
  readonly body: string;
  /** Attribution trailers (`Task-Id`, `Thread-Key`...). */
  readonly trailers: Readonly<Record<string, string>>;
  /** Who wrote it, as the store records it (git: `Name <email>`). */
  readonly author: string;
  /** Revisions this one follows (none for the first). */
  readonly parents: readonly string[];
}

/** Options of {@link StoreHistory.log}. */
export interface HistoryLogOptions {
  /** Only revisions that changed this document (added, modified or deleted it). */
  readonly path?: string;
  /** At most this many revisions (newest first). */
  readonly limit?: number;
  /**
   * Leave out revisions whose every change lies under this directory prefix (e.g. `.repomem/`,
   * where repomem keeps its own records), as if they were not there. Ignored with `path`.
   */
  readonly hidePrefix?: string;
}

/**
 * A point in history: a revision id (git also takes abbreviated ids and ref names), or a `Date`
 * meaning the last revision at or before it.
 */
export type HistoryPoint = string | Date;

/** Outcome of {@link StoreHistory.readAt}. */
export type HistoryReadResult =
  /** The document as of `revision`. */
  | { readonly status: 'found'; readonly revision: HistoryEntry; readonly document: StoredDocument }
  /** The document did not exist in `revision`. */
  | { readonly status: 'absent'; readonly revision: HistoryEntry }
  /** The point is before the first revision, or the store has no revisions yet. */
  | { readonly status: 'no_revision' };

/** Past revisions of a store. Present on a store only when it keeps them. */
export interface StoreHistory {
  /** Revisions newest first; with `path`, only those that changed that document. */
  log(options?: HistoryLogOptions): Promise<HistoryEntry[]>;
  /** A document as of a revision or a moment. Throws `NOT_FOUND` for an unknown revision id. */
  readAt(path: string, at: HistoryPoint): Promise<HistoryReadResult>;
}
