// Why: the second half of checkout mode: whatever agents did in the mount becomes one commit on
// the memory branch (object mode underneath: no worktree, compare-and-swap on the ref), after
// the gates. When the branch moved since the mount, changes are merged at file level: a path
// changed on one side only is taken from that side; a path changed differently on both is a
// conflict and nothing is committed.
import { join, resolve } from 'node:path';
import { RepomemError, type WriteOperation } from '@repomem/core';
import { GitObjectStore } from '../objects/object-store.js';
import { lookupPath } from '../objects/tree-walk.js';
import { readRef } from '../refs/ref-store.js';
import { nodeFileSystem } from '../repository/file-system.js';
import { locateRepository } from '../repository/repository.js';
import { type CommitMessage, splitMessage } from '../store/commit-message.js';
import { EMPTY_REVISION, openGitStore } from '../store/git-store.js';
import { IgnoreRules, MAX_COMMIT_FILE_BYTES } from './gates.js';
import { commitFiles } from './mount.js';
import { ensureMountGitignore } from './mount-gitignore.js';
import { MOUNT_MARKER_FILE, readMountMarker, writeMountMarker } from './mount-marker.js';
import { isHeld, isInSkippedDirectory, isInternalPath, scanMount } from './scan-mount.js';
import { syncMount } from './sync-mount.js';
import type { CommitMountedOptions, CommitMountedOutcome, MountedChange, SkippedPath } from './types.js';

/** Subject of a commit from a mount when the caller gives none. */
export const DEFAULT_MOUNT_COMMIT_SUBJECT = 'chore(memory): update memory';

interface PlannedChange {
  readonly path: string;
  readonly status: MountedChange['status'];
  /** Version in the mounted commit (`null` = absent). */
  readonly base: string | null;
  /** Version on disk (`null` = deleted). */
  readonly ours: string | null;
}

function commitMessage(options: CommitMountedOptions): CommitMessage {
  const { message, trailers } = options;
  if (message !== undefined && typeof message !== 'string' && (message === null || typeof message !== 'object')) {
    throw new RepomemError('INVALID_ARGUMENT', 'message must be a string or { subject, body?, trailers? }');
  }
  const parts: CommitMessage =
    message === undefined || typeof message === 'string' ? splitMessage(message ?? '') : message;
  const subject =
    typeof parts.subject === 'string' && parts.subject.trim() !== '' ? parts.subject : DEFAULT_MOUNT_COMMIT_SUBJECT;
  const merged = { ...parts.trailers, ...trailers };
  return { subject, body: parts.body, trailers: Object.keys(merged).length > 0 ? merged : undefined };
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RepomemError('INVALID_ARGUMENT', `${name} must be a positive integer, got ${value}`);
  }
  return value;
}

/**
 * Commit what changed in a mount (see `mountMemoryBranch`) to its branch: additions,
 * modifications and deletions, minus what the gates leave out (ignored paths, secrets, files over
 * `maxFileBytes`, symlinks), each reported in `skipped`. Nothing changed: `nothing_to_commit` (no
 * empty commit). After a commit the mount also holds what others committed meanwhile, and its
 * marker records the new commit. Never pushes.
 *
 * Throws `NOT_FOUND` (not a mount, or the branch was deleted), `INVALID_ARGUMENT` (bad message,
 * trailers or identity; the branch is checked out), `INVALID_DOCUMENT` (corrupt marker),
 * `LOCK_TIMEOUT`.
 */
export async function commitMountedTree(options: CommitMountedOptions): Promise<CommitMountedOutcome> {
  if (options === null || typeof options !== 'object') {
    throw new RepomemError('INVALID_ARGUMENT', 'commitMountedTree expects an options object { into, message? }');
  }
  if (typeof options.into !== 'string' || options.into.length === 0) {
    throw new RepomemError('INVALID_ARGUMENT', 'commitMountedTree: into must be a non-empty directory path');
  }
  const message = commitMessage(options);
  const maxFileBytes = positiveInteger('maxFileBytes', options.maxFileBytes, MAX_COMMIT_FILE_BYTES);
  const fs = options.fs ?? nodeFileSystem;
  const into = resolve(options.into);
  const marker = await readMountMarker(fs, into);
  if (marker === undefined) {
    throw new RepomemError(
      'NOT_FOUND',
      `${into} is not a mount (no ${MOUNT_MARKER_FILE}); mount the branch with mountMemoryBranch first`,
      { details: { into } },
    );
  }
  const layout = await locateRepository(fs, marker.repository);
  const objects = new GitObjectStore(fs, layout.commondir, false);
  const base = await commitFiles(objects, marker.commit);

  const rules = new IgnoreRules(await ensureMountGitignore(fs, into));
  const scan = await scanMount(fs, into, rules, maxFileBytes);
  const skipped: SkippedPath[] = [...scan.skipped];
  const notInBranch = new Map(base.skipped.map((entry) => [entry.path, entry]));
  const planned: PlannedChange[] = [];
  for (const [path, ours] of scan.files) {
    const entry = notInBranch.get(path);
    if (entry !== undefined) {
      skipped.push({
        path,
        reason: entry.reason,
        message: `skipped ${path}: the branch holds a ${entry.reason} entry there, which a file may not replace`,
      });
      continue;
    }
    const before = base.files.get(path)?.oid ?? null;
    if (before !== ours) planned.push({ path, status: before === null ? 'added' : 'modified', base: before, ours });
  }
  for (const [path, file] of base.files) {
    if (scan.files.has(path) || isInternalPath(path) || isInSkippedDirectory(path) || isHeld(scan.held, path)) continue;
    if (rules.ignoredAncestor(path) !== undefined) continue;
    planned.push({ path, status: 'deleted', base: file.oid, ours: null });
  }
  planned.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (planned.length === 0) return { status: 'nothing_to_commit', commit: marker.commit, skipped };

  const tip = await readRef(fs, layout.commondir, `refs/heads/${marker.branch}`);
  if (tip === null) {
    throw new RepomemError(
      'NOT_FOUND',
      `branch ${marker.branch} no longer exists in ${layout.dir}; nothing was committed (the mount at ${into} is kept)`,
      { details: { branch: marker.branch, into } },
    );
  }
  // File-level three-way merge against the current tip.
  const tipTree = tip === marker.commit ? null : (await objects.readCommit(tip)).tree;
  const conflicts: string[] = [];
  const apply: PlannedChange[] = [];
  for (const change of planned) {
    if (tipTree === null) {
      apply.push(change);
      continue;
    }
    const found = await lookupPath(objects, tipTree, change.path);
    const theirs = found.status === 'found' && found.entry.kind === 'file' ? found.entry.oid : null;
    if (theirs === change.base) apply.push(change);
    else if (theirs !== change.ours) conflicts.push(change.path);
  }
  if (conflicts.length > 0) return { status: 'conflict', paths: conflicts, skipped };
  if (apply.length === 0) return { status: 'nothing_to_commit', commit: marker.commit, skipped };

  const operations: WriteOperation[] = [];
  for (const change of apply) {
    if (change.ours === null) {
      operations.push({ kind: 'delete', path: change.path, expectedVersion: change.base });
      continue;
    }
    const content = new Uint8Array(await fs.promises.readFile(join(into, change.path)));
    if (content.byteLength > maxFileBytes) {
      skipped.push({
        path: change.path,
        reason: 'too_large',
        message: `skipped ${change.path}: ${content.byteLength} bytes is over the ${maxFileBytes}-byte commit limit`,
      });
      continue;
    }
    operations.push({ kind: 'put', path: change.path, content, expectedVersion: change.base });
  }
  const store = await openGitStore({
    dir: layout.dir,
    branch: marker.branch,
    fs,
    ...(options.agentId === undefined ? {} : { agentId: options.agentId }),
    ...(options.author === undefined ? {} : { author: options.author }),
    ...(options.committer === undefined ? {} : { committer: options.committer }),
    ...(options.durable === undefined ? {} : { durable: options.durable }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.allowCheckedOutBranch === undefined ? {} : { allowCheckedOutBranch: options.allowCheckedOutBranch }),
  });
  try {
    const result = await store.commit(operations, message);
    if (result.status === 'conflict') {
      return { status: 'conflict', paths: result.conflicts.map((conflict) => conflict.path), skipped };
    }
    if (result.status === 'noop') {
      return { status: 'nothing_to_commit', commit: marker.commit, skipped };
    }
    const created = await objects.readCommit(result.commit);
    const target = await commitFiles(objects, result.commit);
    const synced = await syncMount(fs, objects, into, base.files, target.files, false);
    await writeMountMarker(fs, into, {
      repository: marker.repository,
      gitdir: marker.gitdir,
      branch: marker.branch,
      commit: result.commit,
    });
    const committed = new Set(operations.map((operation) => operation.path));
    return {
      status: 'committed',
      commit: result.commit,
      parent: created.parents[0] ?? EMPTY_REVISION,
      changed: apply
        .filter((change) => committed.has(change.path))
        .map((change) => ({ path: change.path, status: change.status })),
      merged: [...synced.written, ...synced.removed].sort(),
      skipped,
    };
  } finally {
    await store.close();
  }
}
