// Why: state refs are shared through the remote with lease semantics (Sepo pushes them with
// `--force-with-lease`): fetch makes the local ref equal to the remote's, a write builds on it,
// and the push succeeds only if the remote ref still holds the id the write built on. The
// server checks that id atomically, so a concurrent writer shows up as `lease_broken`, never as
// a silently overwritten state.
import { RepomemError } from '@repomem/core';
import { compareAndSwapRef } from '../refs/ref-lock.js';
import { readRef } from '../refs/ref-store.js';
import { resolveStateRef, type StateRefName } from '../refs/state-ref-name.js';
import { commitsBetween, hasCommit, reachableCommits } from './commit-graph.js';
import { objectsToSend } from './objects-to-send.js';
import { pushRefUpdate } from './receive-pack.js';
import { ensureCommit, openRemoteContext, type RepositoryRemoteOptions } from './remote-context.js';
import { discoverRefs } from './smart-http.js';

/** Options of {@link fetchStateRef}. */
export interface FetchStateRefOptions extends RepositoryRemoteOptions {
  /** Which state: `sync`, `scan` or `thread:<key>`. */
  readonly ref: StateRefName;
}

/** Options of {@link pushStateRef}. */
export interface PushStateRefOptions extends RepositoryRemoteOptions {
  /** Which state: `sync`, `scan` or `thread:<key>`. */
  readonly ref: StateRefName;
  /**
   * The id the remote ref must still hold (the one last fetched), `null` when it must not exist.
   * Default: the parent of the local state commit (what the last write built on), or `null` for a root commit.
   */
  readonly lease?: string | null;
}

/** Outcome of {@link fetchStateRef}. */
export type FetchStateRefOutcome =
  /** The local ref now holds the remote's `commit` (it held `previous`). */
  | { readonly status: 'fetched'; readonly ref: string; readonly commit: string; readonly previous: string | null }
  /** The local ref already held the remote's commit. */
  | { readonly status: 'up_to_date'; readonly ref: string; readonly commit: string }
  /** The remote has no such ref; the local one (if any) is untouched. */
  | { readonly status: 'remote_missing'; readonly ref: string; readonly local: string | null };

/** Outcome of {@link pushStateRef}. */
export type PushStateRefOutcome =
  /** The remote ref moved from `previous` to `commit`. */
  | { readonly status: 'pushed'; readonly ref: string; readonly commit: string; readonly previous: string | null }
  /** The remote ref already holds `commit`. */
  | { readonly status: 'up_to_date'; readonly ref: string; readonly commit: string }
  /** The remote ref is not at the lease: someone else wrote it. Nothing was pushed; fetch, re-apply, write, push. */
  | {
      readonly status: 'lease_broken';
      readonly ref: string;
      readonly commit: string;
      readonly expected: string | null;
      readonly actual: string | null;
    };

/**
 * Fetch a state ref from the remote and make the local ref hold the same commit (like
 * `git fetch <remote> +<ref>:<ref>`; a local state that was never pushed is replaced).
 */
export async function fetchStateRef(options: FetchStateRefOptions): Promise<FetchStateRefOutcome> {
  const { ref } = resolveStateRef(options?.ref);
  const context = await openRemoteContext(options);
  try {
    const remote = (await discoverRefs(context.http, context.remote, 'git-upload-pack')).refs.get(ref) ?? null;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const local = await readRef(context.fs, context.layout.commondir, ref);
      if (remote === null) return { status: 'remote_missing', ref, local };
      if (local === remote) return { status: 'up_to_date', ref, commit: remote };
      await ensureCommit(context, remote, local === null ? [] : [local]);
      const moved = await compareAndSwapRef(
        context.fs,
        context.layout.commondir,
        { ref, expected: local, next: remote },
        context.timing,
        context.durable,
      );
      if (moved.status === 'updated') return { status: 'fetched', ref, commit: remote, previous: local };
    }
    throw new RepomemError('CONFLICT', `${ref} kept changing locally while it was being fetched`, { details: { ref } });
  } finally {
    context.objects.clear();
  }
}

/**
 * Push the local state ref if the remote ref still holds the lease. Throws `NOT_FOUND` when the
 * local ref does not exist, `INVALID_ARGUMENT` for a malformed lease, and `BACKEND_UNAVAILABLE`
 * for transport or authentication failures (the local ref is untouched).
 */
export async function pushStateRef(options: PushStateRefOptions): Promise<PushStateRefOutcome> {
  const { ref } = resolveStateRef(options?.ref);
  if (options.lease !== undefined && options.lease !== null && !/^[0-9a-f]{40}$/.test(String(options.lease))) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `lease must be a 40-hex commit id or null, got ${JSON.stringify(options.lease)}`,
    );
  }
  const context = await openRemoteContext(options);
  try {
    const local = await readRef(context.fs, context.layout.commondir, ref);
    if (local === null) {
      throw new RepomemError('NOT_FOUND', `${ref} does not exist in ${context.layout.dir}; write the state first`, {
        details: { ref },
      });
    }
    const lease =
      options.lease !== undefined ? options.lease : ((await context.objects.readCommit(local)).parents[0] ?? null);
    const advertisement = await discoverRefs(context.http, context.remote, 'git-receive-pack');
    const actual = advertisement.refs.get(ref) ?? null;
    if (actual === local) return { status: 'up_to_date', ref, commit: local };
    if (actual !== lease) return { status: 'lease_broken', ref, commit: local, expected: lease, actual };
    const known =
      actual !== null && (await hasCommit(context.objects, actual))
        ? await reachableCommits(context.objects, [actual])
        : new Set<string>();
    const commits = await commitsBetween(context.objects, known, local);
    const result = await pushRefUpdate(
      context.http,
      context.remote,
      advertisement.capabilities,
      { fs: context.fs, commondir: context.layout.commondir },
      { ref, old: actual, next: local },
      await objectsToSend(context.objects, commits),
    );
    if (result.status === 'ok') return { status: 'pushed', ref, commit: local, previous: actual };
    const now = (await discoverRefs(context.http, context.remote, 'git-receive-pack')).refs.get(ref) ?? null;
    if (now !== actual) return { status: 'lease_broken', ref, commit: local, expected: lease, actual: now };
    throw new RepomemError(
      'BACKEND_UNAVAILABLE',
      `remote ${context.remote.label} refused to update ${ref}: ${result.reason}`,
      {
        details: { ref, remote: context.remote.label, reason: 'rejected' },
      },
    );
  } finally {
    context.objects.clear();
  }
}
