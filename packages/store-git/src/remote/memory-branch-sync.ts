// Why: Sepo pushes the memory branch once and loses the run's edits when another run pushed
// first (weakness 7). Here a push that loses the race fetches the new remote tip, re-applies
// this run's commits on it (three-way, nothing dropped), moves the local branch with a
// compare-and-swap and pushes again, with jittered exponential backoff. A remote that cannot be
// reached or refuses the credentials fails clearly and the local commits stay where they are.
import { isRepomemError, RepomemError } from '@repomem/core';
import pRetry, { AbortError } from 'p-retry';
import { assertIdentity, formatSignature, type GitIdentity } from '../objects/commit-object.js';
import { branchRef, DEFAULT_MEMORY_BRANCH } from '../refs/branch-name.js';
import { compareAndSwapRef } from '../refs/ref-lock.js';
import { readRef } from '../refs/ref-store.js';
import { findCheckout } from '../repository/checked-out.js';
import { commitsBetween, hasCommit, reachableCommits } from './commit-graph.js';
import { objectsToSend } from './objects-to-send.js';
import { type ResolvedConflict, reapplyCommits } from './reapply.js';
import { pushRefUpdate } from './receive-pack.js';
import {
  ensureCommit,
  openRemoteContext,
  type RemoteContext,
  type RepositoryRemoteOptions,
  updateTrackingRef,
} from './remote-context.js';
import { discoverRefs, type RefAdvertisement } from './smart-http.js';

/** Options naming the memory branch and its remote. */
export interface MemoryBranchRemoteOptions extends RepositoryRemoteOptions {
  /** The memory branch, locally and on the remote (default `agent/memory`). */
  readonly branch?: string;
}

/** Options of {@link syncMemoryBranch}. */
export interface SyncMemoryBranchOptions extends MemoryBranchRemoteOptions {
  /** Further attempts after a push lost a race (default 8); each waits longer, with jitter. */
  readonly retries?: number;
  /** Smallest wait before a retry in ms (default 25). */
  readonly minRetryDelayMs?: number;
  /** Largest wait before a retry in ms (default 2000). */
  readonly maxRetryDelayMs?: number;
  /** Told about each conflict as it is resolved (in favour of this run). */
  readonly onConflict?: (conflict: ResolvedConflict) => void | Promise<void>;
  /** Identity recorded in the local reflog when the branch moves (default `repomem <agent@localhost>`). */
  readonly committer?: GitIdentity;
  /** Allow moving a branch that is checked out in a worktree (default `false`). */
  readonly allowCheckedOutBranch?: boolean;
  /** Clock for re-applied commits' committer time (default `() => new Date()`). */
  readonly clock?: () => Date;
}

/** Outcome of {@link syncMemoryBranch}. */
export type SyncOutcome =
  /** Local and remote branch already hold the same commit (`null`: neither exists). */
  | { readonly status: 'up_to_date'; readonly commit: string | null }
  /** Nothing local to push; the local branch was fast-forwarded to the remote's `commit`. */
  | { readonly status: 'fetched_only'; readonly commit: string; readonly previous: string | null }
  /** The remote branch now holds `commit`. */
  | {
      readonly status: 'pushed';
      readonly commit: string;
      /** What the remote branch held before (`null`: it was created). */
      readonly previous: string | null;
      /** Local commits re-applied on a newer remote tip in the final attempt (0 when it was a fast-forward). */
      readonly reapplied: number;
      /** Conflicts resolved in favour of this run, over all attempts. */
      readonly conflicts: readonly ResolvedConflict[];
      /** Push attempts made (1 when nobody raced us). */
      readonly attempts: number;
    };

/** Outcome of {@link fetchMemoryBranch}. */
export type FetchOutcome =
  /** The remote branch's tip `commit` and its history are local (and the tracking ref updated). */
  | { readonly status: 'fetched'; readonly commit: string; readonly local: string | null }
  /** The remote has no such branch. */
  | { readonly status: 'remote_branch_missing' };

/** Outcome of {@link pushMemoryBranch}. */
export type PushOutcome =
  | { readonly status: 'pushed'; readonly commit: string; readonly previous: string | null }
  | { readonly status: 'up_to_date'; readonly commit: string }
  /** The remote has commits the local branch lacks (or refused the update): fetch and re-apply, e.g. with {@link syncMemoryBranch}. */
  | { readonly status: 'rejected'; readonly local: string; readonly remote: string | null; readonly reason: string };

const DEFAULT_RETRIES = 8;

/** A push lost a race: the remote moved under us (retried). */
class RemoteMoved extends Error {}

function keptMessage(error: RepomemError, branch: string, local: string | null): RepomemError {
  const kept =
    local === null
      ? 'nothing local was changed'
      : `the local commit ${local} of ${branch} is kept (nothing was lost); sync again once the remote is reachable`;
  return new RepomemError(error.code, `${error.message}; ${kept}`, {
    cause: error,
    details: { ...error.details, branch, localCommit: local },
  });
}

async function assertNotCheckedOut(context: RemoteContext, ref: string, branch: string, allow: boolean): Promise<void> {
  if (allow) return;
  const head = await findCheckout(context.fs, context.layout, ref);
  if (head !== undefined) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `branch ${branch} is checked out (${head}); syncing would move it under that worktree. ` +
        'Sync another clone, or pass allowCheckedOutBranch: true',
      { details: { branch, head } },
    );
  }
}

async function moveLocal(
  context: RemoteContext,
  ref: string,
  expected: string | null,
  next: string,
  identity: GitIdentity,
  message: string,
): Promise<boolean> {
  const result = await compareAndSwapRef(
    context.fs,
    context.layout.commondir,
    {
      ref,
      expected,
      next,
      reflog: { identity: formatSignature(identity, new Date()), message, create: !context.layout.bare },
    },
    context.timing,
    context.durable,
  );
  return result.status === 'updated';
}

function positiveCount(name: string, value: number | undefined, fallback: number, minimum: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < minimum) {
    throw new RepomemError('INVALID_ARGUMENT', `${name} must be an integer >= ${minimum}, got ${String(value)}`);
  }
  return value;
}

/**
 * Bring the local memory branch and the remote's together: push local commits; when the push
 * is rejected because someone else pushed, fetch, re-apply this run's commits on the remote tip
 * (see {@link ResolvedConflict}), move the local branch (compare-and-swap) and push again, up to
 * `retries` more times with jittered backoff. A local branch behind the remote is fast-forwarded.
 *
 * Throws `BACKEND_UNAVAILABLE` (remote unreachable, authentication failed, server error; the
 * message says the local commit is kept), `NOT_FOUND` (no such remote or repository),
 * `CONFLICT` (still losing races after all retries; local commits kept), `INVALID_ARGUMENT`,
 * `UNSUPPORTED` (non-HTTP remote).
 */
export async function syncMemoryBranch(options: SyncMemoryBranchOptions): Promise<SyncOutcome> {
  const branch = options?.branch ?? DEFAULT_MEMORY_BRANCH;
  const ref = branchRef(branch);
  const retries = positiveCount('retries', options?.retries, DEFAULT_RETRIES, 0);
  const minTimeout = positiveCount('minRetryDelayMs', options?.minRetryDelayMs, 25, 0);
  const maxTimeout = positiveCount('maxRetryDelayMs', options?.maxRetryDelayMs, 2_000, minTimeout);
  const identity = assertIdentity(options?.committer ?? { name: 'repomem', email: 'agent@localhost' }, 'committer');
  const clock = options?.clock ?? (() => new Date());
  const context = await openRemoteContext(options);
  const conflicts: ResolvedConflict[] = [];
  let attempts = 0;
  let lastRejection: { remote: string | null; pushed: string; reason: string } | undefined;

  const attempt = async (): Promise<SyncOutcome> => {
    const local = await readRef(context.fs, context.layout.commondir, ref);
    let remoteTip: string | null;
    let advertisement: RefAdvertisement;
    try {
      advertisement = await discoverRefs(context.http, context.remote, 'git-receive-pack');
      remoteTip = advertisement.refs.get(ref) ?? null;
      if (local === null) {
        if (remoteTip === null) return { status: 'up_to_date', commit: null };
        await ensureCommit(context, remoteTip, []);
        await assertNotCheckedOut(context, ref, branch, options.allowCheckedOutBranch ?? false);
        if (
          !(await moveLocal(context, ref, null, remoteTip, identity, `sync: ${branch} from ${context.remote.label}`))
        ) {
          throw new RemoteMoved('local branch moved');
        }
        await updateTrackingRef(context, branch, remoteTip);
        return { status: 'fetched_only', commit: remoteTip, previous: null };
      }
      if (remoteTip === local) {
        await updateTrackingRef(context, branch, remoteTip);
        return { status: 'up_to_date', commit: local };
      }
      if (remoteTip !== null) await ensureCommit(context, remoteTip, [local]);
    } catch (error) {
      if (error instanceof RepomemError) throw new AbortError(keptMessage(error, branch, local));
      throw error;
    }
    const remoteAncestry =
      remoteTip === null ? new Set<string>() : await reachableCommits(context.objects, [remoteTip]);
    if (remoteAncestry.has(local)) {
      // Nothing of ours is missing remotely: fast-forward the local branch.
      await assertNotCheckedOut(context, ref, branch, options.allowCheckedOutBranch ?? false);
      const message = `sync: fast-forward ${branch} to ${context.remote.label}`;
      if (!(await moveLocal(context, ref, local, remoteTip as string, identity, message))) {
        throw new RemoteMoved('local branch moved');
      }
      await updateTrackingRef(context, branch, remoteTip);
      return { status: 'fetched_only', commit: remoteTip as string, previous: local };
    }
    let ours = await commitsBetween(context.objects, remoteAncestry, local);
    let toPush = local;
    let reapplied = 0;
    const behind = remoteTip !== null && !(await reachableCommits(context.objects, [local])).has(remoteTip);
    if (behind && remoteTip !== null) {
      const result = await reapplyCommits(context.objects, ours, remoteTip, clock());
      for (const conflict of result.conflicts) {
        conflicts.push(conflict);
        await options.onConflict?.(conflict);
      }
      await assertNotCheckedOut(context, ref, branch, options.allowCheckedOutBranch ?? false);
      const message = `sync: re-applied ${ours.length} commit(s) on ${context.remote.label}/${branch}`;
      if (!(await moveLocal(context, ref, local, result.tip, identity, message))) {
        throw new RemoteMoved('local branch moved');
      }
      toPush = result.tip;
      reapplied = result.created;
      if (toPush === remoteTip) {
        await updateTrackingRef(context, branch, remoteTip);
        return { status: 'fetched_only', commit: remoteTip, previous: local };
      }
      ours = await commitsBetween(context.objects, remoteAncestry, toPush);
    }
    if (lastRejection !== undefined && lastRejection.remote === remoteTip && lastRejection.pushed === toPush) {
      throw new AbortError(
        new RepomemError(
          'BACKEND_UNAVAILABLE',
          `remote ${context.remote.label} refused to update ${ref}: ${lastRejection.reason}; ` +
            `the local commit ${toPush} of ${branch} is kept`,
          { details: { remote: context.remote.label, branch, localCommit: toPush, reason: 'rejected' } },
        ),
      );
    }
    attempts += 1;
    let pushed: Awaited<ReturnType<typeof pushRefUpdate>>;
    try {
      // The server applies the update only if the ref still holds `remoteTip` (its own compare-and-swap).
      pushed = await pushRefUpdate(
        context.http,
        context.remote,
        advertisement.capabilities,
        { fs: context.fs, commondir: context.layout.commondir },
        { ref, old: remoteTip, next: toPush },
        await objectsToSend(context.objects, ours),
      );
    } catch (error) {
      if (error instanceof RepomemError) throw new AbortError(keptMessage(error, branch, toPush));
      throw error;
    }
    if (pushed.status === 'rejected') {
      lastRejection = { remote: remoteTip, pushed: toPush, reason: pushed.reason };
      throw new RemoteMoved(pushed.reason);
    }
    await updateTrackingRef(context, branch, toPush);
    return { status: 'pushed', commit: toPush, previous: remoteTip, reapplied, conflicts, attempts };
  };

  try {
    return await pRetry(attempt, {
      retries,
      factor: 2,
      minTimeout,
      maxTimeout,
      randomize: true,
      shouldRetry: ({ error }) => error instanceof RemoteMoved,
    });
  } catch (error) {
    if (error instanceof RemoteMoved) {
      const local = await readRef(context.fs, context.layout.commondir, ref);
      throw new RepomemError(
        'CONFLICT',
        `${branch} on ${context.remote.label} kept moving: ${attempts} push attempt(s) were overtaken by other writers ` +
          `(last: ${error.message}); the local commit ${local} is kept, sync again`,
        { details: { remote: context.remote.label, branch, localCommit: local, attempts } },
      );
    }
    throw error;
  } finally {
    context.objects.clear();
  }
}

/**
 * Fetch the remote's memory branch (its tip and history become local objects; the remote-tracking
 * ref `refs/remotes/<remote>/<branch>` is updated for a named remote). The local branch is not moved.
 */
export async function fetchMemoryBranch(options: MemoryBranchRemoteOptions): Promise<FetchOutcome> {
  const branch = options?.branch ?? DEFAULT_MEMORY_BRANCH;
  const ref = branchRef(branch);
  const context = await openRemoteContext(options);
  try {
    const local = await readRef(context.fs, context.layout.commondir, ref);
    const remoteTip = (await discoverRefs(context.http, context.remote, 'git-upload-pack')).refs.get(ref) ?? null;
    if (remoteTip === null) return { status: 'remote_branch_missing' };
    await ensureCommit(context, remoteTip, local === null ? [] : [local]);
    await updateTrackingRef(context, branch, remoteTip);
    return { status: 'fetched', commit: remoteTip, local };
  } finally {
    context.objects.clear();
  }
}

/**
 * Push the local memory branch if the remote's branch is an ancestor of it (a fast-forward);
 * otherwise report `rejected` and change nothing. Throws `NOT_FOUND` when the local branch does
 * not exist, and like {@link syncMemoryBranch} for transport failures.
 */
export async function pushMemoryBranch(options: MemoryBranchRemoteOptions): Promise<PushOutcome> {
  const branch = options?.branch ?? DEFAULT_MEMORY_BRANCH;
  const ref = branchRef(branch);
  const context = await openRemoteContext(options);
  const local = await readRef(context.fs, context.layout.commondir, ref);
  if (local === null) {
    throw new RepomemError('NOT_FOUND', `branch ${branch} does not exist in ${context.layout.dir}; nothing to push`, {
      details: { branch },
    });
  }
  try {
    const advertisement = await discoverRefs(context.http, context.remote, 'git-receive-pack');
    const remoteTip = advertisement.refs.get(ref) ?? null;
    if (remoteTip === local) return { status: 'up_to_date', commit: local };
    if (remoteTip !== null && !(await hasCommit(context.objects, remoteTip))) {
      return { status: 'rejected', local, remote: remoteTip, reason: 'fetch first: the remote has commits not here' };
    }
    const remoteAncestry =
      remoteTip === null ? new Set<string>() : await reachableCommits(context.objects, [remoteTip]);
    if (remoteTip !== null && !(await reachableCommits(context.objects, [local])).has(remoteTip)) {
      return { status: 'rejected', local, remote: remoteTip, reason: 'non-fast-forward' };
    }
    const ours = await commitsBetween(context.objects, remoteAncestry, local);
    const result = await pushRefUpdate(
      context.http,
      context.remote,
      advertisement.capabilities,
      { fs: context.fs, commondir: context.layout.commondir },
      { ref, old: remoteTip, next: local },
      await objectsToSend(context.objects, ours),
    );
    if (result.status === 'rejected') return { status: 'rejected', local, remote: remoteTip, reason: result.reason };
    await updateTrackingRef(context, branch, local);
    return { status: 'pushed', commit: local, previous: remoteTip };
  } catch (error) {
    if (isRepomemError(error) && error.details?.remote !== undefined) throw keptMessage(error, branch, local);
    throw error;
  } finally {
    context.objects.clear();
  }
}
