// Why: promotion, quarantine, their listing and deletion all walk the same records: every verified
// memory and every learning, episode and rule of one repository, with the learned-on fields read
// the same way whether they sit on a memory or in a task record's `data`. This module is that
// walk and the one compare-and-swap write each outcome uses, so the four entry points differ only
// in what they change.
import { RepomemError } from '../errors.js';
import type { TaskRecord, TaskRecordBackend, TaskRecordKind } from '../tasks/record-backend.js';
import type { VerifiedMemoryBackend } from '../verified/backend.js';
import {
  type LearnedOnFields,
  LearnedOnSchema,
  learnedOnFieldsOf,
  PromotedFromSchema,
  QuarantineSchema,
} from '../verified/learned-on.js';
import type { TelemetryEvent, VerifiedMemory } from '../verified/record.js';
import { assertRepo } from '../verified/record-query.js';

/** Task-record kinds that record where they were learned (preferences and receipts do not). */
export const LEARNED_TASK_RECORD_KINDS = ['knowledge', 'episode', 'rule'] as const satisfies readonly TaskRecordKind[];
/** A task-record kind that records where it was learned. */
export type LearnedTaskRecordKind = (typeof LEARNED_TASK_RECORD_KINDS)[number];

/** What a branch record is: a verified memory, or a learning, episode or rule. */
export type BranchRecordKind = 'memory' | LearnedTaskRecordKind;

/** Where the records of one repository live: either backend may be absent. */
export interface BranchRecordTargets {
  /** Repository (`owner/name`). */
  readonly repo: string;
  /** Verified memories. */
  readonly verified?: VerifiedMemoryBackend;
  /** Learnings, episodes and rules. */
  readonly tasks?: TaskRecordBackend;
}

/** The learned-on fields of one record, read from a memory or a task record's `data`. */
export type BranchFields = LearnedOnFields;

/** One record found by {@link readBranchRecords}. */
export type BranchRecord =
  | { readonly kind: 'memory'; readonly id: string; readonly fields: BranchFields; readonly memory: VerifiedMemory }
  | {
      readonly kind: LearnedTaskRecordKind;
      readonly id: string;
      readonly fields: BranchFields;
      readonly record: TaskRecord;
    };

/** A one-line description of a record for listings: the memory's subject, the rule, the learning. */
export function branchRecordSummary(record: BranchRecord): string {
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  const summary =
    record.kind === 'memory'
      ? record.memory.subject
      : record.kind === 'knowledge'
        ? text(record.record.data.subject)
        : record.kind === 'rule'
          ? text(record.record.data.rule)
          : (text(record.record.data.description) ?? text(record.record.data.task_id));
  const line = (summary ?? record.id).split('\n')[0] ?? record.id;
  return line.length <= 120 ? line : `${line.slice(0, 119)}…`;
}

/** The learned-on fields of a task record's data; fields that do not parse are left out. */
function taskFields(data: TaskRecord['data']): BranchFields {
  const learned = LearnedOnSchema.safeParse(data.learned_on);
  const promoted = PromotedFromSchema.safeParse(data.promoted_from);
  const quarantine = QuarantineSchema.safeParse(data.quarantine);
  return {
    ...(learned.success ? { learned_on: learned.data } : {}),
    ...(promoted.success ? { promoted_from: promoted.data } : {}),
    ...(quarantine.success ? { quarantine: quarantine.data } : {}),
  };
}

/** Check the targets: a repository and at least one backend; `INVALID_ARGUMENT` otherwise. */
export function checkTargets(targets: BranchRecordTargets, what: string): void {
  if (targets === null || typeof targets !== 'object') {
    throw new RepomemError('INVALID_ARGUMENT', `${what} expects { repo, verified?, tasks? }`);
  }
  assertRepo(targets.repo);
  if (targets.verified === undefined && targets.tasks === undefined) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `${what} needs a verified-memory backend, a task-record backend or both`,
    );
  }
}

/**
 * Every verified memory (any status) and every learning, episode and rule of the repository
 * that `select` keeps, memories first.
 */
export async function readBranchRecords(
  targets: BranchRecordTargets,
  select: (fields: BranchFields) => boolean,
): Promise<BranchRecord[]> {
  const found: BranchRecord[] = [];
  if (targets.verified !== undefined) {
    for (const memory of await targets.verified.recent({ repo: targets.repo })) {
      const fields = learnedOnFieldsOf(memory);
      if (select(fields)) found.push({ kind: 'memory', id: memory.id, fields, memory });
    }
  }
  if (targets.tasks !== undefined) {
    for (const kind of LEARNED_TASK_RECORD_KINDS) {
      for (const record of await targets.tasks.list({ repo: targets.repo, kind })) {
        const fields = taskFields(record.data);
        if (select(fields)) found.push({ kind, id: record.id, fields, record });
      }
    }
  }
  return found;
}

/** Most attempts of one record's write when another writer changed it meanwhile. */
const MAX_ATTEMPTS = 5;

/** Change of a verified memory: the new record (revision not yet bumped) and its telemetry. */
export type MemoryChange = { readonly record: VerifiedMemory; readonly events: readonly TelemetryEvent[] };

/**
 * Write `change(current)` over a verified memory with compare-and-swap, re-reading and retrying
 * when another writer changed it; `undefined` when it is gone or `change` returns `undefined`
 * (the record no longer qualifies). Throws `CONFLICT` after {@link MAX_ATTEMPTS}.
 */
export async function updateMemory(
  backend: VerifiedMemoryBackend,
  first: VerifiedMemory,
  change: (current: VerifiedMemory) => Promise<MemoryChange | undefined>,
): Promise<VerifiedMemory | undefined> {
  let current: VerifiedMemory | undefined = first;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    if (current === undefined) return undefined;
    const changed = await change(current);
    if (changed === undefined) return undefined;
    const record = { ...changed.record, revision: current.revision + 1 };
    const result = await backend.apply([{ record, expectedRevision: current.revision }], changed.events);
    if (result.ok) return record;
    current = await backend.get(first.repo, first.id);
  }
  throw new RepomemError('CONFLICT', `memory ${first.id} kept changing under concurrent writers`);
}

/**
 * Write `change(current.data)` over a task record with compare-and-swap (revision + 1,
 * `updated_at` = `at`), re-reading and retrying like {@link updateMemory}.
 */
export async function updateTaskRecord(
  backend: TaskRecordBackend,
  first: TaskRecord,
  at: string,
  change: (data: TaskRecord['data']) => TaskRecord['data'] | undefined,
): Promise<TaskRecord | undefined> {
  let current: TaskRecord | undefined = first;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    if (current === undefined) return undefined;
    const data = change(current.data);
    if (data === undefined) return undefined;
    const record: TaskRecord = { ...current, data, revision: current.revision + 1, updated_at: at };
    const result = await backend.apply([{ record, expectedRevision: current.revision }]);
    if (result.ok) return record;
    current = await backend.get(first.repo, first.kind, first.id);
  }
  throw new RepomemError('CONFLICT', `${first.kind} record ${first.id} kept changing under concurrent writers`);
}

/** `data` without the keys in `drop`. */
export function withoutKeys(data: TaskRecord['data'], ...drop: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key]) => !drop.includes(key)));
}
