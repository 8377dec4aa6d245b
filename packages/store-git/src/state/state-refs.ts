// Why: sync and scan cursors and thread state live off the memory branch in refs of their own
// (Sepo's layout: the ref points at a commit whose tree holds one `state.json`, each write a
// child of the previous one), so cursor updates never pollute memory history. Reads validate
// the JSON (it is outside data) and ignore another repository's state; writes are a
// compare-and-swap on the ref, so two runs can never silently overwrite each other's state.
import {
  isRepoSlug,
  parseThreadKey,
  RepomemError,
  type ScanState,
  ScanStateSchema,
  type SyncState,
  SyncStateSchema,
} from '@repomem/core';
import type { z } from 'zod';
import { assertIdentity, formatSignature, type GitIdentity } from '../objects/commit-object.js';
import { isObjectId } from '../objects/object-id.js';
import { GitObjectStore } from '../objects/object-store.js';
import { compareAndSwapRef } from '../refs/ref-lock.js';
import { readRef } from '../refs/ref-store.js';
import { type ResolvedStateRef, resolveStateRef, type StateRefName } from '../refs/state-ref-name.js';
import { type GitFileSystem, nodeFileSystem } from '../repository/file-system.js';
import { locateRepository } from '../repository/repository.js';
import { readStateBlob, STATE_FILE, writeStateCommit } from './state-commit.js';
import { type ThreadState, ThreadStateSchema } from './thread-state.js';

/** The state type stored under a state ref name. */
export type StateFor<N extends StateRefName> = N extends 'sync'
  ? SyncState
  : N extends 'scan'
    ? ScanState
    : ThreadState;

/** Outcome of {@link readStateRef}. */
export type StateReadResult<S> =
  /**
   * The state, validated (defaults filled in, unknown fields kept), with the repository it belongs
   * to when it names one (`repoSlug`): a read without `repo` can tell whose state it got.
   */
  | {
      readonly status: 'found';
      readonly ref: string;
      readonly commit: string;
      readonly state: S;
      readonly repoSlug?: string;
    }
  /** The ref does not exist: start fresh. */
  | { readonly status: 'missing'; readonly ref: string }
  /** A valid state of another repository (e.g. on a copied branch): ignored, start fresh. */
  | {
      readonly status: 'ignored_other_repo';
      readonly ref: string;
      readonly commit: string;
      /** The repository the state belongs to. */
      readonly repoSlug: string;
      readonly message: string;
    }
  /** The ref holds something that is not a valid state: start fresh (`message` says why). */
  | {
      readonly status: 'invalid';
      readonly ref: string;
      readonly commit: string;
      readonly reason: 'not_a_state_commit' | 'invalid_json' | 'invalid_state';
      readonly message: string;
    };

/** Outcome of {@link writeStateRef}. */
export type StateWriteResult =
  /** The ref now points at `commit` (whose parent is `previous`). */
  | { readonly status: 'written'; readonly ref: string; readonly commit: string; readonly previous: string | null }
  /** The ref was not at `expected` (someone else wrote it): nothing changed; re-read and retry. */
  | {
      readonly status: 'conflict';
      readonly ref: string;
      readonly expected: string | null;
      readonly actual: string | null;
    };

/** Where the state refs are. */
export interface StateRefRepositoryOptions {
  /** The repository (a worktree with `.git`, or bare). */
  readonly dir: string;
  /** File system (default Node's `fs`). */
  readonly fs?: GitFileSystem;
}

/** Options of {@link readStateRef}. */
export interface ReadStateRefOptions<N extends StateRefName> extends StateRefRepositoryOptions {
  /** Which state: `sync`, `scan` or `thread:<key>`. */
  readonly ref: N;
  /** The current repository (`owner/repo`): state of any other repository is ignored. */
  readonly repo?: string;
}

/** Options of {@link writeStateRef}. */
export interface WriteStateRefOptions<N extends StateRefName> extends StateRefRepositoryOptions {
  /** Which state: `sync`, `scan` or `thread:<key>`. */
  readonly ref: N;
  /** The state to store (validated; defaults filled in). */
  readonly state: unknown;
  /** The commit the ref must hold now (from the last read), or `null` when it must not exist yet. */
  readonly expected: string | null;
  /** The current repository (`owner/repo`): writing another repository's state is refused. */
  readonly repo?: string;
  /**
   * Replace a state that belongs to another repository than the one being written (default
   * `false`: refused with `CONFLICT`, since one repository's sync state must never silently
   * overwrite another's).
   */
  readonly replaceOtherRepository?: boolean;
  /** Author and committer (default `repomem <agent@localhost>`). */
  readonly author?: GitIdentity;
  /** Clock for the commit time (default `() => new Date()`). */
  readonly clock?: () => Date;
  /** fsync the objects and the ref (default `true`). */
  readonly durable?: boolean;
}

/** The repository the valid state at `commit` belongs to, or `undefined` (no state, invalid, or naming none). */
async function ownerAt(
  objects: GitObjectStore,
  resolved: ResolvedStateRef,
  commit: string,
): Promise<string | undefined> {
  const json = await readStateBlob(objects, commit).catch(() => undefined);
  if (json === undefined) return undefined;
  const parsed = parseStateJson(resolved, json);
  return parsed.ok ? stateRepo(resolved, parsed.state) : undefined;
}

const SCHEMAS: Record<ResolvedStateRef['kind'], z.ZodType> = {
  sync: SyncStateSchema,
  scan: ScanStateSchema,
  thread: ThreadStateSchema,
};

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

function assertRepo(repo: string | undefined): void {
  if (repo !== undefined && !isRepoSlug(repo)) {
    throw new RepomemError('INVALID_ARGUMENT', `repo must be "owner/repo", got ${JSON.stringify(repo)}`);
  }
}

/** The repository a state belongs to (`repo_slug`, or the thread key's repository). */
function stateRepo(resolved: ResolvedStateRef, state: Record<string, unknown>): string | undefined {
  if (resolved.kind === 'thread') {
    try {
      return parseThreadKey(String(state.thread_key)).repo_slug;
    } catch {
      return undefined;
    }
  }
  return typeof state.repo_slug === 'string' ? state.repo_slug : undefined;
}

/** Parse and validate state JSON for `resolved`; the reason and message when invalid. */
export function parseStateJson(
  resolved: ResolvedStateRef,
  json: string,
):
  | { ok: true; state: Record<string, unknown> }
  | { ok: false; reason: 'invalid_json' | 'invalid_state'; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return {
      ok: false,
      reason: 'invalid_json',
      message: `${resolved.ref}: ${STATE_FILE} is not JSON (${(error as Error).message})`,
    };
  }
  const parsed = SCHEMAS[resolved.kind].safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      reason: 'invalid_state',
      message: `${resolved.ref}: invalid ${resolved.kind} state: ${describeIssues(parsed.error)}`,
    };
  }
  const state = parsed.data as Record<string, unknown>;
  if (resolved.kind === 'thread' && state.thread_key !== resolved.threadKey) {
    return {
      ok: false,
      reason: 'invalid_state',
      message: `${resolved.ref}: holds the state of thread ${JSON.stringify(state.thread_key)}, not ${JSON.stringify(resolved.threadKey)}`,
    };
  }
  return { ok: true, state };
}

/**
 * Read a state ref. Never throws for bad stored data (that is `invalid`, so callers start
 * fresh); throws `INVALID_ARGUMENT` for a bad ref name or `repo`, `NOT_FOUND` for a missing repository.
 */
export async function readStateRef<N extends StateRefName>(
  options: ReadStateRefOptions<N>,
): Promise<StateReadResult<StateFor<N>>> {
  const resolved = resolveStateRef(options?.ref);
  assertRepo(options.repo);
  const fs = options.fs ?? nodeFileSystem;
  const layout = await locateRepository(fs, options.dir);
  const commit = await readRef(fs, layout.commondir, resolved.ref);
  if (commit === null) return { status: 'missing', ref: resolved.ref };
  const objects = new GitObjectStore(fs, layout.commondir, false);
  const json = await readStateBlob(objects, commit);
  if (json === undefined) {
    return {
      status: 'invalid',
      ref: resolved.ref,
      commit,
      reason: 'not_a_state_commit',
      message: `${resolved.ref} (${commit}) is not a commit whose tree holds ${STATE_FILE}`,
    };
  }
  const parsed = parseStateJson(resolved, json);
  if (!parsed.ok)
    return { status: 'invalid', ref: resolved.ref, commit, reason: parsed.reason, message: parsed.message };
  const owner = stateRepo(resolved, parsed.state);
  if (options.repo !== undefined && owner !== undefined && owner.toLowerCase() !== options.repo.toLowerCase()) {
    return {
      status: 'ignored_other_repo',
      ref: resolved.ref,
      commit,
      repoSlug: owner,
      message: `${resolved.ref}: state belongs to ${owner}, not ${options.repo}; ignored`,
    };
  }
  return {
    status: 'found',
    ref: resolved.ref,
    commit,
    state: parsed.state as StateFor<N>,
    ...(owner === undefined ? {} : { repoSlug: owner }),
  };
}

function commitSubject(resolved: ResolvedStateRef, state: Record<string, unknown>): string {
  if (resolved.kind === 'sync') return `memory-sync-state: ${String(state.last_sync_at || 'unsynced')}`;
  if (resolved.kind === 'scan') return `memory-scan-state: ${String(state.last_scan_at || 'unscanned')}`;
  return `agent-state: ${String(state.status)}/${String(state.resume_status)} (attempt ${String(state.attempt_count)})`;
}

/**
 * Write a state with compare-and-swap: the ref moves from `expected` to a new commit (child of
 * `expected`) holding `state.json`, or nothing happens and the result is `conflict` with the
 * actual id. Throws `INVALID_ARGUMENT` for a bad ref name, `expected`, or state (naming the
 * invalid fields), or a state of another repository than `repo`.
 */
export async function writeStateRef<N extends StateRefName>(
  options: WriteStateRefOptions<N>,
): Promise<StateWriteResult> {
  const resolved = resolveStateRef(options?.ref);
  assertRepo(options.repo);
  const { expected } = options;
  if (expected !== null && (typeof expected !== 'string' || !isObjectId(expected))) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `expected must be the 40-hex commit id the ref holds now, or null when it must not exist; got ${JSON.stringify(expected)}`,
    );
  }
  const parsed = SCHEMAS[resolved.kind].safeParse(options.state);
  if (!parsed.success) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `invalid ${resolved.kind} state for ${resolved.ref}: ${describeIssues(parsed.error)}`,
      {
        details: { ref: resolved.ref },
      },
    );
  }
  const state = parsed.data as Record<string, unknown>;
  if (resolved.kind === 'thread' && state.thread_key !== resolved.threadKey) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `thread state for ${resolved.threadKey} has thread_key ${JSON.stringify(state.thread_key)}`,
      { details: { ref: resolved.ref } },
    );
  }
  const owner = stateRepo(resolved, state);
  if (options.repo !== undefined && owner?.toLowerCase() !== options.repo.toLowerCase()) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `refusing to write the state of ${owner ?? 'an unknown repository'} into ${options.repo}'s ${resolved.ref}`,
      { details: { ref: resolved.ref } },
    );
  }
  const identity = assertIdentity(options.author ?? { name: 'repomem', email: 'agent@localhost' }, 'author');
  const fs = options.fs ?? nodeFileSystem;
  const durable = options.durable ?? true;
  const layout = await locateRepository(fs, options.dir);
  const objects = new GitObjectStore(fs, layout.commondir, durable);
  if (expected !== null && options.replaceOtherRepository !== true) {
    const previousOwner = await ownerAt(objects, resolved, expected);
    if (previousOwner !== undefined && previousOwner.toLowerCase() !== owner?.toLowerCase()) {
      throw new RepomemError(
        'CONFLICT',
        `refusing to replace ${previousOwner}'s state at ${resolved.ref} with ${owner ?? 'a state naming no repository'}'s: ` +
          'each repository keeps its own state (pass replaceOtherRepository to replace it, or delete the ref with ' +
          `\`git update-ref -d ${resolved.ref}\` first)`,
        { details: { ref: resolved.ref, repoSlug: previousOwner } },
      );
    }
  }
  const now = (options.clock ?? (() => new Date()))();
  const commit = await writeStateCommit(objects, {
    json: `${JSON.stringify(state, null, 2)}\n`,
    parent: expected,
    signature: formatSignature(identity, now),
    subject: commitSubject(resolved, state),
  });
  const result = await compareAndSwapRef(
    fs,
    layout.commondir,
    { ref: resolved.ref, expected, next: commit },
    { timeoutMs: 10_000, staleMs: 30_000 },
    durable,
  );
  if (result.status === 'moved') return { status: 'conflict', ref: resolved.ref, expected, actual: result.actual };
  return { status: 'written', ref: resolved.ref, commit, previous: expected };
}
