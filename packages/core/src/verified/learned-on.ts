// Why: memory follows the code (issue 26): every verified memory and task record says which
// commit and branch it was learned on, whether it was promoted from a branch when that branch's
// pull request merged, and whether it is quarantined because the pull request closed unmerged.
// One definition of these fields keeps the write side (record, promote, quarantine) and the read
// side (branch scope) of every store in agreement. Records without `learned_on` predate it and
// belong to the default branch's scope.
import { z } from 'zod';
import { gitRefComponentProblem } from '../envelope/ref-encoding.js';
import { RepomemError } from '../errors.js';

/** Longest branch name kept in `learned_on`, `promoted_from` or `quarantine`, in characters. */
export const MAX_LEARNED_REF_CHARS = 200;
/** Largest pull request number kept (a GitHub pull request number is a 32-bit integer). */
export const MAX_PULL_REQUEST_NUMBER = 2 ** 31 - 1;

const COMMIT_PATTERN = /^[0-9a-f]{7,40}$/;
const FULL_REF_PREFIX = 'refs/heads/';
/** A UTF-16 surrogate without its pair (not text git could print; JSON would escape it). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why `branch` is not a branch name as `git branch` prints it (the rules of
 * `git check-ref-format --branch`), or `undefined` when it is one.
 */
export function learnedRefProblem(branch: string): string | undefined {
  if (branch.length === 0) return 'is empty';
  if (branch.length > MAX_LEARNED_REF_CHARS) return `is longer than ${MAX_LEARNED_REF_CHARS} characters`;
  if (branch.startsWith('-')) return 'starts with "-"';
  if (branch === 'HEAD') return 'is "HEAD"';
  if (branch === '@') return 'is "@"';
  if (branch.includes('@{')) return 'contains "@{"';
  if (branch.startsWith('/')) return 'starts with "/"';
  if (branch.endsWith('/')) return 'ends with "/"';
  if (LONE_SURROGATE.test(branch)) return 'contains an unpaired surrogate';
  for (const component of branch.split('/')) {
    if (component === '') return 'contains "//"';
    const problem = gitRefComponentProblem(component);
    if (problem !== undefined) return `has a component ${JSON.stringify(component)} that ${problem}`;
  }
  return undefined;
}

/** `ref` without a `refs/heads/` prefix. */
export function branchName(ref: string): string {
  return ref.startsWith(FULL_REF_PREFIX) ? ref.slice(FULL_REF_PREFIX.length) : ref;
}

/**
 * A branch name as `git branch` prints it (`main`, `feature/x`): a full `refs/heads/...` ref is
 * accepted on input and stored without that prefix; at most {@link MAX_LEARNED_REF_CHARS}
 * characters; refused unless `git check-ref-format --branch` would accept it.
 */
export const LearnedRefSchema = z
  .string({ error: 'ref must be a string (a branch name such as main or feature/x)' })
  .transform((value, ctx) => {
    const branch = branchName(value);
    const problem = learnedRefProblem(branch);
    if (problem !== undefined) {
      ctx.addIssue({ code: 'custom', message: `ref ${JSON.stringify(value)} is not a branch name: it ${problem}` });
      return z.NEVER;
    }
    return branch;
  });

/** A commit id: the full 40 hex digits, or an abbreviation of 7 to 40 (stored lowercase). */
export const LearnedCommitSchema = z
  .string({ error: 'commit must be a string of hex digits' })
  .transform((value) => value.toLowerCase())
  .refine((value) => COMMIT_PATTERN.test(value), { message: 'commit must be 7 to 40 hex digits' });

/** A pull request number (1 to 2^31 - 1). */
export const PullRequestNumberSchema = z
  .number({ error: 'pull_request must be a number' })
  .int({ message: 'pull_request must be an integer' })
  .min(1, { message: 'pull_request must be >= 1' })
  .max(MAX_PULL_REQUEST_NUMBER, { message: `pull_request must be <= ${MAX_PULL_REQUEST_NUMBER}` });

const IsoTimestampSchema = z.iso.datetime({ offset: true, message: 'expected an ISO 8601 timestamp' });

/**
 * Where a record was learned: the commit and branch of the task that wrote it. After promotion
 * it names the default branch and the merge commit. Absent = the default branch's scope.
 */
export const LearnedOnSchema = z
  .object({
    /** Commit the task was working on (promoted: the merge commit). */
    commit: LearnedCommitSchema,
    /** Branch the task was working on (promoted: the default branch). */
    ref: LearnedRefSchema,
  })
  .strict();
/** Where a record was learned. */
export type LearnedOn = z.output<typeof LearnedOnSchema>;
/** Where a record was learned, as callers write it (a `refs/heads/` prefix is accepted). */
export type LearnedOnInput = z.input<typeof LearnedOnSchema>;

/**
 * A writer's `learnedOn` option, validated: `undefined` stays `undefined` (the default branch's
 * scope); anything else must be `{commit, ref}` ({@link LearnedOnSchema}), else `INVALID_ARGUMENT`
 * naming the problem.
 */
export function parseLearnedOnOption(value: unknown): LearnedOn | undefined {
  if (value === undefined) return undefined;
  const parsed = LearnedOnSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) =>
      issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    );
    throw new RepomemError('INVALID_ARGUMENT', `invalid learnedOn: ${problems.join('; ')}`, { details: { value } });
  }
  return parsed.data;
}

/** Where a promoted record was learned before its branch's pull request merged. */
export const PromotedFromSchema = z
  .object({
    /** The branch it was learned on. */
    ref: LearnedRefSchema,
    /** The commit it was learned on. */
    commit: LearnedCommitSchema,
    /** The pull request that merged the branch, when known. */
    pull_request: PullRequestNumberSchema.optional(),
  })
  .strict();
/** Where a promoted record was learned before promotion. */
export type PromotedFrom = z.output<typeof PromotedFromSchema>;

/** Why a record is quarantined. */
export const QUARANTINE_REASONS = ['pull-request-closed'] as const;
/** Why a record is quarantined. */
export type QuarantineReason = (typeof QUARANTINE_REASONS)[number];

/**
 * A quarantined record: its branch's pull request closed unmerged. Kept for review, never served
 * by reads; deletable.
 */
export const QuarantineSchema = z
  .object({
    /** Why it is quarantined. */
    reason: z.enum(QUARANTINE_REASONS),
    /** The branch whose pull request closed. */
    ref: LearnedRefSchema,
    /** The pull request, when known. */
    pull_request: PullRequestNumberSchema.optional(),
    /** When it was quarantined (ISO 8601). */
    at: IsoTimestampSchema,
  })
  .strict();
/** A quarantine mark. */
export type Quarantine = z.output<typeof QuarantineSchema>;

/**
 * The optional fields every verified memory and task record (learning, episode, rule) carries:
 * spread `LEARNED_ON_FIELDS` into a `z.object({...})`.
 */
export const LEARNED_ON_FIELDS = {
  /** Commit and branch the record was learned on; absent = the default branch's scope. */
  learned_on: LearnedOnSchema.optional(),
  /** Set on promotion: where it was learned before its branch merged. */
  promoted_from: PromotedFromSchema.optional(),
  /** Set when its branch's pull request closed unmerged: never served. */
  quarantine: QuarantineSchema.optional(),
} as const;

/** The learned-on fields of a record (see {@link LEARNED_ON_FIELDS}). */
export interface LearnedOnFields {
  /** Commit and branch the record was learned on; absent = the default branch's scope. */
  readonly learned_on?: LearnedOn;
  /** Set on promotion. */
  readonly promoted_from?: PromotedFrom;
  /** Set when quarantined. */
  readonly quarantine?: Quarantine;
}

/** The learned-on fields `record` has (only those present), e.g. of a verified memory or learning. */
export function learnedOnFieldsOf(record: LearnedOnFields): LearnedOnFields {
  return {
    ...(record.learned_on === undefined ? {} : { learned_on: record.learned_on }),
    ...(record.promoted_from === undefined ? {} : { promoted_from: record.promoted_from }),
    ...(record.quarantine === undefined ? {} : { quarantine: record.quarantine }),
  };
}

/**
 * The branch line a record belongs to when contradictions are settled: `null` when it is shared
 * (no `learned_on`, or learned on the default branch), else its branch. A memory stored on a
 * branch supersedes only memories of the same line, so a branch never takes a fact away from the
 * default branch before its pull request merges (promotion settles the lines then).
 */
export function branchLine(learned: { readonly ref: string } | undefined, defaultBranch: string): string | null {
  return learned === undefined || learned.ref === defaultBranch ? null : learned.ref;
}
