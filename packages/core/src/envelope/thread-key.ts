// Why: the thread key `repo:target_kind:target_number:route:lane` is the durable identity of a
// conversation thread; later runs find their state by it. This module formats, parses and
// validates keys, and only accepts keys that can be stored as a git ref without ambiguity.
import { z } from 'zod';
import { RepomemError } from '../errors.js';
import { DEFAULT_LANE, type TargetKind } from './fields.js';
import { refEncodingProblem } from './ref-encoding.js';
import { joinThreadKey, ThreadKeyFieldsSchema, type ThreadKeyParts } from './thread-key-fields.js';
import { describeValue, formatIssues, toRootedIssues, type ValidationIssue } from './validation-issues.js';

export type { ThreadKeyParts } from './thread-key-fields.js';

/** A thread key string `repo:target_kind:target_number:route:lane` that passed {@link ThreadKeySchema}. */
export type ThreadKey = string;

/**
 * Zod schema of thread key fields: each field valid, target number 0 exactly for `repository`,
 * and the key storable as a git ref (its ref encoding is a valid ref component that reads back
 * unambiguously; in practice a route or lane must not contain `--`, see `encodeThreadKeyForRef`).
 */
export const ThreadKeyPartsSchema = ThreadKeyFieldsSchema.superRefine((parts, ctx) => {
  const problem = refEncodingProblem(parts);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, input: parts });
});

const CANONICAL_NUMBER = /^(0|[1-9][0-9]*)$/;

/** Splits a key string into raw fields, or returns why it has the wrong structure. */
function splitThreadKey(key: string): { ok: true; raw: Record<string, unknown> } | { ok: false; message: string } {
  const fields = key.split(':');
  if (fields.length !== 5) {
    return {
      ok: false,
      message: `expected "repo:target_kind:target_number:route:lane" (5 fields separated by ":"), got ${describeValue(key)}`,
    };
  }
  const [repo_slug, target_kind, numberText = '', route, lane] = fields;
  const target_number = CANONICAL_NUMBER.test(numberText) ? Number(numberText) : numberText;
  return { ok: true, raw: { repo_slug, target_kind, target_number, route, lane } };
}

function validateParts(
  raw: unknown,
  root: string,
): { ok: true; parts: ThreadKeyParts } | { ok: false; issues: ValidationIssue[] } {
  const result = ThreadKeyPartsSchema.safeParse(raw, { reportInput: true });
  if (result.success) return { ok: true, parts: result.data };
  const issues = toRootedIssues(result.error.issues, root);
  return { ok: false, issues };
}

/**
 * Validates a thread key string, returning its fields or the problems found (paths are prefixed
 * with `root`, default `thread_key`, e.g. `thread_key.route: expected ...`).
 */
export function validateThreadKey(
  key: unknown,
  root = 'thread_key',
): { ok: true; parts: ThreadKeyParts } | { ok: false; issues: ValidationIssue[] } {
  if (typeof key !== 'string') {
    return { ok: false, issues: [{ path: root, message: `${root}: expected a string, got ${describeValue(key)}` }] };
  }
  const split = splitThreadKey(key);
  if (!split.ok) return { ok: false, issues: [{ path: root, message: `${root}: ${split.message}` }] };
  return validateParts(split.raw, root);
}

/** Zod schema of a thread key string (see {@link ThreadKeyPartsSchema} for the rules). */
export const ThreadKeySchema = z.string().superRefine((key, ctx) => {
  const result = validateThreadKey(key);
  if (!result.ok) ctx.addIssue({ code: 'custom', message: formatIssues(result.issues), input: key });
});

/** Input of {@link formatThreadKey}: the lane defaults to `default`. */
export interface ThreadKeyInput {
  /** Repository as `owner/repo`. */
  readonly repo_slug: string;
  /** Kind of target. */
  readonly target_kind: TargetKind;
  /** Target number (0 for `repository`). */
  readonly target_number: number;
  /** Route name. */
  readonly route: string;
  /** Lane name (default `default`, also for `''`). */
  readonly lane?: string | undefined;
}

/**
 * Formats a thread key `repo:target_kind:target_number:route:lane` from validated fields.
 * @throws RepomemError `INVALID_ARGUMENT` naming each invalid field.
 */
export function formatThreadKey(input: ThreadKeyInput): ThreadKey {
  const raw = { ...input, lane: input.lane === undefined || input.lane === '' ? DEFAULT_LANE : input.lane };
  const result = validateParts(raw, 'thread_key');
  if (!result.ok) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid thread key: ${formatIssues(result.issues)}`, {
      details: { issues: result.issues },
    });
  }
  return joinThreadKey(result.parts);
}

/**
 * Parses a thread key string into its fields. The repository slug contains `/` but never `:`,
 * so the key splits into exactly five fields.
 * @throws RepomemError `INVALID_ARGUMENT` naming the invalid field.
 */
export function parseThreadKey(key: string): ThreadKeyParts {
  const result = validateThreadKey(key);
  if (!result.ok) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid thread key: ${formatIssues(result.issues)}`, {
      details: { issues: result.issues },
    });
  }
  return result.parts;
}
