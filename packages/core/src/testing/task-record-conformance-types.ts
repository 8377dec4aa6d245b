// Why: the task-record conformance suite runs under any test runner and any backend, so its
// options name only the runner functions it uses and a factory of fresh backends.
import type { TaskRecordBackend } from '../tasks/record-backend.js';
import type { ConformanceRunner, ConformanceTestBody } from './conformance-types.js';

/** Options of {@link runTaskRecordBackendConformance}. */
export interface TaskRecordBackendConformanceOptions<B extends TaskRecordBackend = TaskRecordBackend> {
  /** Label of the top-level group (default: `task-record backend conformance`). */
  readonly name?: string;
  /** Test runner functions, e.g. `{ describe, it, expect, beforeEach, afterEach }` from vitest. */
  readonly runner: ConformanceRunner;
  /** A fresh, EMPTY backend for every test. */
  createBackend(): Promise<B>;
  /** Clean up after a test (the suite has already called `close()`), e.g. remove a temp dir. */
  teardown?(backend: B): Promise<void>;
  /** Per-test timeout in ms (default 30000). */
  readonly timeoutMs?: number;
}

/** What the task-record conformance groups receive. */
export interface TaskRecordBackendHarness<B extends TaskRecordBackend = TaskRecordBackend> {
  /** The options the suite was started with. */
  readonly options: TaskRecordBackendConformanceOptions<B>;
  /** The backend of the running test. */
  backend(): B;
  /** Declare a test with the suite's timeout. */
  test(name: string, body: ConformanceTestBody): void;
  /** Assert `action` rejects with a repomem error of `code`. */
  expectError(action: () => Promise<unknown>, code: string): Promise<void>;
}
