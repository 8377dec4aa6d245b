// Why: a memory learned on a branch is true on that branch and on branches that contain its
// commit, and nowhere else (issue 26): served or verified elsewhere it would mislead an agent or
// be invalidated by code it never described. This module decides, for many records at once,
// whether each is in the scope of the ref an agent works on, asking the git history one batched
// question for the records that need it; quarantined records are never in scope.
import { RepomemError } from '../errors.js';
import { branchName, type LearnedOnFields, learnedRefProblem } from '../verified/learned-on.js';
import type { BranchHistory } from './branch-history.js';

/** Used when neither the caller nor the reader names the default branch. */
export const FALLBACK_DEFAULT_BRANCH = 'main';

/** The ref an agent works on, as branch scope needs it. */
export interface BranchScope {
  /**
   * The branch the agent works on (`main`, `feature/x`; a `refs/heads/` prefix is dropped).
   * `undefined` when unknown (a detached HEAD): then only the history decides.
   */
  readonly ref?: string;
  /** The revision whose history decides containment; `undefined` = the reader's default (HEAD). */
  readonly head?: string;
  /** The repository's default branch: what was learned there is shared truth, visible everywhere. */
  readonly defaultBranch: string;
}

/** Why a record is in scope. */
export type InScopeReason =
  /** It records no `learned_on` (written before branch scope): the default branch's scope. */
  | 'unrecorded'
  /** Learned (or promoted) on the default branch. */
  | 'default-branch'
  /** Learned on the branch the agent works on (kept through force-pushes and rebases). */
  | 'same-branch'
  /** Learned on another branch at a commit the working ref's history contains. */
  | 'contained';

/** Why a record is out of scope. */
export type OutOfScopeReason =
  /** Its branch's pull request closed unmerged: kept for review, never served. */
  | 'quarantined'
  /** Learned on another branch at a commit the working ref's history does not contain. */
  | 'not-contained'
  /** Learned on another branch, and the history could not be read: not served (fail closed). */
  | 'history-unknown';

/** Whether one record is in the scope of a {@link BranchScope}. */
export type ScopeVerdict =
  | { readonly kind: 'in_scope'; readonly reason: InScopeReason }
  | { readonly kind: 'out_of_scope'; readonly reason: OutOfScopeReason; readonly message: string };

/**
 * A validated {@link BranchScope}: `ref` and `defaultBranch` must be branch names (a
 * `refs/heads/` prefix is dropped), `head` a non-empty revision. Throws `INVALID_ARGUMENT`.
 */
export function parseBranchScope(scope: {
  readonly ref?: string | undefined;
  readonly head?: string | undefined;
  readonly defaultBranch: string;
}): BranchScope {
  const name = (value: unknown, what: string): string => {
    if (typeof value !== 'string') throw new RepomemError('INVALID_ARGUMENT', `${what} must be a branch name`);
    const branch = branchName(value.trim());
    const problem = learnedRefProblem(branch);
    if (problem !== undefined) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `${what} ${JSON.stringify(value)} is not a branch name: it ${problem}`,
      );
    }
    return branch;
  };
  if (scope.head !== undefined && (typeof scope.head !== 'string' || scope.head.trim() === '')) {
    throw new RepomemError('INVALID_ARGUMENT', 'scope head must be a non-empty revision');
  }
  return {
    ...(scope.ref === undefined ? {} : { ref: name(scope.ref, 'ref') }),
    ...(scope.head === undefined ? {} : { head: scope.head }),
    defaultBranch: name(scope.defaultBranch, 'default branch'),
  };
}

/**
 * The verdict that needs no history, or `undefined` when the record was learned on another
 * branch and only the history can tell.
 */
export function scopeVerdictByName(record: LearnedOnFields, scope: BranchScope): ScopeVerdict | undefined {
  if (record.quarantine !== undefined) {
    return {
      kind: 'out_of_scope',
      reason: 'quarantined',
      message: `quarantined: the pull request of ${record.quarantine.ref} closed unmerged`,
    };
  }
  const learned = record.learned_on;
  if (learned === undefined) return { kind: 'in_scope', reason: 'unrecorded' };
  if (learned.ref === scope.defaultBranch) return { kind: 'in_scope', reason: 'default-branch' };
  if (scope.ref !== undefined && learned.ref === scope.ref) return { kind: 'in_scope', reason: 'same-branch' };
  return undefined;
}

function whereWorking(scope: BranchScope): string {
  if (scope.ref !== undefined) return scope.ref;
  return scope.head ?? 'HEAD';
}

/**
 * The verdict on each of `records` (same order) for `scope`. Records learned on another branch
 * are decided by one batched ancestry question to `history` (their distinct commits); without
 * that capability, or when the history cannot be read, they are out of scope (`history-unknown`):
 * never served, never verified, never invalidated.
 */
export async function scopeVerdicts(
  records: readonly LearnedOnFields[],
  scope: BranchScope,
  history: BranchHistory | undefined,
  repo: string,
): Promise<ScopeVerdict[]> {
  const verdicts = records.map((record) => scopeVerdictByName(record, scope));
  const commits = new Set<string>();
  for (const [index, verdict] of verdicts.entries()) {
    const learned = records[index]?.learned_on;
    if (verdict === undefined && learned !== undefined) commits.add(learned.commit);
  }
  if (commits.size === 0) return verdicts as ScopeVerdict[];
  const answer =
    history?.ancestry === undefined
      ? ({ kind: 'unknown', reason: 'the citation source cannot read the git history' } as const)
      : await history.ancestry({
          repo,
          ...(scope.head === undefined ? {} : { head: scope.head }),
          commits: [...commits],
        });
  const working = whereWorking(scope);
  return verdicts.map((verdict, index): ScopeVerdict => {
    if (verdict !== undefined) return verdict;
    const learned = records[index]?.learned_on;
    if (learned === undefined) return { kind: 'in_scope', reason: 'unrecorded' };
    if (answer.kind === 'unknown') {
      return {
        kind: 'out_of_scope',
        reason: 'history-unknown',
        message: `out of scope: learned on ${learned.ref} at ${learned.commit}, and whether ${working} contains that commit is unknown (${answer.reason})`,
      };
    }
    if (answer.contained.has(learned.commit)) return { kind: 'in_scope', reason: 'contained' };
    return {
      kind: 'out_of_scope',
      reason: 'not-contained',
      message: `out of scope: learned on ${learned.ref} at ${learned.commit}, which ${working} does not contain`,
    };
  });
}
