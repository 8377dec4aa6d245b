// Why: a memory learned on a branch becomes true on the default branch when the branch's pull
// request merges (issue 26). Promotion moves every record learned on the branch into the default
// branch's scope (`learned_on` = the default branch and the merge commit, `promoted_from` = where
// it was learned) and re-verifies each active verified memory against the merge commit in the
// same write, so a fact the merge broke is invalidated at once and a fact it kept is refreshed
// with citations anchored at the merge. A record already promoted no longer names the branch, so
// running promotion twice changes nothing the second time.

import type { CitationReader } from '../citations/reader.js';
import type { CitationCheck } from '../citations/verification-types.js';
import { anchoredCitation, verifyCitations } from '../citations/verify.js';
import { RepomemError } from '../errors.js';
import { KnowledgeDataSchema } from '../tasks/memory/knowledge-record.js';
import { contradictingLearnings } from '../tasks/memory/learnings.js';
import type { TaskRecord, TaskRecordBackend } from '../tasks/record-backend.js';
import type { VerifiedMemoryBackend } from '../verified/backend.js';
import { contradictionKey, contradicts, newestCreated } from '../verified/contradictions.js';
import {
  branchLine,
  LearnedCommitSchema,
  type LearnedOn,
  LearnedRefSchema,
  type PromotedFrom,
  PullRequestNumberSchema,
} from '../verified/learned-on.js';
import { MAX_NOTE_CHARS, memoryMaxAgeMs, type TelemetryEvent, type VerifiedMemory } from '../verified/record.js';
import {
  type BranchRecord,
  type BranchRecordKind,
  type BranchRecordTargets,
  branchRecordSummary,
  checkTargets,
  readBranchRecords,
  updateMemory,
  updateTaskRecord,
  withoutKeys,
} from './branch-records.js';

/** Options of {@link promoteBranchMemories}. */
export interface PromoteBranchMemoriesOptions extends BranchRecordTargets {
  /** The branch whose pull request merged (`feature/x`; a `refs/heads/` prefix is dropped). */
  readonly ref: string;
  /** The merge commit (7 to 40 hex digits): the promoted records' new `learned_on.commit`. */
  readonly mergeCommit: string;
  /** The branch the pull request merged into (the repository's default branch, e.g. `main`). */
  readonly defaultBranch: string;
  /** The pull request number, recorded in `promoted_from`. */
  readonly pullRequest?: number;
  /**
   * Reads code to re-verify each active memory at the merge commit. Without one the memories are
   * promoted unverified (the next `recall` verifies them).
   */
  readonly citations?: CitationReader;
  /** Max age in days of a refreshed memory (default 28, as the verified-memory service). */
  readonly maxAgeDays?: number;
  /** Clock (tests). */
  readonly now?: () => Date;
}

/** What re-verification at the merge commit concluded for one promoted record. */
export type PromotionVerification =
  /** Every citation holds at the merge commit: refreshed, citations anchored there. */
  | 'valid'
  /** A citation no longer holds at the merge commit: the memory is now invalid. */
  | 'invalidated'
  /** Not checked now: no reader, or the code could not be read (left as it was). */
  | 'unverified'
  /** Not a verified memory, or a memory that is not active: nothing to verify. */
  | 'not-applicable';

/** One record promoted. */
export interface PromotedRecord {
  /** `memory` (verified memory), `knowledge`, `episode` or `rule`. */
  readonly kind: BranchRecordKind;
  /** Record id. */
  readonly id: string;
  /** Subject, rule or description (one line). */
  readonly summary: string;
  /** Re-verification at the merge commit. */
  readonly verification: PromotionVerification;
  /** Why it was invalidated (`verification: 'invalidated'`). */
  readonly reason?: string;
  /** The failing or unreadable citation checks, when verification was not `valid`. */
  readonly checks?: readonly CitationCheck[];
  /**
   * Ids superseded when the promoted memory joined the default branch's line: of the active
   * memories there with its subject and scope, the newest created stays active (seed 004).
   */
  readonly superseded?: readonly string[];
}

/** Result of {@link promoteBranchMemories}. */
export interface PromotionReport {
  /** The branch promoted from. */
  readonly ref: string;
  /** The branch promoted to. */
  readonly defaultBranch: string;
  /** The merge commit. */
  readonly mergeCommit: string;
  /** The pull request, when given. */
  readonly pullRequest?: number;
  /** Records promoted by this call (empty when run again). */
  readonly promoted: readonly PromotedRecord[];
}

/** Input of a branch outcome, validated. */
export interface BranchOutcomeInput {
  readonly ref: string;
  readonly pullRequest?: number;
}

/** Validate `ref` and `pullRequest`; `INVALID_ARGUMENT` naming the problem. */
export function parseBranchOutcome(ref: unknown, pullRequest: unknown): BranchOutcomeInput {
  const parsedRef = LearnedRefSchema.safeParse(ref);
  if (!parsedRef.success) {
    throw new RepomemError('INVALID_ARGUMENT', parsedRef.error.issues[0]?.message ?? 'invalid ref', {
      details: { ref },
    });
  }
  if (pullRequest === undefined) return { ref: parsedRef.data };
  const parsedPull = PullRequestNumberSchema.safeParse(pullRequest);
  if (!parsedPull.success) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `invalid pull request ${JSON.stringify(pullRequest)}: ${parsedPull.error.issues[0]?.message ?? ''}`,
      { details: { pullRequest } },
    );
  }
  return { ref: parsedRef.data, pullRequest: parsedPull.data };
}

function parseCommit(value: unknown): string {
  const parsed = LearnedCommitSchema.safeParse(value);
  if (!parsed.success) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `invalid merge commit ${JSON.stringify(value)}: expected 7 to 40 hex digits`,
      {
        details: { mergeCommit: value },
      },
    );
  }
  return parsed.data;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * Promote every record learned on `ref` (verified memories, learnings, episodes, rules; any
 * status, quarantined or not) to the default branch's scope: `learned_on` becomes
 * `{ref: defaultBranch, commit: mergeCommit}`, `promoted_from` keeps where it was learned and a
 * quarantine is lifted (a pull request closed, then reopened and merged). Each active verified
 * memory is re-verified at the merge commit in the same compare-and-swap write: refreshed with
 * its citations anchored there when they hold, invalidated when one does not, left unverified
 * when no reader is given or the code cannot be read. Idempotent: a promoted record no longer
 * names `ref`, so a second run promotes nothing.
 *
 * Throws `INVALID_ARGUMENT` for a ref or default branch that is not a branch name, a merge
 * commit that is not 7 to 40 hex digits, a bad pull request number, `ref` equal to the default
 * branch, or no backend; `CONFLICT` when a record keeps changing under concurrent writers.
 */
export async function promoteBranchMemories(options: PromoteBranchMemoriesOptions): Promise<PromotionReport> {
  checkTargets(options, 'promoteBranchMemories');
  const { ref, pullRequest } = parseBranchOutcome(options.ref, options.pullRequest);
  const defaultBranch = parseBranchOutcome(options.defaultBranch, undefined).ref;
  const mergeCommit = parseCommit(options.mergeCommit);
  if (ref === defaultBranch) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `cannot promote ${ref} into itself: it is the default branch, whose memories are already shared`,
      { details: { ref } },
    );
  }
  const maxAgeMs = memoryMaxAgeMs(options.maxAgeDays);
  const now = options.now ?? (() => new Date());
  const target: LearnedOn = { ref: defaultBranch, commit: mergeCommit };
  const records = await readBranchRecords(options, (fields) => fields.learned_on?.ref === ref);
  const promoted: PromotedRecord[] = [];
  for (const record of records) {
    const outcome = await promoteOne(record, {
      options,
      ref,
      target,
      pullRequest,
      maxAgeMs,
      now,
    });
    if (outcome !== undefined) promoted.push(outcome);
  }
  return {
    ref,
    defaultBranch,
    mergeCommit,
    ...(pullRequest === undefined ? {} : { pullRequest }),
    promoted,
  };
}

interface PromotionContext {
  readonly options: PromoteBranchMemoriesOptions;
  readonly ref: string;
  readonly target: LearnedOn;
  readonly pullRequest: number | undefined;
  readonly maxAgeMs: number;
  readonly now: () => Date;
}

function promotedFrom(learned: LearnedOn, pullRequest: number | undefined): PromotedFrom {
  return {
    ref: learned.ref,
    commit: learned.commit,
    ...(pullRequest === undefined ? {} : { pull_request: pullRequest }),
  };
}

async function promoteOne(record: BranchRecord, context: PromotionContext): Promise<PromotedRecord | undefined> {
  const summary = branchRecordSummary(record);
  if (record.kind !== 'memory') {
    const backend = context.options.tasks;
    if (backend === undefined) return undefined;
    const written = await updateTaskRecord(backend, record.record, context.now().toISOString(), (data) => {
      const learned = (data.learned_on ?? {}) as Partial<LearnedOn>;
      if (learned.ref !== context.ref || typeof learned.commit !== 'string') return undefined;
      return {
        ...withoutKeys(data, 'quarantine'),
        learned_on: context.target,
        promoted_from: promotedFrom({ ref: learned.ref, commit: learned.commit }, context.pullRequest),
      };
    });
    if (written === undefined) return undefined;
    const superseded = written.kind === 'knowledge' ? await settleSharedKnowledge(backend, written, context) : [];
    return {
      kind: record.kind,
      id: record.id,
      summary,
      verification: 'not-applicable',
      ...(superseded.length === 0 ? {} : { superseded }),
    };
  }
  const backend = context.options.verified;
  if (backend === undefined) return undefined;
  let verification: PromotionVerification = 'not-applicable';
  let checks: readonly CitationCheck[] | undefined;
  let reason: string | undefined;
  const written = await updateMemory(backend, record.memory, async (current) => {
    const learned = current.learned_on;
    if (learned?.ref !== context.ref) return undefined;
    const at = context.now();
    const moved: VerifiedMemory = {
      ...withoutQuarantine(current),
      learned_on: context.target,
      promoted_from: promotedFrom(learned, context.pullRequest),
    };
    const reader = context.options.citations;
    if (current.status !== 'active') {
      verification = 'not-applicable';
      return { record: moved, events: [] };
    }
    if (reader === undefined) {
      verification = 'unverified';
      return { record: moved, events: [] };
    }
    const result = await verifyCitations(reader, current.repo, current.citations, context.target.commit);
    checks = result.citations;
    const details = { promoted_from: learned.ref, ref: context.target.commit };
    if (result.invalid_count > 0) {
      verification = 'invalidated';
      const failures = result.citations.flatMap((check) => (check.kind === 'invalid' ? [check.message] : []));
      reason = truncate(`citation check failed at the merge commit: ${failures.join('; ')}`, MAX_NOTE_CHARS);
      return {
        record: { ...moved, status: 'invalid', invalid_reason: reason },
        events: [telemetry('verified_invalid', current, at, { ...details, reason })],
      };
    }
    if (result.unavailable_count > 0) {
      verification = 'unverified';
      return { record: moved, events: [] };
    }
    verification = 'valid';
    checks = undefined;
    return {
      record: {
        ...moved,
        citations: result.citations.map((check) =>
          check.kind === 'valid' || check.kind === 'relocated' ? anchoredCitation(check) : check.citation,
        ),
        refreshed_at: at.toISOString(),
        verification_count: current.verification_count + 1,
        expires_at: new Date(at.getTime() + context.maxAgeMs).toISOString(),
      },
      events: [
        telemetry('verified_valid', current, at, {
          ...details,
          relocated: result.citations.filter((check) => check.kind === 'relocated').length,
        }),
        telemetry('refreshed', current, at, { promoted_from: learned.ref }),
      ],
    };
  });
  if (written === undefined) return undefined;
  const superseded = written.status === 'active' ? await settleSharedLine(backend, written, context) : [];
  return {
    kind: 'memory',
    id: record.id,
    summary,
    verification,
    ...(reason === undefined ? {} : { reason }),
    ...(checks === undefined ? {} : { checks }),
    ...(superseded.length === 0 ? {} : { superseded }),
  };
}

/**
 * Once promoted, a memory shares the default branch's line with the memories learned there: of
 * the active ones with its subject and scope, the newest created stays active and the others are
 * superseded by it (seed 004's rule, which a branch could not apply before the merge). Returns the
 * ids superseded; one that changed meanwhile is left for the next write of its subject.
 */
async function settleSharedLine(
  backend: VerifiedMemoryBackend,
  promoted: VerifiedMemory,
  context: PromotionContext,
): Promise<string[]> {
  const key = contradictionKey(promoted);
  const shared = (
    await backend.bySubject({ repo: promoted.repo, subjectKey: key.subject, statuses: ['active'] })
  ).filter((memory) => contradicts(memory, key) && branchLine(memory.learned_on, context.target.ref) === null);
  const winner = newestCreated(shared);
  if (winner === undefined || shared.length <= 1) return [];
  const at = context.now();
  const losers = shared.filter((memory) => memory.id !== winner.id);
  const superseded: string[] = [];
  for (const loser of losers) {
    const result = await backend.apply(
      [
        {
          record: { ...loser, status: 'superseded', superseded_by: winner.id, revision: loser.revision + 1 },
          expectedRevision: loser.revision,
        },
      ],
      [telemetry('superseded', loser, at, { superseded_by: winner.id, promoted_from: context.ref })],
    );
    if (result.ok) superseded.push(loser.id);
  }
  return superseded;
}

function withoutQuarantine(memory: VerifiedMemory): VerifiedMemory {
  const { quarantine: _lifted, ...rest } = memory;
  return rest;
}

function telemetry(
  type: TelemetryEvent['type'],
  memory: VerifiedMemory,
  at: Date,
  details: Record<string, unknown>,
): TelemetryEvent {
  return { type, memory_id: memory.id, repo: memory.repo, at: at.toISOString(), details };
}

/**
 * The learnings counterpart of {@link settleSharedLine}: of the active shared learnings with the
 * promoted one's subject and scope, the newest created stays active, the others are superseded.
 */
async function settleSharedKnowledge(
  backend: TaskRecordBackend,
  promoted: TaskRecord,
  context: PromotionContext,
): Promise<string[]> {
  const parsed = KnowledgeDataSchema.safeParse(promoted.data);
  if (!parsed.success || parsed.data.status !== 'active') return [];
  // The default branch's line: a record there (or without a branch) has line null.
  const candidates = await contradictingLearnings(
    backend,
    promoted.repo,
    parsed.data,
    (learned) => branchLine(learned, context.target.ref),
    undefined,
  );
  const shared = candidates.flatMap((record) => {
    const data = KnowledgeDataSchema.safeParse(record.data);
    return data.success ? [{ record, created: data.data.created_at }] : [];
  });
  if (shared.length <= 1) return [];
  const winner = shared.reduce((best, next) =>
    next.created > best.created || (next.created === best.created && next.record.id > best.record.id) ? next : best,
  );
  const superseded: string[] = [];
  const at = context.now().toISOString();
  for (const { record } of shared) {
    if (record.id === winner.record.id) continue;
    const written = await updateTaskRecord(backend, record, at, (data) =>
      data.status === 'active' ? { ...data, status: 'superseded', superseded_by: winner.record.id } : undefined,
    );
    if (written !== undefined) superseded.push(record.id);
  }
  return superseded;
}
