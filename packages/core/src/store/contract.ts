// Why: the one small, versioned interface every backend implements (git tree, SQLite rows,
// AgentCore records, a directory, memory). Semantics (bullets, search, policies) live in core
// once; a store only persists documents. Writes are atomic batches guarded by an expected
// version per document, so a concurrent writer is detected and never silently overwritten.
// See docs/architecture.md for how each backend satisfies it.
import type { SearchOptions, SearchResponse } from '../search/types.js';

/** Version of this contract. A store declares the version it implements; core refuses others. */
export const STORE_SPECIFICATION_VERSION = 1 as const;

/**
 * What a store can do beyond the mandatory document operations. Conformance groups that
 * need a capability run only when the store declares it.
 */
export interface StoreCapabilities {
  /** Bytes round-trip exactly, including non-UTF-8 content (git, directory, memory). */
  readonly binarySafe: boolean;
  /** A batch touching several documents is all-or-nothing even across a crash. */
  readonly atomicMultiDocument: boolean;
  /** The store keeps past revisions of documents (`history`). */
  readonly history: boolean;
  /** The store answers search natively (FTS5, AgentCore retrieval) instead of core's engine. */
  readonly nativeSearch: boolean;
  /** Several processes may open the same backing data and write concurrently. */
  readonly multiProcess: boolean;
  /** Largest document the store accepts, in bytes. */
  readonly maxDocumentBytes: number;
}

/** A document's identity and version without its content (cheap to list). */
export interface DocumentEntry {
  /** Normalised POSIX path relative to the memory root, e.g. `daily/2026-05-01.md`. */
  readonly path: string;
  /**
   * Opaque token that changes whenever the content changes. Equal content may (but need not)
   * give equal versions. Use it as `expectedVersion` and as a cache key.
   */
  readonly version: string;
  /** Content size in bytes. */
  readonly size: number;
}

/** A document with its content. */
export interface StoredDocument extends DocumentEntry {
  /** Raw bytes. Text documents are UTF-8. */
  readonly content: Uint8Array;
}

/** Options of {@link MemoryStore.readAll}. */
export interface ReadAllOptions {
  /** Only documents whose path starts with this prefix, as in `list(prefix)` (default: all). */
  readonly prefix?: string;
  /**
   * Asked with each document's path and size before its content is read; a document it refuses
   * is neither read nor returned (a search skips oversized and non-text documents this way).
   * Default: every document.
   */
  readonly accept?: (path: string, size: number) => boolean;
}

/**
 * Expected state of a document at write time:
 * - a version string: the document must currently have exactly this version;
 * - `null`: the document must not exist;
 * - `undefined` (omitted): no check (last writer wins; use only for blind overwrites).
 */
export type ExpectedVersion = string | null | undefined;

/** One operation in a write batch. */
export type WriteOperation =
  | {
      readonly kind: 'put';
      readonly path: string;
      readonly content: Uint8Array;
      readonly expectedVersion?: ExpectedVersion;
    }
  | { readonly kind: 'delete'; readonly path: string; readonly expectedVersion?: ExpectedVersion };

/** Optional metadata a store may record with a write (commit message, trailers...). */
export interface WriteMetadata {
  /** One-line summary, e.g. `chore(memory): add bullet to MEMORY.md`. */
  readonly message?: string;
  /** Attribution trailers such as `Task-Id`, `Prompt-Version`, `Thread-Key`. */
  readonly trailers?: Readonly<Record<string, string>>;
}

/** A precondition that did not hold. `actual` is `null` when the document does not exist. */
export interface WriteConflict {
  readonly path: string;
  readonly expected: string | null;
  readonly actual: string | null;
}

/** Outcome of a write batch: either everything was applied, or nothing was. */
export type WriteResult =
  | {
      readonly status: 'committed';
      /** New version of every path in the batch (`null` for deleted paths). */
      readonly versions: Readonly<Record<string, string | null>>;
      /** Store revision after the write. */
      readonly revision: string;
    }
  | { readonly status: 'conflict'; readonly conflicts: readonly WriteConflict[] };

/**
 * The storage contract. Implementations must be safe for concurrent use from one process;
 * stores declaring `multiProcess` must also be safe across processes.
 */
export interface MemoryStore {
  /** Contract version implemented; must equal {@link STORE_SPECIFICATION_VERSION}. */
  readonly specificationVersion: typeof STORE_SPECIFICATION_VERSION;
  /** Short backend name for diagnostics, e.g. `directory`, `memory`, `git`. */
  readonly name: string;
  /** Declared capabilities. */
  readonly capabilities: StoreCapabilities;
  /** Read one document, or `undefined` when it does not exist. */
  get(path: string): Promise<StoredDocument | undefined>;
  /** List documents, optionally only those under a path prefix (`daily/`), sorted by path. */
  list(prefix?: string): Promise<DocumentEntry[]>;
  /**
   * Optional. Every document under `options.prefix` that `options.accept` takes, with its
   * content, sorted by path: what `list(prefix)` followed by `get()` of each entry returns
   * (same paths, versions, sizes and bytes), read in one pass instead of reading (and, for the
   * directory store, hashing) each document twice. All accepted documents are held in memory
   * at once, so it suits one-shot reads such as a single search; core's engine uses it when
   * present and falls back to `list`/`get`. Same errors as `list` and `get`; added in contract
   * version 1 as an optional member, so stores without it stay conformant.
   */
  readAll?(options?: ReadAllOptions): Promise<StoredDocument[]>;
  /** Apply a batch atomically (see {@link StoreCapabilities.atomicMultiDocument}) or report conflicts. */
  write(operations: readonly WriteOperation[], metadata?: WriteMetadata): Promise<WriteResult>;
  /**
   * Opaque token identifying the whole store's current content; changes whenever any document
   * changes. Search caches are keyed by it.
   */
  revision(): Promise<string>;
  /**
   * Native search, present only when `capabilities.nativeSearch` is true (FTS5, AgentCore
   * retrieval). Stores without it are searched by core's engine over `list`/`get`.
   */
  search?(query: string, options?: SearchOptions): Promise<SearchResponse>;
  /** Release resources. Further calls throw `STORE_CLOSED`. */
  close(): Promise<void>;
}
