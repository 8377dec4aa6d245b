// Why: the one place where a verified memory or a telemetry event becomes a row of
// `agent_memory` / `agent_memory_telemetry` and a row becomes one again. Timestamps are kept as
// `timestamptz` (so a team can sort and chart them in SQL) and also as written (so a record reads
// back exactly as stored, whatever offset and precision it had); a timestamp edited by hand in
// SQL wins over the stale text. Rows are written by many processes, releases and people, so
// every row read back is validated with core's schemas and a corrupt one is reported by name.
import {
  describeRecordIssues,
  RepomemError,
  subjectKey,
  type TelemetryEvent,
  TelemetryEventSchema,
  type VerifiedMemory,
  VerifiedMemorySchema,
} from '@repomem/core';
import { coreWords } from './indexed-text.js';
import { weightedVectorLiteral } from './sql-text.js';

/** Memory columns in the order {@link memoryParameters} binds them. */
export const MEMORY_COLUMNS = [
  'id',
  'repo',
  'subject',
  'subject_key',
  'fact',
  'citations',
  'reason',
  'scope',
  'created_by',
  'created_at',
  'refreshed_at',
  'expires_at',
  'status',
  'superseded_by',
  'supersedes',
  'invalid_reason',
  'verification_count',
  'revision',
  'timestamps_as_written',
  'search_words',
  'learned_ref',
  'learned_commit',
  'promoted_from',
  'quarantine',
] as const;

/** SQL casts of the bound parameters, in {@link MEMORY_COLUMNS} order. */
export const MEMORY_CASTS: Readonly<Record<string, string>> = {
  id: '::uuid',
  citations: '::jsonb',
  created_at: '::timestamptz',
  refreshed_at: '::timestamptz',
  expires_at: '::timestamptz',
  superseded_by: '::uuid',
  supersedes: '::uuid',
  timestamps_as_written: '::jsonb',
  search_words: '::tsvector',
  promoted_from: '::jsonb',
  quarantine: '::jsonb',
};

/** The columns a read needs (`m` is `agent_memory`). */
export const MEMORY_SELECT =
  'm.id, m.repo, m.subject, m.fact, m.citations, m.reason, m.scope, m.created_by, m.created_at, m.refreshed_at, m.expires_at, m.status, m.superseded_by, m.supersedes, m.invalid_reason, m.verification_count, m.revision, m.timestamps_as_written, m.learned_ref, m.learned_commit, m.promoted_from, m.quarantine';

/** A row as {@link MEMORY_SELECT} reads it. */
export interface MemoryRow {
  readonly id: string;
  readonly repo: string;
  readonly subject: unknown;
  readonly fact: unknown;
  readonly citations: unknown;
  readonly reason: unknown;
  readonly scope: unknown;
  readonly created_by: unknown;
  readonly created_at: Date;
  readonly refreshed_at: Date;
  readonly expires_at: Date;
  readonly status: unknown;
  readonly superseded_by: unknown;
  readonly supersedes: unknown;
  readonly invalid_reason: unknown;
  readonly verification_count: unknown;
  readonly revision: unknown;
  readonly timestamps_as_written: unknown;
  readonly learned_ref: unknown;
  readonly learned_commit: unknown;
  readonly promoted_from: unknown;
  readonly quarantine: unknown;
}

/** The searchable words of a record, weighted subject A, fact B, reason C, scope D. */
export function memorySearchVector(record: VerifiedMemory): string {
  return weightedVectorLiteral([
    { words: coreWords(record.subject), weight: 'A' },
    { words: coreWords(record.fact), weight: 'B' },
    { words: coreWords(record.reason ?? ''), weight: 'C' },
    { words: coreWords(record.scope ?? ''), weight: 'D' },
  ]);
}

/** The bind parameters of a record, in {@link MEMORY_COLUMNS} order. */
export function memoryParameters(record: VerifiedMemory): unknown[] {
  return [
    record.id,
    record.repo,
    record.subject,
    subjectKey(record.subject),
    record.fact,
    JSON.stringify(record.citations),
    record.reason,
    record.scope,
    record.created_by,
    record.created_at,
    record.refreshed_at,
    record.expires_at,
    record.status,
    record.superseded_by,
    record.supersedes,
    record.invalid_reason,
    record.verification_count,
    record.revision,
    JSON.stringify({
      created_at: record.created_at,
      refreshed_at: record.refreshed_at,
      expires_at: record.expires_at,
    }),
    memorySearchVector(record),
    record.learned_on?.ref ?? null,
    record.learned_on?.commit ?? null,
    record.promoted_from === undefined ? null : JSON.stringify(record.promoted_from),
    record.quarantine === undefined ? null : JSON.stringify(record.quarantine),
  ];
}

function corrupt(where: string, what: string, why: string, details: Record<string, unknown>): RepomemError {
  return new RepomemError('INVALID_DOCUMENT', `${what} in ${where} is corrupt: ${why}`, { details });
}

/** The timestamp as written when it still names the column's instant, else the column's value. */
function timestamp(written: unknown, column: Date): string {
  if (typeof written === 'string') {
    const parsed = Date.parse(written);
    if (Number.isFinite(parsed) && Math.abs(parsed - column.getTime()) < 1) return written;
  }
  return column.toISOString();
}

/** Rebuild and validate a record from its row; `INVALID_DOCUMENT` naming the memory otherwise. */
export function memoryFromRow(row: MemoryRow, where: string): VerifiedMemory {
  const written = (row.timestamps_as_written ?? {}) as Record<string, unknown>;
  const candidate = {
    id: row.id,
    repo: row.repo,
    subject: row.subject,
    fact: row.fact,
    scope: row.scope,
    citations: row.citations,
    reason: row.reason,
    created_by: row.created_by,
    created_at: timestamp(written.created_at, row.created_at),
    refreshed_at: timestamp(written.refreshed_at, row.refreshed_at),
    expires_at: timestamp(written.expires_at, row.expires_at),
    status: row.status,
    superseded_by: row.superseded_by,
    supersedes: row.supersedes,
    invalid_reason: row.invalid_reason,
    verification_count: row.verification_count,
    revision: row.revision,
    ...(row.learned_ref === null && row.learned_commit === null
      ? {}
      : { learned_on: { ref: row.learned_ref, commit: row.learned_commit } }),
    ...(row.promoted_from === null ? {} : { promoted_from: row.promoted_from }),
    ...(row.quarantine === null ? {} : { quarantine: row.quarantine }),
  };
  const parsed = VerifiedMemorySchema.safeParse(candidate);
  if (!parsed.success) {
    throw corrupt(where, `memory ${row.id} of ${row.repo}`, describeRecordIssues(parsed.error.issues), {
      id: row.id,
      repo: row.repo,
    });
  }
  return parsed.data;
}

/** A row of `agent_memory_telemetry`. */
export interface EventRow {
  readonly id: string;
  readonly repo: string;
  readonly memory_id: string;
  readonly type: string;
  readonly at: Date;
  readonly at_as_written: string;
  readonly details: unknown;
}

/** Rebuild and validate a telemetry event from its row; `INVALID_DOCUMENT` otherwise. */
export function eventFromRow(row: EventRow, where: string): TelemetryEvent {
  const candidate = {
    type: row.type,
    memory_id: row.memory_id,
    repo: row.repo,
    at: timestamp(row.at_as_written, row.at),
    ...(row.details === null || row.details === undefined ? {} : { details: row.details }),
  };
  const parsed = TelemetryEventSchema.safeParse(candidate);
  if (!parsed.success) {
    throw corrupt(where, `telemetry event ${row.id} of ${row.repo}`, describeRecordIssues(parsed.error.issues), {
      eventId: row.id,
    });
  }
  return parsed.data;
}
