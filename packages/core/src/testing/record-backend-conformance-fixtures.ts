// Why: the record conformance groups need valid records that differ in exactly the field under
// test; one factory with fixed ids and clock keeps every group deterministic and readable.
import type { TelemetryEvent, TelemetryEventType, VerifiedMemory } from '../verified/record.js';

/** The repository most conformance tests write to. */
export const CONFORMANCE_REPO = 'acme/app';
/** A second repository holding look-alike records (same ids, paths, subjects) to check isolation. */
export const CONFORMANCE_OTHER_REPO = 'acme/app-2';

const EPOCH_MS = Date.UTC(2026, 0, 1);
const DAY_MS = 86_400_000;

/** Deterministic lowercase UUID number `n`. */
export function conformanceId(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** ISO timestamp `minutes` after 2026-01-01T00:00:00Z. */
export function conformanceTime(minutes: number): string {
  return new Date(EPOCH_MS + minutes * 60_000).toISOString();
}

/** ISO timestamp `days` days after 2026-01-01T00:00:00Z. */
export function conformanceDay(days: number): string {
  return new Date(EPOCH_MS + days * DAY_MS).toISOString();
}

/** A valid active record (revision 1) with `overrides` applied. */
export function conformanceRecord(overrides: Partial<VerifiedMemory> = {}): VerifiedMemory {
  return {
    id: conformanceId(1),
    repo: CONFORMANCE_REPO,
    subject: 'API version synchronization',
    fact: 'API version must match between client SDK, server routes, and documentation.',
    scope: null,
    citations: [{ path: 'src/client/sdk/constants.ts', line_start: 12, line_end: 12 }],
    reason: null,
    created_by: null,
    created_at: conformanceTime(0),
    refreshed_at: conformanceTime(0),
    expires_at: conformanceDay(28),
    status: 'active',
    superseded_by: null,
    supersedes: null,
    invalid_reason: null,
    verification_count: 0,
    revision: 1,
    ...overrides,
  };
}

/** A telemetry event. */
export function conformanceEvent(
  type: TelemetryEventType,
  memoryId: string,
  minutes: number,
  overrides: Partial<TelemetryEvent> = {},
): TelemetryEvent {
  return { type, memory_id: memoryId, repo: CONFORMANCE_REPO, at: conformanceTime(minutes), ...overrides };
}
