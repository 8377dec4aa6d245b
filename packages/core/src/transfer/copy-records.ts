// Why: verified memories and task records are copied through each side's record backend (SQLite
// tables, PostgreSQL tables, AgentCore namespaces, or JSON documents), never as raw documents, so
// a record lands in the form the target keeps records in and keeps its id. A record's `revision`
// is each store's own compare-and-swap counter: a new task record starts at 1 (the task-record
// contract), a verified memory keeps its revision (its contract allows it), and records are
// compared without it.
import { RepomemError } from '../errors.js';
import { TASK_RECORD_KINDS, type TaskRecord, type TaskRecordBackend } from '../tasks/record-backend.js';
import type { VerifiedMemoryBackend } from '../verified/backend.js';
import type { VerifiedMemory } from '../verified/record.js';
import { type CopyConflict, type CopyOutcome, type CopyProgress, CountBox } from './types.js';

/** Options shared by the record copies. */
export interface CopyRecordsOptions {
  readonly repo: string;
  readonly dryRun: boolean;
  readonly overwrite: boolean;
  readonly conflicts: CopyConflict[];
  readonly onProgress?: ((progress: CopyProgress) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** JSON with object keys sorted and `undefined` dropped, without `revision`: what two records hold. */
function canonical(record: object): string {
  const sort = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sort);
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined && inner !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([key, inner]) => [key, sort(inner)]));
  };
  const { revision: _revision, ...rest } = record as { revision?: unknown };
  return JSON.stringify(sort(rest));
}

function outcomeOf(existing: object | undefined, record: object, overwrite: boolean): CopyOutcome {
  if (existing === undefined) return 'copied';
  if (canonical(existing) === canonical(record)) return 'unchanged';
  return overwrite ? 'overwritten' : 'conflict';
}

function conflictError(what: string): RepomemError {
  return new RepomemError('CONFLICT', `the target's ${what} changed while copying; run the copy again`);
}

/** Copy the verified memories of `repo` (every status) from `source` to `target`. */
export async function copyVerified(
  source: VerifiedMemoryBackend,
  target: VerifiedMemoryBackend,
  options: CopyRecordsOptions,
): Promise<CountBox> {
  const counts = new CountBox();
  const records: VerifiedMemory[] = await source.recent({ repo: options.repo });
  for (const [index, record] of records.entries()) {
    options.signal?.throwIfAborted();
    const existing = await target.get(options.repo, record.id);
    const outcome = outcomeOf(existing, record, options.overwrite);
    if ((outcome === 'copied' || outcome === 'overwritten') && !options.dryRun) {
      const result = await target.apply(
        [
          {
            record: existing === undefined ? record : { ...record, revision: existing.revision + 1 },
            expectedRevision: existing?.revision ?? null,
          },
        ],
        [],
      );
      if (!result.ok) throw conflictError(`verified memory ${record.id}`);
    }
    counts.add(outcome);
    if (outcome === 'conflict') options.conflicts.push({ part: 'verified', name: record.id });
    options.onProgress?.({ phase: 'verified', done: index + 1, total: records.length });
  }
  return counts;
}

/** Copy the task records of `repo` (every kind) from `source` to `target`. */
export async function copyTaskRecords(
  source: TaskRecordBackend,
  target: TaskRecordBackend,
  options: CopyRecordsOptions,
): Promise<CountBox> {
  const counts = new CountBox();
  const records: TaskRecord[] = [];
  for (const kind of TASK_RECORD_KINDS) records.push(...(await source.list({ repo: options.repo, kind })));
  for (const [index, record] of records.entries()) {
    options.signal?.throwIfAborted();
    const existing = await target.get(options.repo, record.kind, record.id);
    const outcome = outcomeOf(existing, record, options.overwrite);
    if ((outcome === 'copied' || outcome === 'overwritten') && !options.dryRun) {
      const revision = (existing?.revision ?? 0) + 1;
      const result = await target.apply([
        { record: { ...record, revision }, expectedRevision: existing?.revision ?? null },
      ]);
      if (!result.ok) throw conflictError(`${record.kind} record ${record.id}`);
    }
    counts.add(outcome);
    if (outcome === 'conflict') options.conflicts.push({ part: record.kind, name: record.id });
    options.onProgress?.({ phase: 'tasks', done: index + 1, total: records.length });
  }
  return counts;
}
