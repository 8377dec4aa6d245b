// Why: the one small, versioned interface every backend implements (a directory, a git tree,
// SQL rows, AgentCore records, memory). Semantics (bullets, ranking, policies) live in core once;
// a store only persists documents and small state values, and may offer search candidates and
// history. Writes are batches guarded by an expected version per document, so a concurrent
// writer is detected and never silently overwritten. Capabilities say what a store guarantees,
// and every flag is read by the facade or the conformance suite. docs/architecture.md has the
// capability table of every store.
import type { StoreHistory } from './history-contract.js';
import type { SearchCandidateQuery, SearchCandidates } from './search-contract.js';
import type { StoreState } from './state-contract.js';

/** Version of this contract. A store declares the version it implements; core refuses others. */
export const STORE_SPECIFICATION_VERSION = 2 as const;

/**
 * How a store enforces `expectedVersion`:
 * - `native`: the backend checks and applies in one step (a transaction, a ref compare-and-swap,
 *   a lock every writer takes);
 * - `emulated`: the store serialises writers itself (a lease record) because the backend has no
 *   compare-and-swap; safe against writers that use the same store implementation, not against
 *   others writing to the backend directly.
 */
export type CompareAndSwapKind = 'native' | 'emulated';

/**
 * What a store guarantees. The conformance suite runs the groups a flag promises and says which
 * groups it skipped and why; the memory facade reads them to choose its write and read paths.
 * Optional APIs (`searchCandidates`, `history`, `readAll`, `getMany`) are declared by being present.
 */
export interface StoreCapabilities {
  /** Bytes round-trip exactly, including non-UTF-8 content (git, directory, SQLite, memory). */
  readonly binarySafe: boolean;
  /**
   * Writing one document is all-or-nothing: a reader or a crash sees the old or the new bytes,
   * never part of them. `false` for a store that must split a large document across records.
   */
  readonly atomicDocument: boolean;
  /** A batch touching several documents is all-or-nothing, also across a crash. */
  readonly atomicBatch: boolean;
  /** A read issued after a write was acknowledged sees that write (from any client of the store). */
  readonly readYourWrites: boolean;
  /** How expected versions are enforced (see {@link CompareAndSwapKind}). */
  readonly compareAndSwap: CompareAndSwapKind;
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
  /**
   * Optional streaming: when given, each accepted document is handed to it as soon as it is read
   * (in path order) and not kept, and `readAll` resolves to an empty array, so a caller holds one
   * document at a time (a search over a tree larger than memory). A store that ignores this
   * option returns the documents instead; callers handle both (core's search does). A store may
   * compute a streamed document's `version` only when it is read.
   */
  readonly each?: (document: StoredDocument, stamp?: string) => void;
  /**
   * Optional, with `each`, for stores over files: asked with an accepted document's path and a
   * stamp of its file (size, modification time and identity) before it is read; a document it
   * answers `true` for is neither read nor streamed (the caller kept what it needs from a read of
   * the same stamp, e.g. an on-disk search cache). Only stamps the store trusts are offered
   * (not a file modified within the filesystem's timestamp granularity), and `each` receives the
   * stamp of the bytes it is given under the same rule. Stores without such stamps never ask.
   */
  readonly known?: (path: string, stamp: string) => boolean;
}

/**
 * Expected state of a document (or state value) at write time:
 * - a version string: it must currently have exactly this version;
 * - `null`: it must not exist;
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

/**
 * Where a change was learned, so memories can later be tied to the code they describe
 * (branch-aware memory): stores with history record it (git: trailers), others may ignore it.
 */
export interface WriteSource {
  /** Commit of the code repository the agent was working on (full id). */
  readonly commit?: string;
  /** Branch of the code repository the agent was working on, e.g. `main`, `feature/x`. */
  readonly branch?: string;
}

/** Optional metadata a store may record with a write (commit message, trailers...). */
export interface WriteMetadata {
  /** One-line summary, e.g. `chore(memory): add bullet to MEMORY.md`. */
  readonly message?: string;
  /** Longer description after the summary (the body of a git commit). */
  readonly body?: string;
  /** Attribution trailers such as `Task-Id`, `Prompt-Version`, `Thread-Key`. */
  readonly trailers?: Readonly<Record<string, string>>;
  /** The code commit and branch the change was learned on. */
  readonly source?: WriteSource;
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
    }
  | { readonly status: 'conflict'; readonly conflicts: readonly WriteConflict[] };

/**
 * The storage contract, version 2. Implementations must be safe for concurrent use from one
 * process, and (through `compareAndSwap`) across every process that opens the same backing data.
 */
export interface MemoryStore {
  /** Contract version implemented; must equal {@link STORE_SPECIFICATION_VERSION}. */
  readonly specificationVersion: typeof STORE_SPECIFICATION_VERSION;
  /** Short backend name for diagnostics, e.g. `directory`, `memory`, `git`, `sqlite`. */
  readonly name: string;
  /** Declared guarantees. */
  readonly capabilities: StoreCapabilities;
  /** Read one document, or `undefined` when it does not exist. */
  get(path: string): Promise<StoredDocument | undefined>;
  /**
   * Optional. Read several documents in one call (one round trip on a network store): the same
   * answers as `get` of each path, in the order asked (`undefined` for a missing one). Core uses
   * it to read search candidates; without it, each is read with `get`.
   */
  getMany?(paths: readonly string[]): Promise<(StoredDocument | undefined)[]>;
  /** List documents, optionally only those under a path prefix (`daily/`), sorted by path. */
  list(prefix?: string): Promise<DocumentEntry[]>;
  /**
   * Optional. Every document under `options.prefix` that `options.accept` takes, with its
   * content, sorted by path: what `list(prefix)` followed by `get()` of each entry returns, read
   * in one pass. Core's one-shot search uses it when present and falls back to `list`/`get`.
   * With `options.each`, documents are streamed to it instead of returned (see {@link ReadAllOptions.each}).
   */
  readAll?(options?: ReadAllOptions): Promise<StoredDocument[]>;
  /**
   * Apply a batch (all-or-nothing when `capabilities.atomicBatch`) or report every failed
   * precondition. Does only the write: it never computes the whole store's revision.
   */
  write(operations: readonly WriteOperation[], metadata?: WriteMetadata): Promise<WriteResult>;
  /**
   * Opaque token identifying the whole store's current content; changes whenever any document
   * changes. Search caches are keyed by it. Computed when asked (it may read the whole store).
   */
  revision(): Promise<string>;
  /**
   * Optional. Candidate documents for a query from the backend's own index (full-text now,
   * vectors later); core ranks them and builds the snippets, so a query ranks the same on every
   * store. Answer `{ status: 'unsupported' }` for a query kind or shape the index cannot answer
   * exactly as documented; core then searches the documents itself.
   */
  searchCandidates?(query: SearchCandidateQuery): Promise<SearchCandidates>;
  /** Optional. Past revisions of the store (git: the branch's commits). */
  readonly history?: StoreHistory;
  /**
   * Small JSON values by key (sync cursors, thread state, scan cursors), kept off the document
   * tree and out of search, each written with its own compare-and-swap.
   */
  readonly state: StoreState;
  /** Release resources. Further calls throw `STORE_CLOSED`. */
  close(): Promise<void>;
}
