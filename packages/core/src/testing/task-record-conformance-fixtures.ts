// Why: the task-record conformance groups need valid records that differ in exactly the field
// under test; one factory with a fixed clock keeps every group deterministic and readable.
import type { TaskRecord } from '../tasks/record-backend.js';

/** The repository most task-record conformance tests write to. */
export const TASK_CONFORMANCE_REPO = 'acme/app';
/** Repositories whose names look like {@link TASK_CONFORMANCE_REPO}'s (prefixes, case), to check isolation. */
export const TASK_CONFORMANCE_OTHER_REPOS: readonly string[] = ['acme/app-2', 'acme-x/app', 'Acme/App'];

const EPOCH_MS = Date.UTC(2026, 0, 1);

/** ISO timestamp `minutes` after 2026-01-01T00:00:00Z. */
export function taskConformanceTime(minutes: number): string {
  return new Date(EPOCH_MS + minutes * 60_000).toISOString();
}

/** A valid knowledge record (revision 1) with `overrides` applied. */
export function taskConformanceRecord(overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    kind: 'knowledge',
    repo: TASK_CONFORMANCE_REPO,
    id: 'k-1',
    revision: 1,
    updated_at: taskConformanceTime(0),
    text: 'Test framework: the team migrated from Jest to Vitest.',
    data: { subject: 'Test framework', scope: null, tags: ['testing'] },
    ...overrides,
  };
}
