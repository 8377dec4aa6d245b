// Why: a new backend should be a small mapping of a few primitives, not a fourth copy of the
// write pipeline. This is the whole contract a backend implements: versioned byte values by key
// in a few namespaces, one compare-and-swap batch, an ordered scan by prefix, close. Everything
// above it (paths, validation, the credential scan, path twins, conflicts, state, records,
// caching) is supplied once by `createStore`. Smaller than unstorage's drivers (no meta, watch or
// clear), LangGraph's `BaseStore` (no search or namespace listing in the base) and keyv (no
// serialisation), and unlike all three it has compare-and-swap, which memory needs.

import type { ReadAllOptions, StoredDocument, WriteMetadata } from '../store/contract.js';
import type { StoreHistory } from '../store/history-contract.js';
import type { LexicalCandidateQuery, SearchCandidates } from '../store/search-contract.js';

/** Version of the driver contract. A driver declares it; `createStore` refuses others. */
export const KIT_DRIVER_VERSION = 1 as const;

/**
 * The namespaces `createStore` uses: `documents` (memory documents by normalised path; verified
 * and task records live there too, under `.repomem/`) and `state` (JSON state values by key).
 * A driver must accept any namespace name made of lower-case letters, digits and `-`.
 */
export type KitNamespace = string;

/**
 * How a driver applies {@link KitDriver.write}:
 * - `atomic`: a batch of several changes is checked and applied all-or-nothing (a transaction);
 * - `isolated`: the driver receives the whole batch, checks every precondition and applies every
 *   change while holding its own writer lock(s) (writers of every process are serialised, so a
 *   writer never sees half a batch and nothing is applied when a precondition fails), but a crash
 *   or a reader during the apply may see it half-applied (a directory's lock-file batches);
 * - `per-key`: each change is its own compare-and-swap; `createStore` then sends one change per
 *   call and puts back what it applied when a later change of the batch conflicts, so a batch
 *   is still all-or-nothing for writers, but a reader (or a crash) may see it half-applied.
 *
 * Only `atomic` drivers give a store `capabilities.atomicBatch`.
 */
export type KitBatchGuarantee = 'atomic' | 'isolated' | 'per-key';

/** A stored value, as {@link KitDriver.read} and {@link KitDriver.scan} return it. */
export interface KitEntry {
  /** The key, exactly as written. */
  readonly key: string;
  /** The version stored with the value (supplied by `createStore` at write time, or the driver's own with `assignsVersions`). */
  readonly version: string;
  /** Value size in bytes. */
  readonly size: number;
  /** The bytes; omitted only when the scan asked for `values: false`. */
  readonly value?: Uint8Array;
}

/** One change of a {@link KitDriver.write} batch. */
export interface KitChange {
  readonly namespace: KitNamespace;
  readonly key: string;
  /** New bytes, or `null` to delete the key. */
  readonly value: Uint8Array | null;
  /** Version to store with the new bytes (`null` for a delete). The driver stores it verbatim (unless it `assignsVersions`). */
  readonly version: string | null;
  /**
   * Precondition checked in the same step as the change: a version (the stored version must be
   * exactly it), `null` (the key must be absent) or `undefined` (no check).
   */
  readonly expected?: string | null;
  /**
   * Only with the `timeToLive` capability: when the value expires (milliseconds since the epoch).
   * An expired value is never returned by `read` or `scan`.
   */
  readonly expiresAt?: number;
}

/** A precondition of a batch that did not hold. `actual` is `null` when the key is absent. */
export interface KitConflict {
  readonly namespace: KitNamespace;
  readonly key: string;
  readonly actual: string | null;
}

/** Outcome of {@link KitDriver.write}: applied, or nothing applied and at least one failed precondition. */
export type KitWriteResult =
  | {
      readonly status: 'committed';
      /**
       * Only from a driver with {@link KitDriver.assignsVersions}: the version stored for each
       * change, in the batch's order (`null` for a delete).
       */
      readonly versions?: readonly (string | null)[];
    }
  | { readonly status: 'conflict'; readonly conflicts: readonly KitConflict[] };

/** Options of {@link KitDriver.scan}. */
export interface KitScanOptions {
  /** Only keys starting with this string (`''`: the whole namespace). */
  readonly prefix: string;
  /** `false`: entries without `value` (a listing). Default `true`. */
  readonly values?: boolean;
}

/** Options of the optional {@link KitDriver.readAll}: the store's, with the prefix normalised. */
export interface KitReadAllOptions extends ReadAllOptions {
  /** Normalised document path prefix (`''`: every document). */
  readonly prefix: string;
}

/**
 * Reserved shape of vector candidates (the retrieval work owns it; until a driver answers it,
 * vectors are documents under `.repomem/vectors/<embedder>/`, kept by core's semantic index
 * through the store contract). Not called yet.
 */
export interface KitVectorQuery {
  readonly kind: 'vector';
  /** The embedder's `id` (vectors of two embedders are never compared); `unsupported` for another. */
  readonly embedderId: string;
  /** The query vector (the embedder's `dimensions` long). */
  readonly vector: Float32Array;
  /** Normalised document path prefix (`''` for all). */
  readonly prefix: string;
  /** Most documents to name. */
  readonly limit: number;
}

/**
 * Answer to a {@link KitVectorQuery}: documents by cosine similarity of the query and their best
 * chunk (-1..1, as core's semantic index scores them), best first; or `unsupported`.
 */
export type KitVectorCandidates =
  | { readonly status: 'candidates'; readonly candidates: readonly { readonly path: string; readonly score: number }[] }
  | { readonly status: 'unsupported'; readonly reason: string };

/**
 * A storage driver. Four members are required (`read`, `scan`, `write`, `close`); the
 * capabilities after them are optional, declared by being present. Errors: throw `RepomemError` with
 * `BACKEND_UNAVAILABLE` for a backend that cannot be reached after the driver's own retries, and
 * `FILE_TOO_LARGE` for a value the backend cannot hold; never report a failed precondition as an
 * error (that is a `conflict` result).
 */
export interface KitDriver {
  /** Driver contract version; must equal {@link KIT_DRIVER_VERSION}. */
  readonly kit: typeof KIT_DRIVER_VERSION;
  /** Short backend name for diagnostics (`memory`, `dynamodb`). */
  readonly name: string;
  /** How `write` applies a batch (see {@link KitBatchGuarantee}). */
  readonly batch: KitBatchGuarantee;
  /** Largest value the driver holds in one key, in bytes (the store's `maxDocumentBytes` at most). */
  readonly maxValueBytes: number;
  /**
   * The entries of `keys` in `namespace`, in the order asked, `undefined` for an absent key, with
   * their values. Must see every write acknowledged before it was called (strongly consistent).
   */
  read(namespace: KitNamespace, keys: readonly string[]): Promise<(KitEntry | undefined)[]>;
  /** Every entry of `namespace` whose key starts with `options.prefix`, sorted by key ascending. */
  scan(namespace: KitNamespace, options: KitScanOptions): Promise<KitEntry[]>;
  /**
   * Apply a batch with its preconditions (see {@link KitBatchGuarantee}). `metadata` is what the
   * caller said about the write (message, trailers); a driver with `history` records it.
   */
  write(changes: readonly KitChange[], metadata?: WriteMetadata): Promise<KitWriteResult>;
  /** Release connections. `createStore` never calls the driver again afterwards. */
  close(): Promise<void>;

  /**
   * Optional: the backend's own full-text index over the `documents` namespace (it indexes what
   * it stores there). Answers exactly as `MemoryStore.searchCandidates` documents, or `unsupported`.
   */
  readonly fullText?: { candidates(query: LexicalCandidateQuery): Promise<SearchCandidates> };
  /** Optional, reserved: nearest documents to a vector (see {@link KitVectorQuery}). */
  readonly vectors?: { candidates(query: KitVectorQuery): Promise<KitVectorCandidates> };
  /** Optional: past revisions of the `documents` namespace (git's commits). */
  readonly history?: StoreHistory;
  /**
   * Optional: a cheap token for the `documents` namespace's current content (a change counter,
   * a commit id), so the store's `revision()` need not list and hash every key. It must change
   * whenever any document changes, by any writer of any process; equal tokens must mean equal
   * content. Without it `revision()` is a hash of the listing.
   */
  readonly revision?: { current(): Promise<string> };
  /**
   * Optional: the stored keys of `namespace` that could be path twins of `keys` (differ from one
   * of them only in letter case or Unicode normalisation at some level), found the backend's own
   * way (a directory reads each level's siblings). It may return more keys than the twins, never
   * fewer. Without it `createStore` lists the keys under each new key's deepest existing directory.
   */
  readonly twins?: { candidates(namespace: KitNamespace, keys: readonly string[]): Promise<string[]> };
  /**
   * Optional: the driver keeps no versions of its own. Every entry's `version` is the SHA-256
   * (lower-case hex) of its bytes, computed when read, and {@link KitChange.version} is ignored
   * (plain files have nowhere to keep a version, and a file edited by hand must get a new one).
   * `createStore` writes exactly those versions (documents and state values are versioned by the
   * SHA-256 of their bytes), so a store on such a driver behaves the same; the driver suite then
   * expects content hashes where it wrote versions of its own.
   */
  readonly contentVersions?: true;
  /**
   * Optional: the backend's own one-pass read of the `documents` namespace, answering exactly as
   * `MemoryStore.readAll` documents (a directory reads each file once for its bytes and version,
   * streams with `each`, and skips files its `known` stamps name). `options.prefix` arrives
   * normalised. Without it `createStore` lists, then reads what its content cache lacks.
   */
  readonly readAll?: { read(options: KitReadAllOptions): Promise<StoredDocument[]> };
  /**
   * Optional: the driver chooses the versions it stores instead of {@link KitChange.version}
   * (git: a document's blob id, a state value's commit id, which earlier releases already handed
   * out). Its `write` then answers `versions`, and `createStore` reports those; versions are still
   * compared only for equality, and a new value must get a new version.
   */
  readonly assignsVersions?: true;
  /**
   * Optional: how the write pipeline reads a batch's current `documents` entries, given each
   * key's expected version (`undefined`: none). The driver may answer a key from what this
   * instance last read or wrote when that entry's version equals the expected one, saving a
   * read before the write (AgentCore: the head a `get` just read); its `write` still checks every
   * precondition, so a stale answer ends in a conflict (on a `per-key` driver after what was
   * applied is put back), never a lost update. Without it the pipeline calls `read`.
   */
  readonly preconditions?: {
    read(
      namespace: KitNamespace,
      keys: readonly string[],
      expected: readonly (string | null | undefined)[],
    ): Promise<(KitEntry | undefined)[]>;
  };
  /**
   * Optional, `per-key` drivers only: `createStore` may send up to `limit` single-change writes
   * of one batch at once instead of one after another (a backend with high latency and no
   * multi-key call: AgentCore's appends). Each change is still its own compare-and-swap; when one
   * conflicts or fails, no further change is started and every change that committed is put back,
   * as in the sequential case.
   */
  readonly concurrentWrites?: { readonly limit: number };
  /**
   * Optional: the driver honours {@link KitChange.expiresAt} (an expired value is never returned);
   * `granularitySeconds` is how long after expiry its storage may still be occupied.
   */
  readonly timeToLive?: { readonly granularitySeconds: number };
}
