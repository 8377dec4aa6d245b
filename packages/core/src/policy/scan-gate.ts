// Why: the scheduled memory scan is an LLM run; it should only happen when the mirror sync has
// seen activity since the last successful scan. When in doubt (no cursor, unreadable state) it
// runs, because skipping would silently stop curation; manual dispatch always runs.
import { parseStateWith, ScanStateSchema, SyncStateSchema } from './memory-state.js';

/** Why the scan gate decided as it did. */
export type ScanGateReason = 'manual' | 'new_activity' | 'no_new_activity' | 'no_activity_cursor' | 'no_scan_cursor';

/** Result of {@link shouldRunScan}. */
export interface ScanGateDecision {
  /** Whether the scan runs. */
  readonly run: boolean;
  /** Machine-readable reason. */
  readonly reason: ScanGateReason;
  /** Human-readable explanation. */
  readonly message: string;
}

/** Input of {@link shouldRunScan}. */
export interface ScanGateInput {
  /** Sync state (`state.json` of `refs/agent-memory-state/sync`) as JSON string or parsed value; absent if none. */
  readonly syncState?: unknown;
  /** Scan state (`state.json` of `refs/agent-memory-state/scan`) as JSON string or parsed value; absent if none. */
  readonly scanState?: unknown;
  /** Triggering event; only `schedule` (also assumed when absent or blank) is gated. */
  readonly event?: 'schedule' | 'workflow_dispatch' | (string & {}) | undefined;
  /** When given, a state recorded for another repository counts as missing. */
  readonly currentRepo?: string | undefined;
}

function cursorTime(value: string): number | undefined {
  if (value === '') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

/**
 * Scan gate: a scheduled scan runs only when the sync state's `last_activity_at` is strictly newer
 * than the scan state's `last_scan_at`. A missing or invalid state or cursor on either side runs
 * the scan. Any event other than `schedule` (e.g. manual `workflow_dispatch`) bypasses the gate.
 */
export function shouldRunScan(input: ScanGateInput): ScanGateDecision {
  const event = (input.event ?? '').trim() || 'schedule';
  if (event !== 'schedule') {
    return { run: true, reason: 'manual', message: `event ${JSON.stringify(event)} bypasses the scan gate` };
  }
  const sync = parseStateWith(SyncStateSchema, 'sync state', input.syncState, input.currentRepo);
  const activity = sync.ok ? cursorTime(sync.state.last_activity_at) : undefined;
  if (activity === undefined) {
    const why = sync.ok ? 'sync state has no last_activity_at' : sync.message;
    return { run: true, reason: 'no_activity_cursor', message: `${why}: scanning` };
  }
  const scan = parseStateWith(ScanStateSchema, 'scan state', input.scanState, input.currentRepo);
  const lastScan = scan.ok ? cursorTime(scan.state.last_scan_at) : undefined;
  if (lastScan === undefined) {
    const why = scan.ok ? 'scan state has no last_scan_at' : scan.message;
    return { run: true, reason: 'no_scan_cursor', message: `${why}: scanning` };
  }
  if (activity > lastScan) {
    return { run: true, reason: 'new_activity', message: 'activity since the last scan: scanning' };
  }
  return { run: false, reason: 'no_new_activity', message: 'no activity since the last scan: skipping' };
}
