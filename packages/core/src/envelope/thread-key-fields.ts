// Why: a thread key is five validated fields joined by `:`. This module holds the fields' schema
// and the join, without the git-ref encodability rule, so the ref encoder can use it to
// enumerate candidate readings of an encoded key without importing the full key validator.
import { z } from 'zod';
import {
  LaneSchema,
  RouteSchema,
  type TargetKind,
  TargetKindSchema,
  TargetNumberSchema,
  targetNumberProblem,
} from './fields.js';
import { repoSlugProblem } from './repo-slug.js';
import { expected } from './validation-issues.js';

/** The five fields a thread key is made of. */
export interface ThreadKeyParts {
  /** Repository as `owner/repo`. */
  readonly repo_slug: string;
  /** Kind of target (`repository` for repo-scoped runs). */
  readonly target_kind: TargetKind;
  /** Target number (0 exactly when `target_kind` is `repository`). */
  readonly target_number: number;
  /** Route name. */
  readonly route: string;
  /** Lane name. */
  readonly lane: string;
}

/**
 * Zod schema of a thread key's repository: an `owner/repo` slug whose names may also hold `%`.
 * Sepo builds keys from whatever repository string it is given and its ref encoding
 * (`%`->`%25`) round-trips a `%` (`org/%2F:issue:1:r:l`), so a key Sepo stored is readable here.
 */
export const ThreadKeyRepoSchema = z.string(expected('a string "owner/repo"')).superRefine((value, ctx) => {
  const problem = repoSlugProblem(value.replaceAll('%', 'x'));
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: repoSlugProblem(value) ?? problem, input: value });
});

const ThreadKeyShapeSchema = z.strictObject({
  repo_slug: ThreadKeyRepoSchema,
  target_kind: TargetKindSchema,
  target_number: TargetNumberSchema,
  route: RouteSchema,
  lane: LaneSchema,
});

/** True when each field is well-formed on its own (cross-field and ref rules not checked). */
export function areWellFormedThreadKeyFields(parts: unknown): boolean {
  return ThreadKeyShapeSchema.safeParse(parts).success;
}

/** Zod schema of the thread key fields, including the per-kind target number rule (not the ref rule). */
export const ThreadKeyFieldsSchema = ThreadKeyShapeSchema.superRefine((parts, ctx) => {
  const problem = targetNumberProblem(parts.target_kind, parts.target_number);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['target_number'], message: problem });
});

/** Joins fields into `repo:target_kind:target_number:route:lane` without validating them. */
export function joinThreadKey(parts: ThreadKeyParts): string {
  return `${parts.repo_slug}:${parts.target_kind}:${parts.target_number}:${parts.route}:${parts.lane}`;
}

/** True when `parts` pass {@link ThreadKeyFieldsSchema}. */
export function areValidThreadKeyFields(parts: ThreadKeyParts): boolean {
  return ThreadKeyFieldsSchema.safeParse(parts).success;
}
