// Why: every agent run receives one RuntimeEnvelope (seed 001). It is outside data (env, JSON
// files, workflow inputs), so it is validated field by field with messages that name the field
// and the problem, and its thread key must be the one derived from its other fields.
import { z } from 'zod';
import { RepomemError } from '../errors.js';
import {
  DEFAULT_LANE,
  ENVELOPE_SCHEMA_VERSION,
  HttpUrlSchema,
  KNOWN_ROUTES,
  KNOWN_SOURCE_KINDS,
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
  /** Approval comment URL, or `null` when there is none (Sepo's shape: the key is always present). */
  readonly approval_comment_url: string | null;
  /** Workflow file name passed by the workflow (may be empty). */
  readonly workflow: string;
  /** Session lane, `default` unless set. */
  readonly lane: string;
  /** `repo:target_kind:target_number:route:lane`, always derived from the fields above. */
  readonly thread_key: string;
}

/** Zod schema of the envelope's fields, each checked on its own (no cross-field rules). */
const EnvelopeFieldsSchema = z.strictObject(
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
);

/**
 * Options of envelope validation. By default only the routes and source kinds of the runtime
 * documentation ({@link KNOWN_ROUTES}, {@link KNOWN_SOURCE_KINDS}) are accepted; a deployment
 * with its own routes or triggers names them here (the explicit extension point).
 */
export interface EnvelopeOptions {
  /** Routes accepted besides {@link KNOWN_ROUTES} (each must still match the route pattern). */
  readonly customRoutes?: readonly string[];
  /** Source kinds accepted besides {@link KNOWN_SOURCE_KINDS} (each must still be snake_case). */
  readonly customSourceKinds?: readonly string[];
}

function fieldValue<T>(
  schema: z.ZodType<T>,
  record: Record<string, unknown>,
  key: string,
  fallback?: T,
): T | undefined {
  const raw = record[key] === undefined && fallback !== undefined ? fallback : record[key];
  const result = schema.safeParse(raw);
  return result.success ? result.data : undefined;
}

/**
 * Every rule beyond a single field's shape, checked on whatever fields are valid (so a problem
 * here is reported together with every field problem, never hidden by one): route and source
 * kind in the allowed lists, the per-kind target number, and `thread_key` equal to the key
 * derived from the other fields and storable as a git ref.
 */
function crossFieldIssues(value: unknown, options: EnvelopeOptions): ValidationIssue[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const record = value as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  const route = fieldValue(RouteSchema, record, 'route');
  const routes: readonly string[] = [...KNOWN_ROUTES, ...(options.customRoutes ?? [])];
  if (route !== undefined && !routes.includes(route)) {
    issues.push({
      path: 'route',
      message: `route: expected one of ${routes.join(', ')} (other routes only through the customRoutes option), got ${describeValue(route)}`,
    });
  }
  const sourceKind = fieldValue(SourceKindSchema, record, 'source_kind');
  const sourceKinds: readonly string[] = [...KNOWN_SOURCE_KINDS, ...(options.customSourceKinds ?? [])];
  if (sourceKind !== undefined && !sourceKinds.includes(sourceKind)) {
    issues.push({
      path: 'source_kind',
      message: `source_kind: expected one of ${sourceKinds.join(', ')} (others only through the customSourceKinds option), got ${describeValue(sourceKind)}`,
    });
  }
  const kind = fieldValue(TargetKindSchema, record, 'target_kind');
  const number = fieldValue(TargetNumberSchema, record, 'target_number');
  if (kind !== undefined && number !== undefined) {
    const numberProblem = targetNumberProblem(kind, number);
    if (numberProblem !== undefined) issues.push({ path: 'target_number', message: `target_number: ${numberProblem}` });
  }
  const threadKey = record.thread_key;
  const parts = {
    repo_slug: fieldValue(RepoSlugSchema, record, 'repo_slug'),
    target_kind: kind,
    target_number: number,
    route,
    lane: fieldValue(LaneSchema, record, 'lane', DEFAULT_LANE),
  };
  if (typeof threadKey !== 'string' || !areWellFormedThreadKeyFields(parts as ThreadKeyParts)) return issues;
  const keyParts = parts as ThreadKeyParts;
  const derivedProblem = refEncodingProblem(keyParts);
  if (derivedProblem !== undefined) {
    issues.push({ path: 'thread_key', message: `thread_key: ${derivedProblem}` });
    return issues;
  }
  const derived = joinThreadKey(keyParts);
  if (threadKey !== derived) {
    issues.push({
      path: 'thread_key',
      message:
        `thread_key: expected ${JSON.stringify(derived)} (derived from repo_slug, target_kind, target_number, route and lane), ` +
        `got ${describeValue(threadKey)}`,
    });
  }
  return issues;
}

function toEnvelope(fields: z.output<typeof EnvelopeFieldsSchema>): RuntimeEnvelope {
  return { ...fields, approval_comment_url: fields.approval_comment_url ?? null };
}

/**
 * Zod schema of a RuntimeEnvelope with the default options (see {@link validateEnvelope}, which
 * reports field and cross-field problems together). Unknown fields are rejected (a typo such as
 * `lanes` must not silently fall back to a default). `request_text` and `workflow` default to
 * `''`, `lane` to `default`, `approval_comment_url` to `null`. Cross-field rules: route and
 * source kind from the documented lists, the target number is 0 exactly for `repository`, and
 * `thread_key` equals the key derived from the other fields and is storable as a git ref.
 */
export const RuntimeEnvelopeSchema = EnvelopeFieldsSchema.superRefine((envelope, ctx) => {
  for (const issue of crossFieldIssues(envelope, {})) {
    const message = issue.message.slice(issue.path.length + 2);
    ctx.addIssue({ code: 'custom', path: [issue.path], message });
  }
}).transform(toEnvelope);

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
 * reported (all invalid fields, and every cross-field rule that can be judged), each with the
 * field and the problem, e.g. `target_number: expected an integer, got string "3"`.
 */
export function validateEnvelope(input: unknown, options: EnvelopeOptions = {}): EnvelopeValidation {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, issues: [{ path: '', message: `envelope: invalid JSON (${reason})` }] };
    }
  }
  const result = EnvelopeFieldsSchema.safeParse(value, { reportInput: true });
  const issues = result.success ? [] : toValidationIssues(result.error.issues, 'envelope');
  const reported = new Set(issues.map((issue) => issue.path));
  // A field already reported invalid is not judged again by the cross-field rules.
  issues.push(...crossFieldIssues(value, options).filter((issue) => !reported.has(issue.path)));
  if (result.success && issues.length === 0) return { ok: true, envelope: toEnvelope(result.data) };
  return { ok: false, issues };
}

function throwInvalid(issues: readonly ValidationIssue[]): never {
  throw new RepomemError('INVALID_ENVELOPE', `invalid envelope: ${formatIssues(issues)}`, { details: { issues } });
}

/**
 * Parses outside data (an object or a JSON string) as a RuntimeEnvelope.
 * `parseEnvelope(JSON.stringify(buildEnvelope(x)))` deep-equals `buildEnvelope(x)`.
 * @throws RepomemError `INVALID_ENVELOPE` listing every problem (also in `details.issues`).
 */
export function parseEnvelope(input: unknown, options: EnvelopeOptions = {}): RuntimeEnvelope {
  const result = validateEnvelope(input, options);
  if (!result.ok) throwInvalid(result.issues);
  return result.envelope;
}

/**
 * Builds a validated envelope: sets `schema_version`, defaults `lane` to `default` (also for `''`),
 * `request_text` and `workflow` to `''`, `approval_comment_url` to `null`, and derives `thread_key`.
 * @throws RepomemError `INVALID_ENVELOPE` listing every invalid field.
 */
export function buildEnvelope(input: EnvelopeInput, options: EnvelopeOptions = {}): RuntimeEnvelope {
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
    approval_comment_url: input.approval_comment_url ?? null,
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
  return parseEnvelope(candidate, options);
}
