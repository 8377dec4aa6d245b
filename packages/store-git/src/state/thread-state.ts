// Why: thread state (`refs/agent-state/<encoded thread key>`, Sepo's session-continuity record)
// is read back from git, i.e. outside data, and core defines no schema for it. This is Sepo's
// schema v3 as zod: every field Sepo writes, with its defaults; unknown fields are kept so a
// rewrite loses nothing; the legacy `status: "resume_failed"` reads as failed/failed like Sepo.
import { z } from 'zod';

/** Schema version Sepo writes for thread state. */
export const THREAD_STATE_SCHEMA_VERSION = 3;

/** Run status of a thread. */
export const THREAD_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
/** Outcome of resuming the previous session. */
export const THREAD_RESUME_STATUSES = ['not_attempted', 'resumed', 'fallback_fresh', 'failed'] as const;
/** Outcome of restoring the session bundle. */
export const THREAD_BUNDLE_RESTORE_STATUSES = [
  'not_attempted',
  'not_available',
  'restored',
  'restored_from_fork',
  'failed',
] as const;

const text = z.string().default('');
const timestamp = z
  .string()
  .refine((value) => value === '' || z.iso.datetime({ offset: true }).safeParse(value).success, {
    message: 'expected an ISO 8601 timestamp or ""',
  })
  .default('');

function upgradeLegacy(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  if (record.status !== 'resume_failed') return value;
  return { ...record, status: 'failed', resume_status: record.resume_status ?? 'failed' };
}

/** Zod schema of a thread state `state.json` (Sepo schema v3, legacy statuses upgraded). */
export const ThreadStateSchema = z.preprocess(
  upgradeLegacy,
  z.looseObject({
    schema_version: z.number().int().positive().default(THREAD_STATE_SCHEMA_VERSION),
    thread_key: z.string().min(1, 'thread_key must be a thread key'),
    acpxRecordId: text,
    acpxSessionId: text,
    agentSessionId: text,
    branch: text,
    status: z.enum(THREAD_STATUSES).default('pending'),
    resume_status: z.enum(THREAD_RESUME_STATUSES).default('not_attempted'),
    last_resume_error: text,
    resumed_from_session_id: text,
    session_bundle_backend: text,
    session_bundle_artifact_id: text,
    session_bundle_artifact_name: text,
    session_bundle_run_id: text,
    bundle_restore_status: z.enum(THREAD_BUNDLE_RESTORE_STATUSES).default('not_attempted'),
    last_bundle_restore_error: text,
    forked_from_thread_key: text,
    forked_from_acpx_session_id: text,
    last_run_url: text,
    last_comment_url: text,
    attempt_count: z.number().int().nonnegative().default(0),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

/** A validated thread state. */
export type ThreadState = z.output<typeof ThreadStateSchema>;
