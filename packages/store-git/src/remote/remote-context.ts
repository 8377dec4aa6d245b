// Why: every remote operation needs the same things — the repository layout, its object
// database, the resolved remote with its auth, an HTTP client — and the same two chores: fetch
// a remote commit if it is not here yet, and record where the remote's ref was seen
// (`refs/remotes/<remote>/<branch>`, as git does) without ever failing the operation over it.
import { isRepomemError, RepomemError } from '@repomem/core';
import type { HttpClient } from 'isomorphic-git';
import { GitObjectStore } from '../objects/object-store.js';
import { compareAndSwapRef, type RefLockTiming } from '../refs/ref-lock.js';
import { readRef } from '../refs/ref-store.js';
import { type GitFileSystem, nodeFileSystem } from '../repository/file-system.js';
import { type GitRepositoryLayout, locateRepository } from '../repository/repository.js';
import { hasCommit, recentCommits } from './commit-graph.js';
import { fetchPack } from './fetch-pack.js';
import { type RemoteConnection, type RemoteOptions, resolveRemote } from './remote-target.js';
import { defaultHttpClient, discoverRefs } from './smart-http.js';

/** Options every remote operation on a repository takes. */
export interface RepositoryRemoteOptions extends RemoteOptions {
  /** The local repository (a worktree with `.git`, or a bare repository). */
  readonly dir: string;
  /** File system (default Node's `fs`). */
  readonly fs?: GitFileSystem;
  /** HTTP client with isomorphic-git's interface (default `isomorphic-git/http/node`). */
  readonly http?: HttpClient;
  /** fsync fetched packs and updated refs (default `true`). */
  readonly durable?: boolean;
}

/** Everything a remote operation works with. */
export interface RemoteContext {
  readonly fs: GitFileSystem;
  readonly layout: GitRepositoryLayout;
  readonly objects: GitObjectStore;
  readonly http: HttpClient;
  readonly remote: RemoteConnection;
  readonly durable: boolean;
  readonly timing: RefLockTiming;
}

/** Open the repository and resolve the remote. Throws like `locateRepository` and `resolveRemote`. */
export async function openRemoteContext(options: RepositoryRemoteOptions): Promise<RemoteContext> {
  if (options === null || typeof options !== 'object') {
    throw new RepomemError('INVALID_ARGUMENT', 'expected an options object { dir, remote?, url?, token? }');
  }
  const fs = options.fs ?? nodeFileSystem;
  const layout = await locateRepository(fs, options.dir);
  const remote = await resolveRemote(fs, layout.commondir, options);
  const durable = options.durable ?? true;
  const http = options.http ?? defaultHttpClient;
  if (typeof http?.request !== 'function') {
    throw new RepomemError('INVALID_ARGUMENT', 'http must be an isomorphic-git HTTP client { request() }');
  }
  return {
    fs,
    layout,
    objects: new GitObjectStore(fs, layout.commondir, durable),
    http,
    remote,
    durable,
    timing: { timeoutMs: 10_000, staleMs: 30_000 },
  };
}

/**
 * Make sure commit `oid` (advertised by the remote under some ref) and its history are local,
 * fetching them when missing; `haveTips` are local commits to name as common ground.
 */
export async function ensureCommit(context: RemoteContext, oid: string, haveTips: readonly string[]): Promise<void> {
  if (await hasCommit(context.objects, oid)) return;
  const advertisement = await discoverRefs(context.http, context.remote, 'git-upload-pack');
  const haves = await recentCommits(context.objects, haveTips, 256);
  await fetchPack(
    context.http,
    context.remote,
    advertisement.capabilities,
    { fs: context.fs, commondir: context.layout.commondir, durable: context.durable },
    [oid],
    haves,
  );
  if (!(await hasCommit(context.objects, oid))) {
    throw new RepomemError('BACKEND_UNAVAILABLE', `remote ${context.remote.label} did not send commit ${oid}`, {
      details: { remote: context.remote.label, oid },
    });
  }
}

/** Remote-tracking ref of a branch (`refs/remotes/<remote>/<branch>`), or undefined for a bare URL. */
export function trackingRef(context: RemoteContext, branch: string): string | undefined {
  return context.remote.name === undefined ? undefined : `refs/remotes/${context.remote.name}/${branch}`;
}

/** Record that the remote's branch was seen at `oid` (best effort: a concurrent update wins). */
export async function updateTrackingRef(context: RemoteContext, branch: string, oid: string | null): Promise<void> {
  const ref = trackingRef(context, branch);
  if (ref === undefined || oid === null) return;
  try {
    const current = await readRef(context.fs, context.layout.commondir, ref);
    if (current === oid) return;
    await compareAndSwapRef(
      context.fs,
      context.layout.commondir,
      { ref, expected: current, next: oid },
      { timeoutMs: 1_000, staleMs: context.timing.staleMs },
      context.durable,
    );
  } catch (error) {
    if (isRepomemError(error)) return;
    throw error;
  }
}
