// Why: a batch of document changes becomes one commit on the memory branch, published with a
// compare-and-swap of the branch ref that interoperates with the git CLI's lock files. Before
// that, every path is looked up in the tip's tree once: its blob id is checked against the
// expected version, and anything that is not a plain document (a directory, a symlink, a
// submodule, a file in the way of a new folder) is refused, because repomem never reads or writes
// through them. When another writer moved the tip in between, the batch is rebuilt on the new tip
// (preconditions and path twins are checked again there, so a real conflict is still reported).
import { acquireKeyedMutex, type KitChange, type KitConflict, RepomemError } from '@repomem/core';
import { formatSignature, type GitIdentity, serializeCommit } from '../objects/commit-object.js';
import { blobVersion, EMPTY_TREE_OID } from '../objects/object-id.js';
import type { GitObjectStore } from '../objects/object-store.js';
import { applyTreeEdits, type TreeEdit } from '../objects/tree-edit.js';
import { lookupPath } from '../objects/tree-walk.js';
import { compareAndSwapRef, type RefLockTiming } from '../refs/ref-lock.js';
import type { GitFileSystem } from '../repository/file-system.js';
import type { GitRepositoryLayout } from '../repository/repository.js';
import { refuseTreeTwins } from './tree-twins.js';

/** Points where tests can pause a writer (to kill it there). Not for production use. */
export interface GitStoreTestHooks {
  /** After the blobs, trees and commit are written, before the ref lock is taken. */
  readonly afterObjectsWritten?: (commit: string) => Promise<void> | void;
  /** While `<ref>.lock` is held and holds the new id, just before it is renamed over the ref. */
  readonly whileRefLocked?: (commit: string) => Promise<void> | void;
}

/** What committing on the branch needs. */
export interface BranchContext {
  readonly fs: GitFileSystem;
  readonly layout: GitRepositoryLayout;
  readonly objects: GitObjectStore;
  readonly branch: string;
  readonly ref: string;
  readonly author: GitIdentity;
  readonly committer: GitIdentity;
  readonly clock: () => Date;
  readonly timing: RefLockTiming;
  readonly durable: boolean;
  readonly hooks: GitStoreTestHooks | undefined;
  /** The branch tip (`null`: no commit yet). */
  tip(): Promise<string | null>;
  /** Throws when the branch may not be moved now (checked out, store closed). */
  beforeCommit(): Promise<void>;
}

/** Outcome of {@link commitOnBranch}: a new commit, nothing to commit, or failed preconditions. */
export type BranchCommit =
  | { readonly status: 'committed'; readonly commit: string; readonly versions: (string | null)[] }
  | { readonly status: 'noop'; readonly tip: string | null; readonly versions: (string | null)[] }
  | { readonly status: 'conflict'; readonly conflicts: KitConflict[] };

/** How many times a write rebuilds on a tip that moved under it before giving up with `CONFLICT`. */
const MAX_PUBLISH_ATTEMPTS = 100;

/** Refuse a batch putting a path both as a document and as the directory of another put (`a` and `a/b`). */
function refuseDocumentDirectoryClash(changes: readonly KitChange[]): void {
  const puts = new Set(changes.filter((change) => change.value !== null).map((change) => change.key));
  for (const path of puts) {
    const segments = path.split('/');
    for (let length = 1; length < segments.length; length += 1) {
      const parent = segments.slice(0, length).join('/');
      if (puts.has(parent)) {
        throw new RepomemError(
          'INVALID_ARGUMENT',
          `${parent} is written both as a document and as the directory of ${path} in one batch`,
          { details: { path } },
        );
      }
    }
  }
}

/** The blob id now at each change's path (`null`: absent), refusing paths that are not documents. */
async function actualVersions(
  context: BranchContext,
  root: string | null,
  changes: readonly KitChange[],
): Promise<(string | null)[]> {
  const { objects, branch } = context;
  const deletedFiles = new Set<string>();
  const found = await Promise.all(
    changes.map(async (change) => {
      const lookup = await lookupPath(objects, root, change.key);
      if (lookup.status === 'found') {
        const { entry } = lookup;
        if (entry.kind === 'file') {
          if (change.value === null) deletedFiles.add(change.key);
          return entry.oid;
        }
        if (entry.kind === 'tree') {
          if (change.value !== null) {
            throw new RepomemError('INVALID_PATH', `${change.key} is a directory in ${branch}, not a document`, {
              details: { path: change.key },
            });
          }
          return null;
        }
        throw new RepomemError(
          'INVALID_PATH',
          `${change.key} is a ${entry.kind} (mode ${entry.mode}) in ${branch}, not a document; ` +
            'repomem never reads or writes through symlinks or submodules',
          { details: { path: change.key, mode: entry.mode } },
        );
      }
      if (lookup.status === 'blocked' && change.value !== null) return lookup;
      return null;
    }),
  );
  return found.map((actual, index) => {
    if (actual === null || typeof actual === 'string') return actual;
    const { entry, prefix } = actual;
    if (entry.kind === 'file' && deletedFiles.has(prefix)) return null;
    throw new RepomemError(
      'INVALID_PATH',
      `cannot write ${changes[index]?.key}: ${prefix} is a ${entry.kind} (mode ${entry.mode}) in ${branch}, not a directory`,
      { details: { path: changes[index]?.key, mode: entry.mode } },
    );
  });
}

/**
 * Commit `changes` (all in the `documents` namespace) with `message` on the branch; puts of
 * `twinKeys` (the keys the kit checked for twins) are checked again against each tip tried.
 */
export async function commitOnBranch(
  context: BranchContext,
  changes: readonly KitChange[],
  message: string,
  twinKeys: ReadonlySet<string>,
): Promise<BranchCommit> {
  refuseDocumentDirectoryClash(changes);
  const versions = changes.map((change) => (change.value === null ? null : blobVersion(change.value)));
  const edits: TreeEdit[] = changes.map((change, index) =>
    change.value === null
      ? { kind: 'delete', path: change.key }
      : { kind: 'put', path: change.key, oid: versions[index] as string },
  );
  const release = await acquireKeyedMutex(`${context.layout.commondir}\0${context.ref}`);
  try {
    for (let attempt = 1; attempt <= MAX_PUBLISH_ATTEMPTS; attempt += 1) {
      await context.beforeCommit();
      const outcome = await attemptCommit(context, changes, edits, versions, message, twinKeys);
      if (outcome !== 'moved') return outcome;
    }
    throw new RepomemError(
      'CONFLICT',
      `${context.branch} kept moving: ${MAX_PUBLISH_ATTEMPTS} attempts to commit on its tip were overtaken by other writers`,
      { details: { branch: context.branch } },
    );
  } finally {
    release();
  }
}

async function attemptCommit(
  context: BranchContext,
  changes: readonly KitChange[],
  edits: readonly TreeEdit[],
  versions: (string | null)[],
  message: string,
  twinKeys: ReadonlySet<string>,
): Promise<BranchCommit | 'moved'> {
  const { objects } = context;
  const tip = await context.tip();
  const root = tip === null ? null : (await objects.readCommit(tip)).tree;
  const actual = await actualVersions(context, root, changes);
  const conflicts: KitConflict[] = [];
  changes.forEach((change, index) => {
    if (change.expected !== undefined && change.expected !== actual[index]) {
      conflicts.push({ namespace: change.namespace, key: change.key, actual: actual[index] ?? null });
    }
  });
  if (conflicts.length > 0) return { status: 'conflict', conflicts };
  // The kit checked twins before the batch reached the driver; a writer may have created one since.
  await refuseTreeTwins(objects, root, changes, twinKeys);
  await Promise.all(changes.map((change) => (change.value === null ? '' : objects.write('blob', change.value))));
  const next = await applyTreeEdits(objects, root, edits);
  if (next === root) return { status: 'noop', tip, versions };
  const tree = next ?? (await objects.write('tree', new Uint8Array(0)));
  if (tree === root || (tip === null && tree === EMPTY_TREE_OID)) return { status: 'noop', tip, versions };
  const now = context.clock();
  const commit = await objects.write(
    'commit',
    serializeCommit({
      tree,
      parents: tip === null ? [] : [tip],
      author: formatSignature(context.author, now),
      committer: formatSignature(context.committer, now),
      message,
    }),
  );
  await context.hooks?.afterObjectsWritten?.(commit);
  const whileLocked = context.hooks?.whileRefLocked;
  const subject = message.split('\n', 1)[0] ?? '';
  const updated = await compareAndSwapRef(
    context.fs,
    context.layout.commondir,
    {
      ref: context.ref,
      expected: tip,
      next: commit,
      reflog: {
        identity: formatSignature(context.committer, now),
        message: `${tip === null ? 'commit (initial)' : 'commit'}: ${subject}`,
        create: !context.layout.bare,
      },
      beforePublish: whileLocked === undefined ? undefined : async () => whileLocked(commit),
    },
    context.timing,
    context.durable,
  );
  if (updated.status === 'moved') return 'moved';
  return { status: 'committed', commit, versions };
}
