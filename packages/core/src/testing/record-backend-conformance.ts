// Why: one conformance suite for verified-memory backends (document-backed, SQLite, third-party):
// the backend author passes their runner and a backend factory and gets the guarantees the
// verified-memory service relies on checked exactly as for the reference backends.
import type { VerifiedMemoryBackend } from '../verified/backend.js';
import { expectRepomemErrorCode, registerPerTestSubject } from './conformance-lifecycle.js';
import { registerRecordLearnedOnGroups } from './record-backend-conformance-learned-on.js';
import { registerRecordQueryGroups } from './record-backend-conformance-queries.js';
import { registerRecordScopeGroups } from './record-backend-conformance-scope.js';
import type { RecordBackendConformanceOptions, RecordBackendHarness } from './record-backend-conformance-types.js';
import { registerRecordWriteGroups } from './record-backend-conformance-writes.js';

function createRecordHarness<B extends VerifiedMemoryBackend>(
  options: RecordBackendConformanceOptions<B>,
): RecordBackendHarness<B> {
  const { runner } = options;
  const { expect } = runner;
  const timeout = options.timeoutMs ?? 30_000;
  const backend = registerPerTestSubject(runner, options.createBackend, options.teardown, 'backend');
  return {
    options,
    backend,
    test(name, body) {
      runner.it(name, body, timeout);
    },
    expectError: (action, code) => expectRepomemErrorCode(expect, action, code),
  };
}

/**
 * Register the verified-memory backend conformance suite with a test runner.
 *
 * ```ts
 * import { afterEach, beforeEach, describe, expect, it } from 'vitest';
 * import { runRecordBackendConformance } from '@repomem/core/testing';
 *
 * runRecordBackendConformance({
 *   name: 'sqlite records',
 *   runner: { describe, it, expect, beforeEach, afterEach },
 *   createBackend: async () => openSqliteRecords(await freshDatabase()),
 *   teardown: async () => removeTempFiles(),
 * });
 * ```
 *
 * Groups: shape, apply (create, update, compare-and-swap conflicts that write nothing, atomic
 * batches with their events, concurrent writers, schema validation), events (order, filters,
 * limit, isolation, concurrent appends), stats, close (idempotent, then `STORE_CLOSED`), recent
 * (order, statuses, `liveAt`, limit), byPath, bySubject, search (every word, case-insensitive,
 * FTS syntax such as `"`, `*`, `NEAR`, `-`, `AND`, `OR`, parentheses and `'` is plain text),
 * repository isolation of every query, the learned-on fields (issue 26) through every read,
 * promotion (idempotent) and quarantine (not served, listed, deletable), branch scope (recall,
 * search, getRecent and searchByPath serve only memories in the working ref's scope; verify skips
 * the others unchanged), and `delete` (compare-and-swap on the revision) when the backend offers it.
 */
export function runRecordBackendConformance<B extends VerifiedMemoryBackend>(
  options: RecordBackendConformanceOptions<B>,
): void {
  options.runner.describe(options.name ?? 'verified-memory backend conformance', () => {
    const harness = createRecordHarness(options);
    registerRecordWriteGroups(harness);
    registerRecordQueryGroups(harness);
    registerRecordLearnedOnGroups(harness);
    registerRecordScopeGroups(harness);
  });
}
