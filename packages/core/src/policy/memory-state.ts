// Why: the sync and scan cursors live as `state.json` in refs off the memory branch and are read
// back from git, i.e. outside data. A copied memory branch may carry another repository's state,
// which must be ignored (fresh cursor) rather than trusted; callers learn why a state was not used.
import { z } from 'zod';
import { isRepoSlug, RepoSlugSchema } from '../envelope/fields.js';
import {
  expected,
  formatIssues,
  objectExpected,
  toValidationIssues,
  type ValidationIssue,
} from '../envelope/validation-issues.js';
import { RepomemError } from '../errors.js';

/** Ref holding the GitHub mirror sync state. */
export const MEMORY_SYNC_STATE_REF = 'refs/agent-memory-state/sync';

/** Ref holding the memory scan state. */
export const MEMORY_SCAN_STATE_REF = 'refs/agent-memory-state/scan';

/** Schema version of both state files. */
export const MEMORY_STATE_SCHEMA_VERSION = 1 as const;

const IsoDatetimeSchema = z.iso.datetime({ offset: true });

const TimestampSchema = z
  .string(expected('an ISO 8601 timestamp or ""'))
  .refine(
    (value) => value === '' || IsoDatetimeSchema.safeParse(value).success,
    expected('an ISO 8601 timestamp or ""'),
  )
  .default('');

const SchemaVersionSchema = z
  .literal(MEMORY_STATE_SCHEMA_VERSION, expected(`schema_version ${MEMORY_STATE_SCHEMA_VERSION}`))
  .default(1);

/**
 * Zod schema of the sync state `state.json`. Missing timestamps, cursors and URLs default to `''`
 * (Sepo writes `''` before the first sync); unknown fields and extra cursors (e.g. `commits`) are
 * kept so rewriting the state loses nothing.
 */
export const SyncStateSchema = z.looseObject(
  {
    schema_version: SchemaVersionSchema,
    repo_slug: RepoSlugSchema,
    last_sync_at: TimestampSchema,
    last_activity_at: TimestampSchema,
    cursors: z
      .looseObject(
        {
          issues: z.string(expected('a string')).default(''),
          pulls: z.string(expected('a string')).default(''),
          discussions: z.string(expected('a string')).default(''),
        },
        { error: objectExpected },
      )
      .default({ issues: '', pulls: '', discussions: '' }),
    last_run_url: z.string(expected('a string')).default(''),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  },
  { error: objectExpected },
);

/** A validated sync state. */
export type SyncState = z.output<typeof SyncStateSchema>;

/** Zod schema of the scan state `state.json` (same conventions as {@link SyncStateSchema}). */
export const ScanStateSchema = z.looseObject(
  {
    schema_version: SchemaVersionSchema,
    repo_slug: RepoSlugSchema,
    last_scan_at: TimestampSchema,
    last_run_url: z.string(expected('a string')).default(''),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  },
  { error: objectExpected },
);

/** A validated scan state. */
export type ScanState = z.output<typeof ScanStateSchema>;

/** Why a stored state was not used. */
export type StateRejection = 'missing' | 'invalid_json' | 'invalid_state' | 'other_repo';

/** Result of {@link parseSyncState} / {@link parseScanState}. */
export type StateParse<T> =
  | { readonly ok: true; readonly state: T }
  | {
      readonly ok: false;
      readonly reason: StateRejection;
      readonly message: string;
      readonly issues?: readonly ValidationIssue[];
    };

/** Parses a state from a JSON string or parsed value; `currentRepo` (if given) must match its `repo_slug` (case-insensitively). */
export function parseStateWith<T extends { repo_slug: string }>(
  schema: z.ZodType<T>,
  name: string,
  input: unknown,
  currentRepo: string | undefined,
): StateParse<T> {
  if (currentRepo !== undefined && !isRepoSlug(currentRepo)) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `currentRepo: expected "owner/repo", got ${JSON.stringify(currentRepo)}`,
    );
  }
  let value = input;
  if (input === undefined || input === null || (typeof input === 'string' && input.trim() === '')) {
    return { ok: false, reason: 'missing', message: `${name}: no state stored` };
  }
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, reason: 'invalid_json', message: `${name}: invalid JSON (${reason})` };
    }
  }
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) {
    const issues = toValidationIssues(result.error.issues, name);
    return { ok: false, reason: 'invalid_state', message: formatIssues(issues), issues };
  }
  const state = result.data;
  if (currentRepo !== undefined && state.repo_slug.toLowerCase() !== currentRepo.toLowerCase()) {
    return {
      ok: false,
      reason: 'other_repo',
      message: `${name}: state belongs to ${JSON.stringify(state.repo_slug)}, not ${JSON.stringify(currentRepo)}; ignored`,
    };
  }
  return { ok: true, state };
}

/**
 * Parses the sync state (`refs/agent-memory-state/sync` `state.json`, as a JSON string or parsed
 * value). State of another repository (e.g. on a copied memory branch) is ignored with reason
 * `other_repo`, so the caller starts a fresh cursor.
 * @throws RepomemError `INVALID_ARGUMENT` when `currentRepo` is not an `owner/repo` slug.
 */
export function parseSyncState(json: unknown, currentRepo: string): StateParse<SyncState> {
  return parseStateWith(SyncStateSchema, 'sync state', json, currentRepo);
}

/**
 * Parses the scan state (`refs/agent-memory-state/scan` `state.json`); same rules as {@link parseSyncState}.
 * @throws RepomemError `INVALID_ARGUMENT` when `currentRepo` is not an `owner/repo` slug.
 */
export function parseScanState(json: unknown, currentRepo: string): StateParse<ScanState> {
  return parseStateWith(ScanStateSchema, 'scan state', json, currentRepo);
}
