// Why: every task-memory write (episodes, knowledge, preferences, receipts) is the same
// compare-and-swap loop over one or more records: read, decide, write with the revision read,
// and on a conflict read again. Written once, so no writer can forget the re-read.
import { RepomemError } from '../../errors.js';
import type { TaskRecord, TaskRecordBackend, TaskRecordKind, TaskRecordWrite } from '../record-backend.js';

/** Most compare-and-swap rounds of one update before `CONFLICT`. */
export const MAX_UPDATE_ROUNDS = 20;

/** What a writer decides for a record it read: the new text and data, or nothing to write. */
export type RecordDecision = { readonly text: string; readonly data: TaskRecord['data'] } | 'unchanged';

/** The full record that replaces `current` (or creates `id`) with `decision`, stamped `at`. */
export function nextRecord(
  repo: string,
  kind: TaskRecordKind,
  id: string,
  current: TaskRecord | undefined,
  decision: Exclude<RecordDecision, 'unchanged'>,
  at: Date,
): TaskRecordWrite {
  return {
    record: {
      kind,
      repo,
      id,
      revision: (current?.revision ?? 0) + 1,
      updated_at: at.toISOString(),
      text: decision.text,
      data: decision.data,
    },
    expectedRevision: current?.revision ?? null,
  };
}

/**
 * Create or update one record with `decide` (called with the stored record, or `undefined`),
 * retrying on compare-and-swap conflicts. Returns the stored record and whether it changed.
 */
export async function updateRecord(
  backend: TaskRecordBackend,
  target: { readonly repo: string; readonly kind: TaskRecordKind; readonly id: string },
  decide: (current: TaskRecord | undefined) => RecordDecision,
  now: () => Date,
): Promise<{ readonly record: TaskRecord | undefined; readonly changed: boolean }> {
  for (let round = 1; round <= MAX_UPDATE_ROUNDS; round += 1) {
    const current = await backend.get(target.repo, target.kind, target.id);
    const decision = decide(current);
    if (decision === 'unchanged') return { record: current, changed: false };
    const write = nextRecord(target.repo, target.kind, target.id, current, decision, now());
    if ((await backend.apply([write])).ok) return { record: write.record, changed: true };
  }
  throw new RepomemError(
    'CONFLICT',
    `${target.kind} ${target.id} kept changing under concurrent writers (${MAX_UPDATE_ROUNDS} attempts)`,
  );
}
