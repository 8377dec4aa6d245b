// Why: the public shape of the memory facade, kept apart from its implementation so the CLI,
// stores and docs can depend on the contract while the semantics evolve behind it.
import type { MemoryMode } from '../policy/memory-policy.js';
import type { SearchOptions, SearchResponse } from '../search/types.js';
import type { MemoryStore, WriteMetadata } from '../store/contract.js';
import type { MemoryFile, UpdateOutcome } from './outcomes.js';

/** Add `text` as a bullet to `section` of `file`. */
export interface AddInput {
  readonly file: MemoryFile;
  readonly section: string;
  readonly text: string;
}

/** Rewrite the single bullet of `section` matching `match` to `with`. */
export interface ReplaceInput {
  readonly file: MemoryFile;
  readonly section: string;
  readonly match: string;
  readonly with: string;
}

/** Remove the single bullet of `section` matching `match`. */
export interface RemoveInput {
  readonly file: MemoryFile;
  readonly section: string;
  readonly match: string;
}

/** Append `text` to today's (or `date`'s, `YYYY-MM-DD`, UTC) daily log. */
export interface DailyAppendInput {
  readonly text: string;
  readonly date?: string;
}

/** What `init` did: paths it created and paths that already existed (left untouched). */
export interface InitResult {
  readonly created: readonly string[];
  readonly existing: readonly string[];
}

/** Options for {@link openMemory}. */
export interface OpenMemoryOptions {
  /** Where documents live. */
  readonly store: MemoryStore;
  /** Access mode resolved from the memory policy (default `enabled`). */
  readonly mode?: MemoryMode;
  /** Clock for daily logs (default `() => new Date()`). */
  readonly clock?: () => Date;
  /** How many times a write re-runs its operation on fresh data after a conflict (default 50). */
  readonly maxConflictRetries?: number;
  /** Metadata recorded with every write (commit trailers for stores that keep history). */
  readonly writeMetadata?: WriteMetadata;
}

/** The memory facade: bullet edits with exact outcomes, search, and tree seeding. */
export interface Memory {
  /** The store documents are read from and written to. */
  readonly store: MemoryStore;
  /** Access mode: `read-only` refuses writes with `READ_ONLY`, `disabled` refuses everything with `MEMORY_DISABLED`. */
  readonly mode: MemoryMode;
  /** Add a bullet (outcomes `added`, `duplicate`, `missing_section`, `duplicate_section`). Bad arguments throw `INVALID_ARGUMENT`. */
  add(input: AddInput): Promise<UpdateOutcome>;
  /** Rewrite the matched bullet (`replaced`, `collapsed`, `duplicate`, `no_match`, `ambiguous`, section outcomes). */
  replace(input: ReplaceInput): Promise<UpdateOutcome>;
  /** Remove the matched bullet (`removed`, `no_match`, `ambiguous`, section outcomes). */
  remove(input: RemoveInput): Promise<UpdateOutcome>;
  /** Append to `daily/<date>.md`, creating it when missing (`added`, `duplicate`, `duplicate_section`). */
  dailyAppend(input: DailyAppendInput): Promise<UpdateOutcome>;
  /** Search the tree: the store's native search when declared, core's engine otherwise. */
  search(query: string, options?: SearchOptions): Promise<SearchResponse>;
  /** Read a document as UTF-8 text, or `undefined` when absent. */
  readText(path: string): Promise<string | undefined>;
  /** Seed the Sepo memory layout; idempotent (existing files are never modified). */
  init(): Promise<InitResult>;
}
