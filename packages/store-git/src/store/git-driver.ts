// Why: the git branch as a store kit driver, in OBJECT MODE: the `documents` namespace is the
// tree of the branch tip (blobs read and written as git objects without a worktree, so the
// user's checkout and index are never touched), a batch is one commit whose message carries the
// caller's metadata, published with a compare-and-swap of the ref (`atomic`); the `state`
// namespace is Sepo's refs under `refs/agent-memory-state/`. Git's native strengths are its
// capabilities: the commits are `history`, the tip's id is `revision`, twins are found by reading
// only the trees on a path, and versions are git's own ids (a document's blob id, a state value's
// commit id: what earlier releases handed out and checkouts keep as their base).
import {
  DOCUMENTS_NAMESPACE,
  KIT_DRIVER_VERSION,
  type KitChange,
  type KitDriver,
  type KitEntry,
  type KitScanOptions,
  type KitWriteResult,
  normalizeDocumentPath,
  RepomemError,
  STATE_NAMESPACE,
  type StoreHistory,
  storeClosedError,
  type WriteMetadata,
} from '@repomem/core';
import { BoundedCache } from '../objects/bounded-cache.js';
import { assertIdentity, type GitIdentity } from '../objects/commit-object.js';
import { GitObjectStore } from '../objects/object-store.js';
import { lookupPath, walkDocuments } from '../objects/tree-walk.js';
import { branchRef, DEFAULT_MEMORY_BRANCH } from '../refs/branch-name.js';
import type { RefLockTiming } from '../refs/ref-lock.js';
import { readRef } from '../refs/ref-store.js';
import { findCheckout } from '../repository/checked-out.js';
import { type GitFileSystem, nodeFileSystem } from '../repository/file-system.js';
import { locateRepository } from '../repository/repository.js';
import { createStateRefs } from '../state/state-namespace.js';
import { type BranchContext, commitOnBranch, type GitStoreTestHooks } from './branch-commit.js';
import { composeCommitMessage } from './commit-message.js';
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
import { treeTwinCandidates } from './tree-twins.js';
import { commitMessageOf } from './write-metadata.js';

/** Default agent id, used in the default author `{agentId} <agent@localhost>`. */
export const DEFAULT_AGENT_ID = 'repomem';
/** E-mail of the default author and committer. */
export const DEFAULT_AGENT_EMAIL = 'agent@localhost';
/** Default largest document (16 MiB). */
export const DEFAULT_GIT_MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

/** Options of {@link createGitDriver} (and of `openGitStore`). */
export interface GitDriverOptions {
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

/**
 * What a commit of the git store asks of one driver write and learns back, keyed by the metadata
 * object it passes through `createStore`'s write (which hands the driver that same object).
 */
export interface CommitRequest {
  /** The full commit message (default: composed from the metadata). */
  readonly message?: string;
  /** Set by the driver: the commit made, or the tip left as it was when nothing changed. */
  outcome?:
    | { readonly status: 'committed'; readonly commit: string }
    | { readonly status: 'noop'; readonly tip: string | null };
}

/** Commit requests by the metadata object of their write. */
export const commitRequests = new WeakMap<object, CommitRequest>();

/** The git branch as a kit driver, with git's own view of its history. */
export interface GitDriver extends KitDriver {
  readonly name: 'git';
  readonly batch: 'atomic';
  readonly assignsVersions: true;
  readonly history: StoreHistory;
  readonly revision: { current(): Promise<string> };
  readonly twins: { candidates(namespace: string, keys: readonly string[]): Promise<string[]> };
  /** The repository directory given (absolute). */
  readonly dir: string;
  /** The git directory in use. */
  readonly gitdir: string;
  /** Short branch name, e.g. `agent/memory`. */
  readonly branch: string;
  /** Full ref, e.g. `refs/heads/agent/memory`. */
  readonly ref: string;
  readonly author: GitIdentity;
  readonly committer: GitIdentity;
  /** The branch tip (`null`: no commit yet). */
  tip(): Promise<string | null>;
  /** Throws `STORE_CLOSED` once closed. */
  assertOpen(): void;
  /** Commits newest first as full git revisions; with `path`, only those that changed it. */
  gitLog(options?: HistoryOptions): Promise<Revision[]>;
  /** A document as of a commit, ref or date, with the full git revision. */
  readAt(path: string, at: RevisionSpec): Promise<ReadAtResult>;
  /** Documents changed between two revisions (`null` = the empty tree). */
  diff(from: RevisionSpec | null, to: RevisionSpec | null): Promise<TreeDiff>;
}

/** `revision()` of a branch that has no commit yet. */
export const EMPTY_REVISION = 'empty';

/** Bytes of blob content kept by id (see `readBlob`). */
const BLOB_CACHE_BYTES = 8 * 1024 * 1024;
/** Documents read or sized at once. */
const CONCURRENCY = 32;

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RepomemError('INVALID_ARGUMENT', `${name} must be a positive integer, got ${value}`);
  }
  return value;
}

function defaultSubject(paths: readonly string[]): string {
  if (paths.length === 0) return 'chore(memory): update';
  const shown = paths.slice(0, 3).join(', ');
  return `chore(memory): update ${paths.length > 3 ? `${shown} and ${paths.length - 3} more` : shown}`;
}

async function mapLimited<T, R>(items: readonly T[], map: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  for (let start = 0; start < items.length; start += CONCURRENCY) {
    const slice = await Promise.all(items.slice(start, start + CONCURRENCY).map(map));
    slice.forEach((value, offset) => {
      out[start + offset] = value;
    });
  }
  return out;
}

/**
 * Open the memory branch of a git repository as a kit driver. The branch may not exist yet: the
 * first write creates it with a root commit. Namespaces: `documents` and `state` only.
 *
 * Throws `INVALID_ARGUMENT` (bad branch name, identity or option), `NOT_FOUND` (no repository at
 * `dir`), `NOT_A_DIRECTORY`.
 */
export async function createGitDriver(options: GitDriverOptions): Promise<GitDriver> {
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
  const maxValueBytes = positiveInteger('maxDocumentBytes', options.maxDocumentBytes, DEFAULT_GIT_MAX_DOCUMENT_BYTES);
  const timing: RefLockTiming = {
    timeoutMs: positiveInteger('lockTimeoutMs', options.lockTimeoutMs, 10_000),
    staleMs: positiveInteger('lockStaleMs', options.lockStaleMs, 30_000),
  };
  if (options.clock !== undefined && typeof options.clock !== 'function') {
    throw new RepomemError('INVALID_ARGUMENT', 'clock must be a function returning a Date');
  }
  const clock = options.clock ?? (() => new Date());
  const durable = options.durable ?? true;
  const objects = new GitObjectStore(fs, layout.commondir, durable);
  // Blob bytes by id (immutable): the kit's read of a batch's documents before the write, and the
  // `get` after it, find what the last `get` read or the last commit wrote without inflating it.
  const blobs = new BoundedCache<string, Uint8Array>(BLOB_CACHE_BYTES, (bytes) => bytes.byteLength + 64);
  const readBlob = async (oid: string): Promise<Uint8Array> => {
    let bytes = blobs.get(oid);
    if (bytes === undefined) {
      bytes = new Uint8Array(await objects.readTyped(oid, 'blob'));
      if (bytes.byteLength <= BLOB_CACHE_BYTES / 8) blobs.set(oid, bytes);
    }
    return new Uint8Array(bytes);
  };
  let closed = false;
  const assertOpen = (): void => {
    if (closed) throw storeClosedError('git');
  };
  const tip = (): Promise<string | null> => readRef(fs, layout.commondir, ref);
  const tipTree = async (): Promise<string | null> => {
    const commit = await tip();
    return commit === null ? null : (await objects.readCommit(commit)).tree;
  };
  const source: HistorySource = { objects, tip, readRef: (name) => readRef(fs, layout.commondir, name) };
  const state = createStateRefs({
    fs,
    commondir: layout.commondir,
    objects,
    identity: committer,
    clock,
    durable,
    timing,
  });
  const branchContext: BranchContext = {
    fs,
    layout,
    objects,
    branch,
    ref,
    author,
    committer,
    clock,
    timing,
    durable,
    hooks: options.testHooks,
    tip,
    async beforeCommit() {
      assertOpen();
      if (options.allowCheckedOutBranch === true) return;
      const head = await findCheckout(fs, layout, ref);
      if (head !== undefined) {
        throw new RepomemError(
          'INVALID_ARGUMENT',
          `branch ${branch} is checked out (${head}); object mode would leave that checkout behind the branch. ` +
            'Use another branch, or pass allowCheckedOutBranch: true',
          { details: { branch, head } },
        );
      }
    },
  };
  const namespaceOf = (namespace: string): 'documents' | 'state' => {
    if (namespace === DOCUMENTS_NAMESPACE || namespace === STATE_NAMESPACE) return namespace;
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `the git driver keeps the namespaces ${DOCUMENTS_NAMESPACE} (the branch) and ${STATE_NAMESPACE} (refs), not ${namespace}`,
      { details: { namespace } },
    );
  };

  // Keys the kit asked `twins` about and has not written yet (a count per key: batches may overlap).
  const twinAsked = new Map<string, number>();
  const takeTwinKeys = (changes: readonly KitChange[]): Set<string> => {
    const keys = new Set<string>();
    for (const change of changes) {
      const count = twinAsked.get(change.key);
      if (count === undefined) continue;
      keys.add(change.key);
      if (count > 1) twinAsked.set(change.key, count - 1);
      else twinAsked.delete(change.key);
    }
    return keys;
  };

  const commitDocuments = async (
    changes: readonly KitChange[],
    metadata: WriteMetadata | undefined,
  ): Promise<KitWriteResult> => {
    const request = metadata === undefined ? undefined : commitRequests.get(metadata);
    const message =
      request?.message ??
      composeCommitMessage(commitMessageOf(metadata, () => defaultSubject(changes.map((change) => change.key))));
    const result = await commitOnBranch(branchContext, changes, message, takeTwinKeys(changes));
    if (result.status === 'conflict') return result;
    for (const [index, change] of changes.entries()) {
      const version = result.versions[index];
      if (change.value !== null && typeof version === 'string' && change.value.byteLength <= BLOB_CACHE_BYTES / 8) {
        blobs.set(version, new Uint8Array(change.value));
      }
    }
    if (request !== undefined) {
      request.outcome =
        result.status === 'committed'
          ? { status: 'committed', commit: result.commit }
          : { status: 'noop', tip: result.tip };
    }
    return { status: 'committed', versions: result.versions };
  };

  const gitLog = async (historyOptions: HistoryOptions = {}): Promise<Revision[]> => {
    assertOpen();
    const path = historyOptions?.path === undefined ? undefined : normalizeDocumentPath(historyOptions.path);
    const limit = historyOptions?.limit ?? Number.POSITIVE_INFINITY;
    if (limit !== Number.POSITIVE_INFINITY && (!Number.isSafeInteger(limit) || limit < 0)) {
      throw new RepomemError('INVALID_ARGUMENT', `history limit must be a non-negative integer, got ${limit}`);
    }
    return listHistory(source, path, limit, historyOptions?.hidePrefix);
  };
  const readAt = async (path: string, at: RevisionSpec): Promise<ReadAtResult> => {
    assertOpen();
    return readDocumentAt(source, normalizeDocumentPath(path), at);
  };

  return {
    kit: KIT_DRIVER_VERSION,
    name: 'git',
    batch: 'atomic',
    assignsVersions: true,
    maxValueBytes,
    dir: layout.dir,
    gitdir: layout.gitdir,
    branch,
    ref,
    author,
    committer,
    tip,
    assertOpen,
    gitLog,
    readAt,
    async diff(from, to) {
      assertOpen();
      return diffRevisions(source, from, to);
    },
    history: storeHistoryOf({ log: gitLog, readAt }),
    revision: {
      async current() {
        assertOpen();
        return (await tip()) ?? EMPTY_REVISION;
      },
    },
    twins: {
      async candidates(namespace, keys) {
        assertOpen();
        if (namespaceOf(namespace) === STATE_NAMESPACE) return (await state.scan('')).map((entry) => entry.key);
        if (twinAsked.size > 4096) twinAsked.clear(); // marks of batches the kit refused are never taken
        for (const key of keys) twinAsked.set(key, (twinAsked.get(key) ?? 0) + 1);
        return treeTwinCandidates(objects, await tipTree(), keys);
      },
    },

    async read(namespace, keys): Promise<(KitEntry | undefined)[]> {
      assertOpen();
      if (namespaceOf(namespace) === STATE_NAMESPACE) return Promise.all(keys.map((key) => state.read(key)));
      const root = await tipTree();
      return mapLimited(keys, async (key) => {
        const found = await lookupPath(objects, root, key);
        if (found.status !== 'found' || found.entry.kind !== 'file') return undefined;
        const value = await readBlob(found.entry.oid);
        return { key, version: found.entry.oid, size: value.byteLength, value };
      });
    },

    async scan(namespace, { prefix, values = true }: KitScanOptions): Promise<KitEntry[]> {
      assertOpen();
      if (namespaceOf(namespace) === STATE_NAMESPACE) {
        const entries = await state.scan(prefix);
        return values ? entries : entries.map(({ key, version, size }) => ({ key, version, size }));
      }
      const documents = await walkDocuments(objects, await tipTree(), prefix);
      const entries = await mapLimited(documents, async ({ path, oid }): Promise<KitEntry> => {
        if (!values) return { key: path, version: oid, size: await objects.size(oid) };
        const value = new Uint8Array(await objects.readTyped(oid, 'blob'));
        return { key: path, version: oid, size: value.byteLength, value };
      });
      return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },

    /**
     * The `documents` changes are one commit (all or nothing); each `state` change is one ref
     * update. `createStore` never mixes the two in a batch; when a caller does, every state
     * precondition is checked first, then the commit is made, then the refs are updated.
     */
    async write(changes, metadata): Promise<KitWriteResult> {
      assertOpen();
      const documents = changes.filter((change) => namespaceOf(change.namespace) === DOCUMENTS_NAMESPACE);
      const states = changes.filter((change) => change.namespace === STATE_NAMESPACE);
      const stateConflicts = (await Promise.all(states.map((change) => state.check(change)))).filter(
        (conflict) => conflict !== undefined,
      );
      if (stateConflicts.length > 0) return { status: 'conflict', conflicts: stateConflicts };
      const stored = new Map<KitChange, string | null>();
      if (documents.length > 0) {
        const result = await commitDocuments(documents, metadata);
        if (result.status === 'conflict') return result;
        for (const [index, change] of documents.entries()) stored.set(change, result.versions?.[index] ?? null);
      }
      for (const change of states) {
        const result = await state.write(change);
        if ('actual' in result) return { status: 'conflict', conflicts: [result] };
        stored.set(change, result.version);
      }
      return { status: 'committed', versions: changes.map((change) => stored.get(change) ?? null) };
    },

    async close() {
      closed = true;
      blobs.clear();
      objects.clear();
    },
  };
}
