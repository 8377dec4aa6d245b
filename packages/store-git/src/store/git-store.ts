// Why: memory on a git branch, in OBJECT MODE: the store is core's `createStore` on the git
// driver (`git-driver.ts`: documents in the branch tip's tree, every write one commit published
// with a compare-and-swap of the ref, state in refs beside it, the commits as `history`), plus
// git's own view for git-aware callers: commits with an explicit message and their ids, the full
// revisions (author and committer), and tree diffs. The commit made by a write is learned from
// the driver through the metadata object the write passes (see `CommitRequest`).
import {
  checkpointMetadata,
  createStore,
  type KitStore,
  type MomentOptions,
  type PromotedMemory,
  promotionMetadata,
  type SessionCloseInput,
  type StoreHistory,
  type StoreState,
  sessionCloseMetadata,
  type WriteConflict,
  type WriteMetadata,
  type WriteOperation,
  type WriteResult,
} from '@repomem/core';
import type { GitIdentity } from '../objects/commit-object.js';
import { type CommitMessage, composeCommitMessage } from './commit-message.js';
import {
  type CommitRequest,
  commitRequests,
  createGitDriver,
  EMPTY_REVISION,
  type GitDriver,
  type GitDriverOptions,
} from './git-driver.js';
import type { HistoryOptions, ReadAtResult, Revision, RevisionSpec, TreeDiff } from './history.js';
import { commitMessageOf } from './write-metadata.js';

export type { GitStoreTestHooks } from './branch-commit.js';
export {
  DEFAULT_AGENT_EMAIL,
  DEFAULT_AGENT_ID,
  DEFAULT_GIT_MAX_DOCUMENT_BYTES,
  EMPTY_REVISION,
} from './git-driver.js';

/** Options of {@link openGitStore}. */
export type GitStoreOptions = GitDriverOptions;

/** Outcome of a commit: a new commit, nothing to commit (no empty commit is made), or failed preconditions. */
export type CommitResult =
  | {
      readonly status: 'committed';
      /** The new commit (also the new revision). */
      readonly commit: string;
      readonly revision: string;
      /** New version of every path of the batch (`null` for deleted paths). */
      readonly versions: Readonly<Record<string, string | null>>;
    }
  | {
      readonly status: 'noop';
      /** The unchanged revision. */
      readonly revision: string;
      readonly versions: Readonly<Record<string, string | null>>;
    }
  | { readonly status: 'conflict'; readonly conflicts: readonly WriteConflict[] };

/**
 * A {@link KitStore} on a git branch in object mode; see {@link openGitStore}. Besides the
 * contract (`history` and `state` included) it offers git's own view: commits with an explicit
 * message and their ids, the full {@link Revision} (author and committer), and tree diffs.
 */
export interface GitStore extends KitStore {
  /** Always `git`. */
  readonly name: 'git';
  /** The git driver underneath. */
  readonly driver: GitDriver;
  /** The branch's commits through the store-neutral history API (revision = commit id). */
  readonly history: StoreHistory;
  /** State values in refs under `refs/agent-memory-state/` (version = the commit id the ref holds). */
  readonly state: StoreState;
  /** The repository directory given (absolute). */
  readonly dir: string;
  /** The git directory in use. */
  readonly gitdir: string;
  /** Short branch name, e.g. `agent/memory`. */
  readonly branch: string;
  /** Full ref, e.g. `refs/heads/agent/memory`. */
  readonly ref: string;
  /** Commit author. */
  readonly author: GitIdentity;
  /** Commit committer. */
  readonly committer: GitIdentity;
  /** Commit a batch with an explicit message (subject, body, trailers); `noop` when nothing changes. */
  commit(operations: readonly WriteOperation[], message: CommitMessage): Promise<CommitResult>;
  /** Commit a batch with the store contract's metadata (summary, body, trailers, source); `noop` when nothing changes. */
  commitWith(operations: readonly WriteOperation[], metadata?: WriteMetadata): Promise<CommitResult>;
  /** Checkpoint (core's `checkpointMetadata`): commit `writes` as `checkpoint: <note>`; `noop` when they change nothing. */
  checkpoint(note: string, options?: MomentOptions): Promise<CommitResult>;
  /** Session close (core's `sessionCloseMetadata`): commit `writes` as `session-close` with the ids in the body. */
  sessionClose(input: SessionCloseInput): Promise<CommitResult>;
  /** Dream sweep (core's `promotionMetadata`): commit `writes` as `promote`, listing the memories and scores. */
  promote(memories: readonly PromotedMemory[], options?: MomentOptions): Promise<CommitResult>;
  /** Commits newest first as full git revisions (author and committer); with `path`, only those that changed it. */
  gitLog(options?: HistoryOptions): Promise<Revision[]>;
  /** A document as of a commit, ref or date, with the full git revision ("what did it know then?"). */
  readAt(path: string, at: RevisionSpec): Promise<ReadAtResult>;
  /** Documents changed between two revisions (`null` = the empty tree; `to` defaults to the tip). */
  diff(from: RevisionSpec | null, to?: RevisionSpec | null): Promise<TreeDiff>;
}

/**
 * Open the memory branch of a git repository in object mode. The branch may not exist yet: the
 * first write creates it with a root commit.
 *
 * Throws `INVALID_ARGUMENT` (bad branch name, identity or option), `NOT_FOUND` (no repository at
 * `dir`), `NOT_A_DIRECTORY`.
 */
export async function openGitStore(options: GitStoreOptions): Promise<GitStore> {
  const driver = await createGitDriver(options);
  const kit = createStore(driver, { maxDocumentBytes: driver.maxValueBytes });
  const kitWrite = kit.write;

  /** Write through the kit with `request` riding on a metadata object of its own. */
  const commitThrough = async (
    operations: readonly WriteOperation[],
    metadata: WriteMetadata,
    request: CommitRequest,
  ): Promise<CommitResult> => {
    commitRequests.set(metadata, request);
    const result = await kitWrite(operations, metadata);
    if (result.status === 'conflict') return result;
    const outcome = request.outcome;
    if (outcome?.status === 'committed') {
      return { status: 'committed', commit: outcome.commit, revision: outcome.commit, versions: result.versions };
    }
    // An empty batch never reaches the driver.
    const tip = outcome === undefined ? await driver.tip() : outcome.tip;
    return { status: 'noop', revision: tip ?? EMPTY_REVISION, versions: result.versions };
  };
  const commitWith = async (operations: readonly WriteOperation[], metadata?: WriteMetadata) => {
    driver.assertOpen();
    commitMessageOf(metadata, () => ''); // malformed metadata is refused before anything, even for an empty batch
    return commitThrough(operations, { ...metadata }, {});
  };

  const extras = {
    name: 'git' as const,
    driver,
    history: driver.history,
    dir: driver.dir,
    gitdir: driver.gitdir,
    branch: driver.branch,
    ref: driver.ref,
    author: driver.author,
    committer: driver.committer,
    async write(operations: readonly WriteOperation[], metadata?: WriteMetadata): Promise<WriteResult> {
      const result = await commitWith(operations, metadata);
      if (result.status === 'conflict') return result;
      return { status: 'committed', versions: result.versions };
    },
    commitWith,
    async commit(operations: readonly WriteOperation[], message: CommitMessage): Promise<CommitResult> {
      driver.assertOpen();
      return commitThrough(operations, {}, { message: composeCommitMessage(message) });
    },
    async checkpoint(note: string, options: MomentOptions = {}): Promise<CommitResult> {
      return commitWith(options.writes ?? [], checkpointMetadata(note, options));
    },
    async sessionClose(input: SessionCloseInput): Promise<CommitResult> {
      return commitWith(input?.writes ?? [], sessionCloseMetadata(input, input));
    },
    async promote(memories: readonly PromotedMemory[], options: MomentOptions = {}): Promise<CommitResult> {
      return commitWith(options.writes ?? [], promotionMetadata(memories, options));
    },
    gitLog: (historyOptions?: HistoryOptions) => driver.gitLog(historyOptions),
    readAt: (path: string, at: RevisionSpec) => driver.readAt(path, at),
    async diff(from: RevisionSpec | null, to?: RevisionSpec | null): Promise<TreeDiff> {
      driver.assertOpen();
      return driver.diff(from, to === undefined ? await driver.tip() : to);
    },
  };
  return Object.assign(kit, extras);
}
