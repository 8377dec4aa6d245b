// Why: the envelope, the thread key and the policies all validate the same small vocabulary
// (repository slug, route, lane, target kind...). Defining each field's rule once keeps their
// error messages identical wherever the field appears.
import { z } from 'zod';
import { repoSlugProblem } from './repo-slug.js';
import { expected } from './validation-issues.js';

export { isRepoSlug, repoSlugProblem } from './repo-slug.js';

/** The envelope schema version this library reads and writes. */
export const ENVELOPE_SCHEMA_VERSION = 1 as const;

/** Lane used when none is given. */
export const DEFAULT_LANE = 'default';

/**
 * First-class routes named in the runtime documentation: the only routes an envelope accepts
 * unless others are named explicitly (`customRoutes` of the envelope options).
 */
export const KNOWN_ROUTES = [
  'answer',
  'implement',
  'fix-pr',
  'review',
  'agent-self-approve',
  'agent-self-merge',
  'create-action',
  'dispatch',
  'skill',
  'rubrics-review',
  'rubrics-initialization',
  'rubrics-update',
] as const;

/** Pattern every route name (and every policy route key) must match. */
export const ROUTE_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;

/** Pattern every lane must match (route-like, letters of either case allowed). */
export const LANE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Maximum length of a route or a lane. */
export const MAX_NAME_LENGTH = 100;

/**
 * Triggering surfaces named in the runtime documentation (the GitHub events Sepo's workflows
 * start from): the only source kinds an envelope accepts unless others are named explicitly
 * (`customSourceKinds` of the envelope options).
 */
export const KNOWN_SOURCE_KINDS = [
  'issue',
  'issue_comment',
  'pull_request',
  'pull_request_review',
  'pull_request_review_comment',
  'pull_request_target',
  'discussion',
  'discussion_comment',
  'workflow_dispatch',
  'schedule',
] as const;

/** Pattern every `source_kind` must match (GitHub event names are snake_case). */
export const SOURCE_KIND_PATTERN = /^[a-z][a-z0-9_]*$/;

/** Kinds of target a run can be anchored to; `repository` is for repo-scoped runs (number 0). */
export const TARGET_KINDS = ['issue', 'pull_request', 'discussion', 'repository'] as const;

/** A target kind. */
export type TargetKind = (typeof TARGET_KINDS)[number];

const LOGIN_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}(?:\[bot\])?$/;
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** True when `route` is a valid route name ({@link ROUTE_PATTERN}, at most 100 characters). */
export function isRouteName(route: unknown): route is string {
  return typeof route === 'string' && route.length <= MAX_NAME_LENGTH && ROUTE_PATTERN.test(route);
}

/** Zod schema of a repository slug `owner/repo`. */
export const RepoSlugSchema = z.string(expected('a string "owner/repo"')).superRefine((value, ctx) => {
  const problem = repoSlugProblem(value);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, input: value });
});

/** Zod schema of a route name. */
export const RouteSchema = z
  .string(expected('a route name such as "answer"'))
  .max(MAX_NAME_LENGTH, expected(`a route name of at most ${MAX_NAME_LENGTH} characters`))
  .regex(ROUTE_PATTERN, expected('a route name matching ^[a-z0-9][a-z0-9._-]*$ (for example "answer")'));

/** Zod schema of a lane name. */
export const LaneSchema = z
  .string(expected('a lane name such as "default"'))
  .max(MAX_NAME_LENGTH, expected(`a lane name of at most ${MAX_NAME_LENGTH} characters`))
  .regex(LANE_PATTERN, expected('a lane name matching ^[A-Za-z0-9][A-Za-z0-9._-]*$ (for example "default")'));

/** Zod schema of a source kind (the triggering GitHub event). */
export const SourceKindSchema = z
  .string(expected('a source kind such as "issue_comment"'))
  .max(MAX_NAME_LENGTH, expected(`a source kind of at most ${MAX_NAME_LENGTH} characters`))
  .regex(SOURCE_KIND_PATTERN, expected('a snake_case source kind such as "issue_comment"'));

/** Zod schema of a target kind. */
export const TargetKindSchema = z.enum(TARGET_KINDS, expected('one of issue, pull_request, discussion, repository'));

/** Zod schema of a target number (non-negative safe integer; the per-kind rule is checked by the envelope). */
export const TargetNumberSchema = z
  .int(expected('an integer'))
  .nonnegative(expected('a non-negative integer'))
  .max(Number.MAX_SAFE_INTEGER, expected('a safe integer'));

/** Zod schema of a GitHub login (optionally an app login ending in `[bot]`). */
export const LoginSchema = z
  .string(expected('a GitHub login'))
  .regex(LOGIN_PATTERN, expected('a GitHub login (1-39 letters, digits or hyphens, optionally ending in "[bot]")'));

/** True when `value` is an absolute `http:` or `https:` URL. */
export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'https:' || protocol === 'http:';
}

/** Zod schema of an absolute http(s) URL. */
export const HttpUrlSchema = z
  .string(expected('an absolute http(s) URL'))
  .refine(isHttpUrl, expected('an absolute http(s) URL'));

/** Zod schema of the workflow file name (free text without control characters, at most 255 characters; may be empty). */
export const WorkflowSchema = z
  .string(expected('a workflow file name'))
  .max(255, expected('a workflow file name of at most 255 characters'))
  .refine((value) => !CONTROL_CHARS.test(value), expected('a workflow file name without control characters'));

/** The per-kind rule for target numbers: `repository` uses 0, every other kind a number >= 1. */
export function targetNumberProblem(kind: TargetKind, number: number): string | undefined {
  if (kind === 'repository' && number !== 0) {
    return `must be 0 when target_kind is "repository", got ${number}`;
  }
  if (kind !== 'repository' && number < 1) {
    return `must be >= 1 when target_kind is "${kind}", got ${number}`;
  }
  return undefined;
}
