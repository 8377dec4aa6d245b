// Why: builders shared by the record backend tests: valid verified memories with deterministic
// ids and timestamps, their `created` events, and the first write of a record.
import type { RecordWrite, TelemetryEvent, TelemetryEventType, VerifiedMemory } from '@repomem/core';
import { conformanceRecord } from '@repomem/core/testing';

/** A deterministic lowercase UUID for `n`. */
export function memoryId(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/**
 * A valid active memory (revision 1, core's conformance record) of `acme/rocket` numbered `n`,
 * with `overrides` applied.
 */
export function memory(n: number, overrides: Partial<VerifiedMemory> = {}): VerifiedMemory {
  const minute = String(n % 60).padStart(2, '0');
  return conformanceRecord({
    id: memoryId(n),
    repo: 'acme/rocket',
    subject: `Subject ${n}`,
    fact: `Fact number ${n} about the build.`,
    citations: [{ path: `src/file-${n}.ts`, line_start: 1, line_end: 2 }],
    created_at: `2026-05-01T10:${minute}:00.000Z`,
    refreshed_at: `2026-05-01T10:${minute}:00.000Z`,
    expires_at: '2026-05-29T10:00:00.000Z',
    ...overrides,
  });
}

/** A telemetry event about `record`. */
export function event(
  record: Pick<VerifiedMemory, 'id' | 'repo'>,
  type: TelemetryEventType = 'created',
  at = '2026-05-01T12:00:00.000Z',
  details?: Record<string, unknown>,
): TelemetryEvent {
  return { type, memory_id: record.id, repo: record.repo, at, ...(details === undefined ? {} : { details }) };
}

/** The creating write of `record`. */
export function create(record: VerifiedMemory): RecordWrite {
  return { record, expectedRevision: null };
}

/** The next revision of `record` with `changes`, as a write expecting the current revision. */
export function change(record: VerifiedMemory, changes: Partial<VerifiedMemory>): RecordWrite {
  return { record: { ...record, ...changes, revision: record.revision + 1 }, expectedRevision: record.revision };
}
