// Why: memory on a git branch, in OBJECT MODE: documents are blobs in the tree of the branch tip,
// read and written as git objects without a worktree, so the user's checkout and index are never
// touched. Every write is one commit (the forensic record: what the agent knew, and when)
// published with a compare-and-swap on the branch ref that interoperates with the git CLI's own
// lock files. The branch's commits are the store's `history`; its `state` lives in refs beside it.
import {
  acquireKeyedMutex,
  checkpointMetadata,
  type DocumentEntry,
  type MemoryStore,
  type MomentOptions,
  normalizeDocumentPath,
  normalizePrefix,
  type PreparedOperation,
  type PromotedMemory,
  prepareWriteBatch,
  promotionMetadata,
  RepomemError,
  type SessionCloseInput,
  STORE_SPECIFICATION_VERSION,
  type StoreCapabilities,
  type StoredDocument,
  type StoreHistory,
  type StoreState,
  sessionCloseMetadata,
  type WriteConflict,
  type WriteMetadata,
  type WriteOperation,
  type WriteResult,
} from '@repomem/core';
import { assertIdentity, formatSignature, type GitIdentity, serializeCommit } from '../objects/commit-object.js';
import { blobVersion, EMPTY_TREE_OID } from '../objects/object-id.js';
import { GitObjectStore } from '../objects/object-store.js';
import { applyTreeEdits } from '../objects/tree-edit.js';
import { lookupPath, walkDocuments } from '../objects/tree-walk.js';
import { branchRef, DEFAULT_MEMORY_BRANCH } from '../refs/branch-name.js';
import { compareAndSwapRef, type RefLockTiming } from '../refs/ref-lock.js';
import { readRef } from '../refs/ref-store.js';
import { findCheckout } from '../repository/checked-out.js';
import { type GitFileSystem, nodeFileSystem } from '../repository/file-system.js';
import { type GitRepositoryLayout, locateRepository } from '../repository/repository.js';
import { createGitState } from '../state/git-state.js';
import { inspectBatch } from './batch-edits.js';
import { type CommitMessage, composeCommitMessage } from './commit-message.js';
import {
  diffRevisions,
  type HistoryOptions,
  type HistorySource,
  listHistory,
  type ReadAtResult,
  type Revision,
  type RevisionSpec,
  readDocumentAt,
  type TreeDiff,
} from './history.js';
import { storeHistoryOf } from './store-history.js';
import { refuseTreeTwins } from './tree-twins.js';
import { commitMessageOf } from './write-metadata.js';

/** Batches are validated by core's shared validator, with git blob ids as versions and no path both file and directory. */
const GIT_BATCH_OPTIONS = { versionOf: blobVersion, refuseDocumentDirectoryClash: true } as const;

/** `revision()` of a branch that has no commit yet. */
export const EMPTY_REVISION = 'empty';
/** Default agent id, used in the default author `{agentId} <agent@localhost>`. */
export const DEFAULT_AGENT_ID = 'repomem';
/** E-mail of the default author and committer. */
export const DEFAULT_AGENT_EMAIL = 'agent@localhost';
/** Default largest document (16 MiB). */
export const DEFAULT_GIT_MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
/** How many times a write rebuilds on a tip that moved under it before giving up with `CONFLICT`. */
const MAX_PUBLISH_ATTEMPTS = 100;

/** Points where tests can pause a writer (to kill it there). Not for production use. */
export interface GitStoreTestHooks {
  /** After the blobs, trees and commit are written, before the ref lock is taken. */
  readonly afterObjectsWritten?: (commit: string) => Promise<void> | void;
  /** While `<ref>.lock` is held and holds the new id, just before it is renamed over the ref. */
  readonly whileRefLocked?: (commit: string) => Promise<void> | void;
}

/** Options of {@link openGitStore}. */
export interface GitStoreOptions {
  /** The repository: a worktree directory containing `.git`, or a bare repository. */
  readonly dir: string;
  /** Branch holding the memory tree (default `agent/memory`). Validated like `git check-ref-format --branch`. */
  readonly branch?: string;
  /** File system (default Node's `fs`); an in-memory fs with the same promise API works too. */
  readonly fs?: GitFileSystem;
  /** Agent id; the default author and committer are `{agentId} <agent@localhost>` (default `repomem`). */
  readonly agentId?: string;
  /** Commit author (default from `agentId`). */
  readonly author?: GitIdentity;
  /** Commit committer (default: the author). */
  readonly committer?: GitIdentity;
  /** Largest document accepted, in bytes (default 16 MiB). */
  readonly maxDocumentBytes?: number;
  /** How long a write waits for a ref lock held by another process (default 10000 ms). */
  readonly lockTimeoutMs?: number;
  /** Age after which a ref lock is considered left over by a crash and broken (default 30000 ms). */
  readonly lockStaleMs?: number;
  /** fsync objects and the ref before publishing (default `true`). */
  readonly durable?: boolean;
  /** Clock for commit times (default `() => new Date()`). */
  readonly clock?: () => Date;
  /** Allow moving a branch that is checked out in a worktree (default `false`: refused, the checkout would fall behind). */
  readonly allowCheckedOutBranch?: boolean;
  /** Pause points for crash tests. */
  readonly testHooks?: GitStoreTestHooks;
}

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
 * A {@link MemoryStore} on a git branch in object mode; see {@link openGitStore}. Besides the
 * contract (`history` and `state` included) it offers git's own view: commits with an explicit
 * message and their ids, the full {@link Revision} (author and committer), and tree diffs.
 */
export interface GitStore extends MemoryStore {
  /** Always `git`. */
  readonly name: 'git';
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

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RepomemError('INVALID_ARGUMENT', `${name} must be a positive integer, got ${value}`);
  }
  return value;
}

function defaultSubject(batch: readonly PreparedOperation[]): string {
  const paths = batch.map((operation) => operation.path);
  if (paths.length === 0) return 'chore(memory): update';
  const shown = paths.slice(0, 3).join(', ');
  return `chore(memory): update ${paths.length > 3 ? `${shown} and ${paths.length - 3} more` : shown}`;
}

/**
 * Open the memory branch of a git repository in object mode. The branch may not exist yet: the
 * first write creates it with a root commit.
 *
 * Throws `INVALID_ARGUMENT` (bad branch name, identity or option), `NOT_FOUND` (no repository at
 * `dir`), `NOT_A_DIRECTORY`.
 */
export async function openGitStore(options: GitStoreOptions): Promise<GitStore> {
  if (options === null || typeof options !== 'object') {
    throw new RepomemError('INVALID_ARGUMENT', 'openGitStore expects an options object { dir, branch? }');
  }
  const branch = options.branch ?? DEFAULT_MEMORY_BRANCH;
  const ref = branchRef(branch);
  const agentId = options.agentId ?? DEFAULT_AGENT_ID;
  const author = assertIdentity(options.author ?? { name: agentId, email: DEFAULT_AGENT_EMAIL }, 'author');
  const committer = assertIdentity(options.committer ?? author, 'committer');
  const fs = options.fs ?? nodeFileSystem;
  const layout = await locateRepository(fs, options.dir);
  return new GitObjectModeStore(fs, layout, branch, ref, author, committer, options);
}

class GitObjectModeStore implements GitStore {
  readonly specificationVersion = STORE_SPECIFICATION_VERSION;
  readonly name = 'git' as const;
  readonly capabilities: StoreCapabilities;
  readonly history: StoreHistory;
  readonly state: StoreState;
  readonly dir: string;
  readonly gitdir: string;
  readonly branch: string;
  readonly ref: string;
  readonly author: GitIdentity;
  readonly committer: GitIdentity;
  readonly #fs: GitFileSystem;
  readonly #layout: GitRepositoryLayout;
  readonly #objects: GitObjectStore;
  readonly #clock: () => Date;
  readonly #timing: RefLockTiming;
  readonly #durable: boolean;
  readonly #allowCheckedOut: boolean;
  readonly #hooks: GitStoreTestHooks | undefined;
  readonly #mutexKey: string;
  readonly #source: HistorySource;
  #closed = false;

  constructor(
    fs: GitFileSystem,
    layout: GitRepositoryLayout,
    branch: string,
    ref: string,
    author: GitIdentity,
    committer: GitIdentity,
    options: GitStoreOptions,
  ) {
    this.#fs = fs;
    this.#layout = layout;
    this.dir = layout.dir;
    this.gitdir = layout.gitdir;
    this.branch = branch;
    this.ref = ref;
    this.author = author;
    this.committer = committer;
    this.capabilities = Object.freeze({
      binarySafe: true,
      atomicDocument: true,
      // Every object of a batch is written before one compare-and-swap of the ref publishes them.
      atomicBatch: true,
      readYourWrites: true,
      compareAndSwap: 'native',
      maxDocumentBytes: positiveInteger('maxDocumentBytes', options.maxDocumentBytes, DEFAULT_GIT_MAX_DOCUMENT_BYTES),
    });
    this.#timing = {
      timeoutMs: positiveInteger('lockTimeoutMs', options.lockTimeoutMs, 10_000),
      staleMs: positiveInteger('lockStaleMs', options.lockStaleMs, 30_000),
    };
    if (options.clock !== undefined && typeof options.clock !== 'function') {
      throw new RepomemError('INVALID_ARGUMENT', 'clock must be a function returning a Date');
    }
    this.#clock = options.clock ?? (() => new Date());
    this.#durable = options.durable ?? true;
    this.#allowCheckedOut = options.allowCheckedOutBranch ?? false;
    this.#hooks = options.testHooks;
    this.#objects = new GitObjectStore(fs, layout.commondir, this.#durable);
    this.#mutexKey = `${layout.commondir}\0${ref}`;
    this.#source = {
      objects: this.#objects,
      tip: () => this.#tip(),
      readRef: (name) => readRef(this.#fs, this.#layout.commondir, name),
    };
    this.history = storeHistoryOf({
      log: (historyOptions) => this.gitLog(historyOptions),
      readAt: (path, at) => this.readAt(path, at),
    });
    this.state = createGitState({
      fs,
      commondir: layout.commondir,
      objects: this.#objects,
      identity: committer,
      clock: this.#clock,
      durable: this.#durable,
      timing: this.#timing,
      assertOpen: () => this.#assertOpen(),
    });
  }

  async get(path: string): Promise<StoredDocument | undefined> {
    this.#assertOpen();
    const normalized = normalizeDocumentPath(path);
    const found = await lookupPath(this.#objects, await this.#tipTree(), normalized);
    if (found.status !== 'found' || found.entry.kind !== 'file') return undefined;
    const content = new Uint8Array(await this.#objects.readTyped(found.entry.oid, 'blob'));
    return { path: normalized, version: found.entry.oid, size: content.byteLength, content };
  }

  async list(prefix?: string): Promise<DocumentEntry[]> {
    this.#assertOpen();
    const normalized = normalizePrefix(prefix);
    const documents = await walkDocuments(this.#objects, await this.#tipTree(), normalized);
    const entries: DocumentEntry[] = new Array(documents.length);
    const concurrency = 32;
    for (let start = 0; start < documents.length; start += concurrency) {
      await Promise.all(
        documents.slice(start, start + concurrency).map(async (document, offset) => {
          entries[start + offset] = {
            path: document.path,
            version: document.oid,
            size: await this.#objects.size(document.oid),
          };
        }),
      );
    }
    return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async write(operations: readonly WriteOperation[], metadata?: WriteMetadata): Promise<WriteResult> {
    const result = await this.commitWith(operations, metadata);
    if (result.status === 'conflict') return result;
    return { status: 'committed', versions: result.versions };
  }

  async commitWith(operations: readonly WriteOperation[], metadata?: WriteMetadata): Promise<CommitResult> {
    this.#assertOpen();
    const batch = prepareWriteBatch(operations, this.capabilities.maxDocumentBytes, GIT_BATCH_OPTIONS);
    const message = composeCommitMessage(commitMessageOf(metadata, () => defaultSubject(batch)));
    return this.#commitBatch(batch, message);
  }

  async commit(operations: readonly WriteOperation[], message: CommitMessage): Promise<CommitResult> {
    this.#assertOpen();
    const batch = prepareWriteBatch(operations, this.capabilities.maxDocumentBytes, GIT_BATCH_OPTIONS);
    return this.#commitBatch(batch, composeCommitMessage(message));
  }

  async checkpoint(note: string, options: MomentOptions = {}): Promise<CommitResult> {
    return this.commitWith(options.writes ?? [], checkpointMetadata(note, options));
  }

  async sessionClose(input: SessionCloseInput): Promise<CommitResult> {
    return this.commitWith(input?.writes ?? [], sessionCloseMetadata(input, input));
  }

  async promote(memories: readonly PromotedMemory[], options: MomentOptions = {}): Promise<CommitResult> {
    return this.commitWith(options.writes ?? [], promotionMetadata(memories, options));
  }

  async gitLog(options: HistoryOptions = {}): Promise<Revision[]> {
    this.#assertOpen();
    const path = options?.path === undefined ? undefined : normalizeDocumentPath(options.path);
    const limit = options?.limit ?? Number.POSITIVE_INFINITY;
    if (limit !== Number.POSITIVE_INFINITY && (!Number.isSafeInteger(limit) || limit < 0)) {
      throw new RepomemError('INVALID_ARGUMENT', `history limit must be a non-negative integer, got ${limit}`);
    }
    return listHistory(this.#source, path, limit, options?.hidePrefix);
  }

  async readAt(path: string, at: RevisionSpec): Promise<ReadAtResult> {
    this.#assertOpen();
    return readDocumentAt(this.#source, normalizeDocumentPath(path), at);
  }

  async diff(from: RevisionSpec | null, to?: RevisionSpec | null): Promise<TreeDiff> {
    this.#assertOpen();
    const target = to === undefined ? await this.#tip() : to;
    return diffRevisions(this.#source, from, target);
  }

  async revision(): Promise<string> {
    this.#assertOpen();
    return (await this.#tip()) ?? EMPTY_REVISION;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#objects.clear();
  }

  #assertOpen(): void {
    if (this.#closed) throw new RepomemError('STORE_CLOSED', 'the git store is closed');
  }

  #tip(): Promise<string | null> {
    return readRef(this.#fs, this.#layout.commondir, this.ref);
  }

  async #tipTree(): Promise<string | null> {
    const tip = await this.#tip();
    return tip === null ? null : (await this.#objects.readCommit(tip)).tree;
  }

  async #assertNotCheckedOut(): Promise<void> {
    if (this.#allowCheckedOut) return;
    const head = await findCheckout(this.#fs, this.#layout, this.ref);
    if (head !== undefined) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `branch ${this.branch} is checked out (${head}); object mode would leave that checkout behind the branch. ` +
          'Use another branch, or pass allowCheckedOutBranch: true',
        { details: { branch: this.branch, head } },
      );
    }
  }

  /**
   * Check preconditions against the tip, build the new tree and commit, and publish it with a
   * compare-and-swap; when another writer moved the tip in between, start again from the new tip
   * (preconditions are re-checked there, so a real conflict is still reported).
   */
  async #commitBatch(batch: readonly PreparedOperation[], message: string): Promise<CommitResult> {
    const release = await acquireKeyedMutex(this.#mutexKey);
    try {
      for (let attempt = 1; attempt <= MAX_PUBLISH_ATTEMPTS; attempt += 1) {
        this.#assertOpen();
        const outcome = await this.#attempt(batch, message);
        if (outcome !== 'moved') return outcome;
      }
      throw new RepomemError(
        'CONFLICT',
        `${this.branch} kept moving: ${MAX_PUBLISH_ATTEMPTS} attempts to commit on its tip were overtaken by other writers`,
        { details: { branch: this.branch } },
      );
    } finally {
      release();
    }
  }

  async #attempt(batch: readonly PreparedOperation[], message: string): Promise<CommitResult | 'moved'> {
    const tip = await this.#tip();
    const root = tip === null ? null : (await this.#objects.readCommit(tip)).tree;
    const inspection = await inspectBatch(this.#objects, root, batch, this.branch);
    if (inspection.status === 'conflict') return inspection;
    await refuseTreeTwins(this.#objects, root, batch);
    await this.#assertNotCheckedOut();
    await Promise.all(
      batch.map((operation) =>
        operation.kind === 'put' ? this.#objects.write('blob', operation.content) : Promise.resolve(''),
      ),
    );
    const versions: Record<string, string | null> = {};
    for (const operation of batch) versions[operation.path] = operation.kind === 'put' ? operation.version : null;
    const next = await applyTreeEdits(this.#objects, root, inspection.edits);
    if (next === root) return { status: 'noop', revision: tip ?? EMPTY_REVISION, versions };
    const tree = next ?? (await this.#objects.write('tree', new Uint8Array(0)));
    if (tree === root || (tip === null && tree === EMPTY_TREE_OID)) {
      return { status: 'noop', revision: tip ?? EMPTY_REVISION, versions };
    }
    const now = this.#clock();
    const commit = await this.#objects.write(
      'commit',
      serializeCommit({
        tree,
        parents: tip === null ? [] : [tip],
        author: formatSignature(this.author, now),
        committer: formatSignature(this.committer, now),
        message,
      }),
    );
    await this.#hooks?.afterObjectsWritten?.(commit);
    const whileLocked = this.#hooks?.whileRefLocked;
    const subject = message.split('\n', 1)[0] ?? '';
    const updated = await compareAndSwapRef(
      this.#fs,
      this.#layout.commondir,
      {
        ref: this.ref,
        expected: tip,
        next: commit,
        reflog: {
          identity: formatSignature(this.committer, now),
          message: `${tip === null ? 'commit (initial)' : 'commit'}: ${subject}`,
          create: !this.#layout.bare,
        },
        beforePublish: whileLocked === undefined ? undefined : async () => whileLocked(commit),
      },
      this.#timing,
      this.#durable,
    );
    if (updated.status === 'moved') return 'moved';
    return { status: 'committed', commit, revision: commit, versions };
  }
}
