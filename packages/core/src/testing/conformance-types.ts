// Why: the conformance suite must run under any test runner (vitest, jest, node:test adapters),
// so it asks only for the few runner functions it uses, typed minimally, plus the store factory
// and raw-read callbacks that let it check what was actually persisted.
import type { MemoryStore } from '../store/contract.js';

/** The assertion subset the suite uses (vitest's and jest's `expect` satisfy it). */
export interface ConformanceAssertion {
  /** `Object.is` equality. */
  toBe(expected: unknown): void;
  /** Deep equality. */
  toEqual(expected: unknown): void;
  /** Value is `undefined`. */
  toBeUndefined(): void;
  /** Value is not `undefined`. */
  toBeDefined(): void;
  /** Array or string contains `item`. */
  toContain(item: unknown): void;
  /** `.length` equals `length`. */
  toHaveLength(length: number): void;
  /** Number is greater than `expected`. */
  toBeGreaterThan(expected: number): void;
  /** Negated assertions. */
  readonly not: ConformanceAssertion;
}

/** A runner's `expect`. */
export type ConformanceExpect = (actual: unknown, message?: string) => ConformanceAssertion;

/**
 * What a test body receives from the runner, if anything. Vitest passes a context whose `skip()`
 * marks the test skipped; runners without it just see the test pass early.
 */
export interface ConformanceTestContext {
  /** Mark the running test as skipped (vitest: `context.skip()`). */
  skip?: (note?: string) => void;
}

/** A test body. */
export type ConformanceTestBody = (context?: ConformanceTestContext) => Promise<void>;

/** The runner functions the suite needs, e.g. `{ describe, it, expect, beforeEach, afterEach }` from vitest. */
export interface ConformanceRunner {
  /** Group tests. */
  readonly describe: (name: string, body: () => void) => void;
  /** Declare a test; `timeout` is in milliseconds. */
  readonly it: (name: string, body: ConformanceTestBody, timeout?: number) => void;
  /** Assertions. */
  readonly expect: ConformanceExpect;
  /** Run before each test of the enclosing group. */
  readonly beforeEach: (hook: () => Promise<void> | void) => void;
  /** Run after each test of the enclosing group. */
  readonly afterEach: (hook: () => Promise<void> | void) => void;
}

/** Options of {@link runStoreConformance}. */
export interface StoreConformanceOptions<S extends MemoryStore = MemoryStore> {
  /** Label of the top-level group (default: `store conformance`). */
  readonly name?: string;
  /** Test runner functions. */
  readonly runner: ConformanceRunner;
  /** A fresh, EMPTY store for every test. */
  createStore(): Promise<S>;
  /** Clean up after a test (the suite has already called `close()`), e.g. remove a temp dir. */
  teardown?(store: S): Promise<void>;
  /**
   * Read the persisted bytes of `path` bypassing the store (a file on disk, a blob, a row), or
   * `undefined` when nothing is persisted. Lets the suite check what was really written.
   */
  rawRead?(store: S, path: string): Promise<Uint8Array | undefined>;
  /** Every persisted document path bypassing the store (any order). Temp or lock leftovers count. */
  rawList?(store: S): Promise<string[]>;
  /**
   * A second, independent instance of the store on the same backing data as `store` (the same
   * directory, database file or repository), closed by the suite. Enables the read-your-writes
   * and cross-instance compare-and-swap groups; without it they are skipped with the reason.
   */
  openAnother?(store: S): Promise<S>;
  /** Per-test timeout in ms (default 30000). */
  readonly timeoutMs?: number;
}
