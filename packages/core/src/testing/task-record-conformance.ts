// Why: one conformance suite for task-record backends (core's document backend on every store,
// the native AgentCore and PostgreSQL ones, third-party): the backend author passes their runner
// and a backend factory and gets the guarantees task memory relies on checked exactly as for
// the reference backend. It reads results only through the backend under test.
import type { TaskRecordBackend } from '../tasks/record-backend.js';
import { expectRepomemErrorCode, registerPerTestSubject } from './conformance-lifecycle.js';
import { registerTaskLearnedOnGroups } from './task-record-conformance-learned-on.js';
import { registerTaskMemoryGroups } from './task-record-conformance-memory.js';
import { registerTaskRecordQueryGroups } from './task-record-conformance-queries.js';
import { registerTaskRuleGroups } from './task-record-conformance-rules.js';
import type { TaskRecordBackendConformanceOptions, TaskRecordBackendHarness } from './task-record-conformance-types.js';
import { registerTaskRecordWriteGroups } from './task-record-conformance-writes.js';

function createTaskRecordHarness<B extends TaskRecordBackend>(
  options: TaskRecordBackendConformanceOptions<B>,
): TaskRecordBackendHarness<B> {
  const { runner } = options;
  const timeout = options.timeoutMs ?? 30_000;
  const backend = registerPerTestSubject(runner, options.createBackend, options.teardown, 'backend');
  return {
    options,
    backend,
    test(name, body) {
      runner.it(name, body, timeout);
    },
    expectError: (action, code) => expectRepomemErrorCode(runner.expect, action, code),
  };
}

/**
 * Register the task-record backend conformance suite with a test runner.
 *
 * ```ts
 * import { afterEach, beforeEach, describe, expect, it } from 'vitest';
 * import { createDocumentTaskRecordBackend, createInMemoryStore } from '@repomem/core';
 * import { runTaskRecordBackendConformance } from '@repomem/core/testing';
 *
 * runTaskRecordBackendConformance({
 *   name: 'task records on the in-memory store',
 *   runner: { describe, it, expect, beforeEach, afterEach },
 *   createBackend: async () => createDocumentTaskRecordBackend(createInMemoryStore()),
 * });
 * ```
 *
 * Groups: shape; apply (create, update, compare-and-swap conflicts naming kind and id that
 * write nothing, batches across kinds that land whole or not at all, concurrent writers and
 * concurrent batches of which exactly one wins, read-modify-write loops that lose nothing); ids
 * (every allowed character, case-distinct ids, invalid ids refused by apply, get and delete);
 * validation (repository, kind, timestamp, data, `revision = expectedRevision + 1`, one record
 * twice, the 16,000-character limit exactly); delete; close (idempotent, then `STORE_CLOSED`);
 * list (newest first, limit, idPrefix by characters); search (every word, `any`, ranking, query
 * syntax as plain text, query bounds); isolation between repositories and between kinds; task
 * memory on the backend (logins an id mapping could fold keep distinct preferences, a replayed or
 * late pull-request signal never turns a newer outcome back, delivery ids remembered); review
 * rules (pending never active, approval supersedes, rejection sticks, expiry).
 */
export function runTaskRecordBackendConformance<B extends TaskRecordBackend>(
  options: TaskRecordBackendConformanceOptions<B>,
): void {
  options.runner.describe(options.name ?? 'task-record backend conformance', () => {
    const harness = createTaskRecordHarness(options);
    registerTaskRecordWriteGroups(harness);
    registerTaskRecordQueryGroups(harness);
    registerTaskMemoryGroups(harness);
    registerTaskRuleGroups(harness);
    registerTaskLearnedOnGroups(harness);
  });
}
