// Why: the one place where a verified memory or a telemetry event becomes a row and a row becomes
// one again. Rows come from a file other processes and other versions write, so every row read
// back is validated with core's schemas; a corrupt row is reported naming the memory, never
// returned half-valid.
import {
  describeRecordIssues,
  RepomemError,
  scopeKey,
  subjectKey,
  type TelemetryEvent,
  TelemetryEventSchema,
  type VerifiedMemory,
  VerifiedMemorySchema,
} from '@repomem/core';
import { timeKey } from './time-key.js';

/** Memory columns in the order {@link memoryParameters} binds them. */
export const MEMORY_COLUMNS = [
  'id',
  'repo',
  'subject',
  'subject_key',
  'fact',
  'scope',
  'scope_key',
  'citations',
  'reason',
  'created_by',
  'created_at',
  'created_key',
  'refreshed_at',
  'refreshed_key',
  'expires_at',
  'expires_key',
  'status',
  'superseded_by',
  'supersedes',
  'invalid_reason',
  'verification_count',
  'revision',
  'learned_ref',
  'learned_commit',
  'promoted_from',
  'quarantine',
] as const;

/** The columns a read needs to rebuild a record (the keys are derived, not read). */
export const MEMORY_SELECT =
  'm.seq AS seq, m.id AS id, m.repo AS repo, m.subject AS subject, m.fact AS fact, m.scope AS scope, m.citations AS citations, m.reason AS reason, m.created_by AS created_by, m.created_at AS created_at, m.refreshed_at AS refreshed_at, m.expires_at AS expires_at, m.status AS status, m.superseded_by AS superseded_by, m.supersedes AS supersedes, m.invalid_reason AS invalid_reason, m.verification_count AS verification_count, m.revision AS revision, m.refreshed_key AS refreshed_key, m.created_key AS created_key, m.learned_ref AS learned_ref, m.learned_commit AS learned_commit, m.promoted_from AS promoted_from, m.quarantine AS quarantine';

/** A row of `memories` as {@link MEMORY_SELECT} reads it. */
export interface MemoryRow {
  readonly seq: number;
  readonly id: string;
  readonly repo: string;
  readonly subject: unknown;
  readonly fact: unknown;
  readonly scope: unknown;
  readonly citations: unknown;
  readonly reason: unknown;
  readonly created_by: unknown;
  readonly created_at: unknown;
  readonly refreshed_at: unknown;
  readonly expires_at: unknown;
  readonly status: unknown;
  readonly superseded_by: unknown;
  readonly supersedes: unknown;
  readonly invalid_reason: unknown;
  readonly verification_count: unknown;
  readonly revision: unknown;
  readonly refreshed_key: string;
  readonly created_key: string;
  readonly learned_ref: unknown;
  readonly learned_commit: unknown;
  readonly promoted_from: unknown;
  readonly quarantine: unknown;
}

/** The bind parameters of a record, in {@link MEMORY_COLUMNS} order. */
export function memoryParameters(record: VerifiedMemory): Array<string | number | null> {
  return [
    record.id,
    record.repo,
    record.subject,
    subjectKey(record.subject),
    record.fact,
    record.scope,
    scopeKey(record.scope),
    JSON.stringify(record.citations),
    record.reason,
    record.created_by,
    record.created_at,
    timeKey(record.created_at),
    record.refreshed_at,
    timeKey(record.refreshed_at),
    record.expires_at,
    timeKey(record.expires_at),
    record.status,
    record.superseded_by,
    record.supersedes,
    record.invalid_reason,
    record.verification_count,
    record.revision,
    record.learned_on?.ref ?? null,
    record.learned_on?.commit ?? null,
    record.promoted_from === undefined ? null : JSON.stringify(record.promoted_from),
    record.quarantine === undefined ? null : JSON.stringify(record.quarantine),
  ];
}

/** A JSON column (`promoted_from`, `quarantine`): `undefined` when NULL; throws on bad JSON. */
function jsonColumn(value: unknown, column: string, fail: (why: string) => RepomemError): unknown {
  if (value === null || value === undefined) return undefined;
  try {
    return JSON.parse(String(value));
  } catch (error) {
    throw fail(`its ${column} is not JSON (${(error as Error).message})`);
  }
}

/** Distinct cited paths of a record (one `memory_citations` row each). */
export function citedPaths(record: VerifiedMemory): string[] {
  return [...new Set(record.citations.map((citation) => citation.path))];
}

function corrupt(file: string, what: string, why: string, details: Record<string, unknown>): RepomemError {
  return new RepomemError('INVALID_DOCUMENT', `${what} in ${file} is corrupt: ${why}`, {
    details: { file, ...details },
  });
}

/** Rebuild and validate a record from its row; `INVALID_DOCUMENT` naming the memory otherwise. */
export function memoryFromRow(row: MemoryRow, file: string): VerifiedMemory {
  const what = `memory ${row.id} of ${row.repo}`;
  let citations: unknown;
  try {
    citations = JSON.parse(String(row.citations));
  } catch (error) {
    throw corrupt(file, what, `its citations are not JSON (${(error as Error).message})`, {
      id: row.id,
      repo: row.repo,
    });
  }
  const fail = (why: string) => corrupt(file, what, why, { id: row.id, repo: row.repo });
  const promotedFrom = jsonColumn(row.promoted_from, 'promoted_from', fail);
  const quarantine = jsonColumn(row.quarantine, 'quarantine', fail);
  const candidate = {
    id: row.id,
    repo: row.repo,
    subject: row.subject,
    fact: row.fact,
    scope: row.scope,
    citations,
    reason: row.reason,
    created_by: row.created_by,
    created_at: row.created_at,
    refreshed_at: row.refreshed_at,
    expires_at: row.expires_at,
    status: row.status,
    superseded_by: row.superseded_by,
    supersedes: row.supersedes,
    invalid_reason: row.invalid_reason,
    verification_count:
      typeof row.verification_count === 'bigint' ? Number(row.verification_count) : row.verification_count,
    revision: typeof row.revision === 'bigint' ? Number(row.revision) : row.revision,
    ...(row.learned_ref === null && row.learned_commit === null
      ? {}
      : { learned_on: { ref: row.learned_ref, commit: row.learned_commit } }),
    ...(promotedFrom === undefined ? {} : { promoted_from: promotedFrom }),
    ...(quarantine === undefined ? {} : { quarantine }),
  };
  const parsed = VerifiedMemorySchema.safeParse(candidate);
  if (!parsed.success)
    throw corrupt(file, what, describeRecordIssues(parsed.error.issues), { id: row.id, repo: row.repo });
  return parsed.data;
}

/** A row of `memory_events`. */
export interface EventRow {
  readonly id: number;
  readonly repo: string;
  readonly memory_id: string;
  readonly type: string;
  readonly at: string;
  readonly details: string | null;
}

/** Rebuild and validate a telemetry event from its row; `INVALID_DOCUMENT` otherwise. */
export function eventFromRow(row: EventRow, file: string): TelemetryEvent {
  const what = `telemetry event ${row.id} of ${row.repo}`;
  let details: unknown;
  if (row.details !== null) {
    try {
      details = JSON.parse(row.details);
    } catch (error) {
      throw corrupt(file, what, `its details are not JSON (${(error as Error).message})`, { eventId: row.id });
    }
  }
  const candidate = {
    type: row.type,
    memory_id: row.memory_id,
    repo: row.repo,
    at: row.at,
    ...(details === undefined ? {} : { details }),
  };
  const parsed = TelemetryEventSchema.safeParse(candidate);
  if (!parsed.success) throw corrupt(file, what, describeRecordIssues(parsed.error.issues), { eventId: row.id });
  return parsed.data;
}
