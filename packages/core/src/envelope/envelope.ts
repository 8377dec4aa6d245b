// Why: every agent run receives one RuntimeEnvelope (seed 001). It is outside data (env, JSON
// files, workflow inputs), so it is validated field by field with messages that name the field
// and the problem, and its thread key must be the one derived from its other fields.
import { z } from 'zod';
import { RepomemError } from '../errors.js';
import {
  DEFAULT_LANE,
  ENVELOPE_SCHEMA_VERSION,
  HttpUrlSchema,
  LaneSchema,
  LoginSchema,
  RepoSlugSchema,
  RouteSchema,
  SourceKindSchema,
  type TargetKind,
  TargetKindSchema,
  TargetNumberSchema,
  targetNumberProblem,
  WorkflowSchema,
} from './fields.js';
import { refEncodingProblem } from './ref-encoding.js';
import { areWellFormedThreadKeyFields, joinThreadKey, type ThreadKeyParts } from './thread-key-fields.js';
import {
  describeValue,
  expected,
  formatIssues,
  objectExpected,
  toValidationIssues,
  type ValidationIssue,
} from './validation-issues.js';

/** The metadata every agent run receives (seed 001), as validated by {@link RuntimeEnvelopeSchema}. */
export interface RuntimeEnvelope {
  /** Envelope version, currently 1. */
  readonly schema_version: typeof ENVELOPE_SCHEMA_VERSION;
  /** Repository as `owner/repo`. */
  readonly repo_slug: string;
  /** Route (agent action), e.g. `answer`, `review`, `fix-pr`. */
  readonly route: string;
  /** Triggering surface, e.g. `issue_comment`, `workflow_dispatch`. */
  readonly source_kind: string;
  /** `issue`, `pull_request`, `discussion` or `repository`. */
  readonly target_kind: TargetKind;
  /** Target number; 0 exactly for `repository`. */
  readonly target_number: number;
  /** Canonical URL of the target (the repository URL for repo-scoped runs). */
  readonly target_url: string;
  /** The user's request (may be empty). */
  readonly request_text: string;
  /** GitHub login of the requester. */
  readonly requested_by: string;
  /** Approval comment URL, when present (absent otherwise; `null` in input is read as absent). */
  readonly approval_comment_url?: string;
  /** Workflow file name passed by the workflow (may be empty). */
  readonly workflow: string;
  /** Session lane, `default` unless set. */
  readonly lane: string;
  /** `repo:target_kind:target_number:route:lane`, always derived from the fields above. */
  readonly thread_key: string;
}

function pickThreadKeyFields(envelope: ThreadKeyParts): ThreadKeyParts {
  const { repo_slug, target_kind, target_number, route, lane } = envelope;
  return { repo_slug, target_kind, target_number, route, lane };
}

/**
 * Zod schema of a RuntimeEnvelope. Unknown fields are rejected (a typo such as `lanes` must not
 * silently fall back to a default). `request_text` and `workflow` default to `''`, `lane` to
 * `default`, and `approval_comment_url: null` is read as absent. Cross-field rules: the target
 * number is 0 exactly for `repository`, and `thread_key` equals the key derived from the other
 * fields and is storable as a git ref (see `encodeThreadKeyForRef`).
 */
export const RuntimeEnvelopeSchema = z
  .strictObject(
    {
      schema_version: z.literal(ENVELOPE_SCHEMA_VERSION, expected(`schema_version ${ENVELOPE_SCHEMA_VERSION}`)),
      repo_slug: RepoSlugSchema,
      route: RouteSchema,
      source_kind: SourceKindSchema,
      target_kind: TargetKindSchema,
      target_number: TargetNumberSchema,
      target_url: HttpUrlSchema,
      request_text: z.string(expected('a string')).default(''),
      requested_by: LoginSchema,
      approval_comment_url: HttpUrlSchema.nullish(),
      workflow: WorkflowSchema.default(''),
      lane: LaneSchema.default(DEFAULT_LANE),
      thread_key: z.string(expected('a thread key string')),
    },
    { error: objectExpected },
  )
  .superRefine((envelope, ctx) => {
    // Field problems are already reported; only judge the key once its fields are valid.
    if (!areWellFormedThreadKeyFields(pickThreadKeyFields(envelope))) return;
    const numberProblem = targetNumberProblem(envelope.target_kind, envelope.target_number);
    if (numberProblem !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['target_number'], message: numberProblem });
      return;
    }
    const derivedProblem = refEncodingProblem(envelope);
    if (derivedProblem !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['thread_key'], message: derivedProblem });
      return;
    }
    const derived = joinThreadKey(envelope);
    if (envelope.thread_key !== derived) {
      ctx.addIssue({
        code: 'custom',
        path: ['thread_key'],
        message:
          `expected ${JSON.stringify(derived)} (derived from repo_slug, target_kind, target_number, route and lane), ` +
          `got ${describeValue(envelope.thread_key)}`,
      });
    }
  })
  .transform((envelope): RuntimeEnvelope => {
    const { approval_comment_url, ...rest } = envelope;
    return approval_comment_url == null ? rest : { ...rest, approval_comment_url };
  });

/** What {@link buildEnvelope} needs; `schema_version` and `thread_key` are filled in. */
export interface EnvelopeInput {
  /** Repository as `owner/repo`. */
  readonly repo_slug: string;
  /** Route name. */
  readonly route: string;
  /** Triggering surface. */
  readonly source_kind: string;
  /** Target kind. */
  readonly target_kind: TargetKind;
  /** Target number (0 for `repository`). */
  readonly target_number: number;
  /** Canonical target URL. */
  readonly target_url: string;
  /** The user's request (default `''`). */
  readonly request_text?: string | undefined;
  /** Requester's GitHub login. */
  readonly requested_by: string;
  /** Approval comment URL, if any. */
  readonly approval_comment_url?: string | null | undefined;
  /** Workflow file name (default `''`). */
  readonly workflow?: string | undefined;
  /** Session lane (default `default`; `''`, what an unset workflow input gives, also means `default`). */
  readonly lane?: string | undefined;
}

/** Result of {@link validateEnvelope}. */
export type EnvelopeValidation =
  | { readonly ok: true; readonly envelope: RuntimeEnvelope }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

/**
 * Validates outside data as a RuntimeEnvelope. A string is read as JSON. Every problem is
 * reported with the field and the problem, e.g. `target_number: expected an integer, got string "3"`.
 */
export function validateEnvelope(input: unknown): EnvelopeValidation {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, issues: [{ path: '', message: `envelope: invalid JSON (${reason})` }] };
    }
  }
  const result = RuntimeEnvelopeSchema.safeParse(value, { reportInput: true });
  if (result.success) return { ok: true, envelope: result.data };
  return { ok: false, issues: toValidationIssues(result.error.issues, 'envelope') };
}

function throwInvalid(issues: readonly ValidationIssue[]): never {
  throw new RepomemError('INVALID_ENVELOPE', `invalid envelope: ${formatIssues(issues)}`, { details: { issues } });
}

/**
 * Parses outside data (an object or a JSON string) as a RuntimeEnvelope.
 * `parseEnvelope(JSON.stringify(buildEnvelope(x)))` deep-equals `buildEnvelope(x)`.
 * @throws RepomemError `INVALID_ENVELOPE` listing every problem (also in `details.issues`).
 */
export function parseEnvelope(input: unknown): RuntimeEnvelope {
  const result = validateEnvelope(input);
  if (!result.ok) throwInvalid(result.issues);
  return result.envelope;
}

/**
 * Builds a validated envelope: sets `schema_version`, defaults `lane` to `default` (also for `''`),
 * `request_text` and `workflow` to `''`, and derives `thread_key`.
 * @throws RepomemError `INVALID_ENVELOPE` listing every invalid field.
 */
export function buildEnvelope(input: EnvelopeInput): RuntimeEnvelope {
  const lane = input.lane === undefined || input.lane === '' ? DEFAULT_LANE : input.lane;
  const candidate = {
    schema_version: ENVELOPE_SCHEMA_VERSION,
    repo_slug: input.repo_slug,
    route: input.route,
    source_kind: input.source_kind,
    target_kind: input.target_kind,
    target_number: input.target_number,
    target_url: input.target_url,
    request_text: input.request_text ?? '',
    requested_by: input.requested_by,
    ...(input.approval_comment_url == null ? {} : { approval_comment_url: input.approval_comment_url }),
    workflow: input.workflow ?? '',
    lane,
    thread_key: joinThreadKey({
      repo_slug: input.repo_slug,
      target_kind: input.target_kind,
      target_number: input.target_number,
      route: input.route,
      lane,
    }),
  };
  return parseEnvelope(candidate);
}
