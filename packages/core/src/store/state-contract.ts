// Why: sync cursors, thread state and scan cursors are not memory documents: they must not be
// searched, listed with the tree or committed beside MEMORY.md, yet they need the same
// no-lost-update guarantee. This is the small store-neutral API for them: a JSON value per key,
// read with a version and written with a compare-and-swap on that version. Each store keeps it
// where it belongs (git refs, a table, files outside the memory directory, a record namespace).
import type { ExpectedVersion } from './contract.js';
import type { MAX_STATE_VALUE_CHARACTERS, normalizeStateKey } from './state-values.js';

/** A JSON value as `JSON.parse` returns it. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A state value with the version to pass back as `expectedVersion`. */
export interface StateEntry {
  /** The key, as normalised by {@link normalizeStateKey}. */
  readonly key: string;
  /** The stored JSON value. */
  readonly value: JsonValue;
  /** Opaque; changes whenever the value changes. */
  readonly version: string;
}

/** Outcome of a state write: applied, or the precondition did not hold (`actual` null = absent). */
export type StateWriteResult =
  | { readonly status: 'committed'; readonly version: string | null }
  | { readonly status: 'conflict'; readonly expected: string | null; readonly actual: string | null };

/** Options of {@link StoreState.list}. */
export interface StateListOptions {
  /** Only keys starting with this prefix (`sync/`). */
  readonly prefix?: string;
}

/**
 * Store-neutral state. Keys are `/`-separated segments of letters, digits, `.`, `_`, `-`, `%`
 * and `@` (see {@link normalizeStateKey}); values are JSON of at most
 * {@link MAX_STATE_VALUE_CHARACTERS} characters once serialised. A key may also be the leading
 * segments of another (`sync/a` and `sync/a/deep` coexist), so a store whose namespace is a
 * hierarchy (git refs, files) must encode keys so that both fit.
 */
export interface StoreState {
  /** The value under `key`, or `undefined`. */
  get(key: string): Promise<StateEntry | undefined>;
  /**
   * Set `key` to `value` when `expectedVersion` holds (a version: must match; `null`: must be
   * absent; omitted: blind write). Throws `INVALID_ARGUMENT` for a bad key or a value that is
   * not JSON or too large; never partially written.
   */
  put(key: string, value: JsonValue, expectedVersion?: ExpectedVersion): Promise<StateWriteResult>;
  /** Remove `key` when `expectedVersion` holds; `committed` with version `null` (also when absent and unchecked). */
  delete(key: string, expectedVersion?: ExpectedVersion): Promise<StateWriteResult>;
  /** Keys and values, sorted by key. */
  list(options?: StateListOptions): Promise<StateEntry[]>;
}
