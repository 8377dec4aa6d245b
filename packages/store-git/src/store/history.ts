// Why: "what did the agent know, and when?" The branch's commits are the answer: list the
// revisions that touched a document, read a document as of a commit or a moment, and compare
// two revisions, all from the object database (no checkout, nothing written).
import { RepomemError, type StoredDocument } from '@repomem/core';
import type { GitSignature, ParsedCommit } from '../objects/commit-object.js';
import { isObjectId } from '../objects/object-id.js';
import type { GitObjectStore } from '../objects/object-store.js';
import { isDocumentName, type TreeEntry } from '../objects/tree-object.js';
import { lookupPath } from '../objects/tree-walk.js';
import { parseCommitMessage } from './commit-message.js';

/** A revision of the memory branch, as `history()` lists it. */
export interface Revision {
  /** Commit id. */
  readonly oid: string;
  /** When it was committed. */
  readonly time: Date;
  /** Subject line (e.g. `chore(memory): add bullet to MEMORY.md`, `checkpoint: ...`). */
  readonly message: string;
  /** Text between the subject and the trailers (`''` when none). */
  readonly body: string;
  /** Trailers of the last paragraph (`Task-Id`, `Thread-Key`...). */
  readonly trailers: Readonly<Record<string, string>>;
  /** Who wrote the change. */
  readonly author: GitSignature;
  /** Who committed it. */
  readonly committer: GitSignature;
  /** Parent commit ids (none for the first commit). */
  readonly parents: readonly string[];
}

/** Options of `history()`. */
export interface HistoryOptions {
  /** Only revisions that changed this document (added, modified or deleted it). */
  readonly path?: string;
  /** At most this many revisions (newest first). */
  readonly limit?: number;
  /** Leave out revisions whose every change lies under this directory prefix (`.repomem/`). Ignored with `path`. */
  readonly hidePrefix?: string;
}

/**
 * A point in the branch's history: a commit id (full or abbreviated), a ref or branch name
 * (`agent/memory`, `refs/tags/x`), or a `Date` meaning the last commit at or before it.
 */
export type RevisionSpec = string | Date;

/** Outcome of `readAt()`. */
export type ReadAtResult =
  /** The document as of `revision`. */
  | { readonly status: 'found'; readonly revision: Revision; readonly document: StoredDocument }
  /** The document did not exist in `revision`. */
  | { readonly status: 'absent'; readonly revision: Revision }
  /** The date is before the first commit, or the branch has no commits yet. */
  | { readonly status: 'no_revision' };

/** How a document differs between two revisions. */
export interface DiffEntry {
  readonly path: string;
  readonly status: 'added' | 'modified' | 'deleted';
  /** Blob id before (`null` when added). */
  readonly oldVersion: string | null;
  /** Blob id after (`null` when deleted). */
  readonly newVersion: string | null;
}

/** Outcome of `diff()`: the two commits compared (`null` = empty) and the changed documents, sorted by path. */
export interface TreeDiff {
  readonly from: string | null;
  readonly to: string | null;
  readonly changes: readonly DiffEntry[];
}

/** What the history functions need from the store. */
export interface HistorySource {
  readonly objects: GitObjectStore;
  /** Current tip of the memory branch (`null` when it has no commits). */
  tip(): Promise<string | null>;
  /** Id a full ref name points at, or `null`. */
  readRef(ref: string): Promise<string | null>;
}

/** Describe a commit as a {@link Revision}. */
export function toRevision(commit: ParsedCommit): Revision {
  const parsed = parseCommitMessage(commit.message);
  return {
    oid: commit.oid,
    time: commit.committer.time,
    message: parsed.subject,
    body: parsed.body,
    trailers: parsed.trailers,
    author: commit.author,
    committer: commit.committer,
    parents: commit.parents,
  };
}

async function documentOid(objects: GitObjectStore, tree: string, path: string): Promise<string | null> {
  const found = await lookupPath(objects, tree, path);
  return found.status === 'found' && found.entry.kind === 'file' ? found.entry.oid : null;
}

/** True when the trees differ in a document outside `hidden` (a directory prefix ending in `/`). */
async function changesOutside(
  objects: GitObjectStore,
  before: string | null,
  after: string,
  hidden: string,
): Promise<boolean> {
  const changes: DiffEntry[] = [];
  await diffTrees(objects, before, after, '', changes);
  return changes.some((change) => !change.path.startsWith(hidden));
}

/**
 * Revisions newest first (by commit time), walking every parent. With `path`, only commits whose
 * version of the document differs from each parent's (git's default history simplification).
 * Without `path`, `hidePrefix` leaves out commits that changed only documents under it.
 */
export async function listHistory(
  source: HistorySource,
  path: string | undefined,
  limit: number,
  hidePrefix?: string,
): Promise<Revision[]> {
  const tip = await source.tip();
  if (tip === null || limit === 0) return [];
  const { objects } = source;
  const revisions: Revision[] = [];
  // Each commit's version of the document, computed once (it is compared again as a parent).
  const versions = new Map<string, Promise<string | null>>();
  const versionAt = (commit: ParsedCommit, document: string): Promise<string | null> => {
    let version = versions.get(commit.oid);
    if (version === undefined) {
      version = documentOid(objects, commit.tree, document);
      versions.set(commit.oid, version);
    }
    return version;
  };
  const seen = new Set<string>([tip]);
  const queue: ParsedCommit[] = [await objects.readCommit(tip)];
  while (queue.length > 0 && revisions.length < limit) {
    const commit = queue.shift() as ParsedCommit;
    const parents = await Promise.all(commit.parents.map((parent) => objects.readCommit(parent)));
    for (const parent of parents) {
      if (seen.has(parent.oid)) continue;
      seen.add(parent.oid);
      const at = queue.findIndex((queued) => queued.committer.time < parent.committer.time);
      if (at < 0) queue.push(parent);
      else queue.splice(at, 0, parent);
    }
    if (path !== undefined) {
      const mine = await versionAt(commit, path);
      versions.delete(commit.oid);
      const theirs = await Promise.all(parents.map((parent) => versionAt(parent, path)));
      const changed = parents.length === 0 ? mine !== null : theirs.every((oid) => oid !== mine);
      if (!changed) continue;
    } else if (hidePrefix !== undefined) {
      const hidden = hidePrefix.endsWith('/') ? hidePrefix : `${hidePrefix}/`;
      const visible =
        parents.length === 0
          ? await changesOutside(objects, null, commit.tree, hidden)
          : (
              await Promise.all(parents.map((parent) => changesOutside(objects, parent.tree, commit.tree, hidden)))
            ).every(Boolean);
      if (!visible) continue;
    }
    revisions.push(toRevision(commit));
  }
  return revisions;
}

/** The commit a revision spec names, or `null` for a date before the first commit (or an empty branch). */
export async function resolveRevision(source: HistorySource, spec: RevisionSpec): Promise<string | null> {
  const { objects } = source;
  if (spec instanceof Date) {
    const limit = spec.getTime();
    if (!Number.isFinite(limit)) throw new RepomemError('INVALID_ARGUMENT', 'revision date is invalid');
    let current = await source.tip();
    while (current !== null) {
      const commit = await objects.readCommit(current);
      if (commit.committer.time.getTime() <= limit) return current;
      current = commit.parents[0] ?? null;
    }
    return null;
  }
  if (typeof spec !== 'string' || spec.length === 0) {
    throw new RepomemError('INVALID_ARGUMENT', 'revision must be a commit id, a ref name or a Date');
  }
  if (isObjectId(spec)) return objects.peelToCommit(spec);
  if (/^[0-9a-f]{4,39}$/.test(spec)) {
    const named = await readNamedRef(source, spec);
    return named ?? objects.peelToCommit(await objects.expandOid(spec));
  }
  const named = await readNamedRef(source, spec);
  if (named === null) {
    throw new RepomemError('NOT_FOUND', `unknown revision ${JSON.stringify(spec)} (not a commit id or ref)`, {
      details: { revision: spec },
    });
  }
  return named;
}

async function readNamedRef(source: HistorySource, name: string): Promise<string | null> {
  if (name.includes('..') || name.includes('\0') || name.startsWith('/') || name.includes('\\')) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid revision ${JSON.stringify(name)}`, {
      details: { revision: name },
    });
  }
  const candidates = name.startsWith('refs/') ? [name] : [`refs/heads/${name}`, `refs/tags/${name}`, `refs/${name}`];
  for (const ref of candidates) {
    const oid = await source.readRef(ref);
    if (oid !== null) return source.objects.peelToCommit(oid);
  }
  return null;
}

/** The document at `path` as of `spec`. */
export async function readDocumentAt(source: HistorySource, path: string, spec: RevisionSpec): Promise<ReadAtResult> {
  const oid = await resolveRevision(source, spec);
  if (oid === null) return { status: 'no_revision' };
  const commit = await source.objects.readCommit(oid);
  const revision = toRevision(commit);
  const found = await lookupPath(source.objects, commit.tree, path);
  if (found.status !== 'found' || found.entry.kind !== 'file') return { status: 'absent', revision };
  const content = new Uint8Array(await source.objects.readTyped(found.entry.oid, 'blob'));
  return {
    status: 'found',
    revision,
    document: { path, version: found.entry.oid, size: content.byteLength, content },
  };
}

function documentsOf(entries: readonly TreeEntry[]): Map<string, TreeEntry> {
  const map = new Map<string, TreeEntry>();
  for (const entry of entries)
    if ((entry.kind === 'file' || entry.kind === 'tree') && isDocumentName(entry.name)) map.set(entry.name, entry);
  return map;
}

async function diffTrees(
  objects: GitObjectStore,
  before: string | null,
  after: string | null,
  base: string,
  out: DiffEntry[],
): Promise<void> {
  if (before === after) return;
  const left = documentsOf(before === null ? [] : await objects.readTree(before));
  const right = documentsOf(after === null ? [] : await objects.readTree(after));
  const names = new Set([...left.keys(), ...right.keys()]);
  for (const name of names) {
    const a = left.get(name);
    const b = right.get(name);
    const path = `${base}${name}`;
    const aFile = a?.kind === 'file' ? a.oid : null;
    const bFile = b?.kind === 'file' ? b.oid : null;
    if (aFile !== bFile) {
      const status = aFile === null ? 'added' : bFile === null ? 'deleted' : 'modified';
      out.push({ path, status, oldVersion: aFile, newVersion: bFile });
    }
    const aTree = a?.kind === 'tree' ? a.oid : null;
    const bTree = b?.kind === 'tree' ? b.oid : null;
    if (aTree !== bTree) await diffTrees(objects, aTree, bTree, `${path}/`, out);
  }
}

/** Documents added, modified or deleted between two revisions (`null` = the empty tree). */
export async function diffRevisions(
  source: HistorySource,
  from: RevisionSpec | null,
  to: RevisionSpec | null,
): Promise<TreeDiff> {
  const fromOid = from === null ? null : await resolveRevision(source, from);
  const toOid = to === null ? null : await resolveRevision(source, to);
  const treeOf = async (oid: string | null): Promise<string | null> =>
    oid === null ? null : (await source.objects.readCommit(oid)).tree;
  const changes: DiffEntry[] = [];
  await diffTrees(source.objects, await treeOf(fromOid), await treeOf(toOid), '', changes);
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { from: fromOid, to: toOid, changes };
}
