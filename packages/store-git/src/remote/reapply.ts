// Why: when someone else pushed first, this run's commits are replayed on the new remote tip,
// one by one, each keeping its message, trailers and author (the forensic record survives the
// race). Each commit's change is merged per path against what the tip has now: one-sided
// changes are taken, two-sided text edits are merged by lines (insertions kept from both), and
// true overlaps resolve to this run's version and are reported.
import { RepomemError } from '@repomem/core';
import { serializeCommit } from '../objects/commit-object.js';
import { blobVersion } from '../objects/object-id.js';
import type { GitObjectStore } from '../objects/object-store.js';
import { applyTreeEdits, type TreeEdit } from '../objects/tree-edit.js';
import type { TreeEntry } from '../objects/tree-object.js';
import { lookupPath } from '../objects/tree-walk.js';
import { mergeLines } from './line-merge.js';

/** A change both sides made to the same place, resolved in favour of this (local) run. */
export interface ResolvedConflict {
  /** Document path. */
  readonly path: string;
  /** The local commit whose change was being re-applied. */
  readonly commit: string;
  /**
   * `lines`: both edited the same lines (`base`, `local`, `remote` hold that region);
   * `modify_delete`: one side deleted the document the other changed (whole documents, `null` = deleted);
   * `binary`: both changed a non-text document (texts are `null`; see the versions).
   */
  readonly kind: 'lines' | 'modify_delete' | 'binary';
  /** The region (or document) in the common ancestor; `null` when absent or binary. */
  readonly base: string | null;
  /** This run's version, which was kept; `null` when deleted or binary. */
  readonly local: string | null;
  /** The remote's version, which was replaced; `null` when deleted or binary. */
  readonly remote: string | null;
  /** Blob id of the document this run wrote (`null` = deleted). */
  readonly localVersion: string | null;
  /** Blob id of the document on the remote tip (`null` = absent). */
  readonly remoteVersion: string | null;
  /** Always `local`: this run's edit won. */
  readonly resolution: 'local';
}

/** Result of {@link reapplyCommits}. */
export interface ReapplyResult {
  /** The new tip (the last re-applied commit, or `onto` when every change was already there). */
  readonly tip: string;
  /** Commits written. */
  readonly created: number;
  /** Conflicts resolved along the way. */
  readonly conflicts: readonly ResolvedConflict[];
}

interface FileChange {
  readonly path: string;
  readonly before: TreeEntry | null;
  readonly after: TreeEntry | null;
}

async function changedFiles(
  objects: GitObjectStore,
  before: string | null,
  after: string | null,
  base: string,
  out: FileChange[],
): Promise<void> {
  if (before === after) return;
  const left = new Map((before === null ? [] : await objects.readTree(before)).map((entry) => [entry.name, entry]));
  const right = new Map((after === null ? [] : await objects.readTree(after)).map((entry) => [entry.name, entry]));
  for (const name of new Set([...left.keys(), ...right.keys()])) {
    const a = left.get(name);
    const b = right.get(name);
    if (a?.oid === b?.oid && a?.mode === b?.mode) continue;
    const path = `${base}${name}`;
    const aTree = a?.kind === 'tree' ? a.oid : null;
    const bTree = b?.kind === 'tree' ? b.oid : null;
    if (aTree !== null || bTree !== null) await changedFiles(objects, aTree, bTree, `${path}/`, out);
    const aFile = a !== undefined && a.kind !== 'tree' ? a : null;
    const bFile = b !== undefined && b.kind !== 'tree' ? b : null;
    if (aFile !== null || bFile !== null) out.push({ path, before: aFile, after: bFile });
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function asText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

async function readText(objects: GitObjectStore, entry: TreeEntry | null): Promise<string | null | undefined> {
  if (entry === null) return null;
  if (entry.kind !== 'file') return undefined;
  return asText(await objects.readTyped(entry.oid, 'blob'));
}

/** `Name <email> <seconds> <tz>` with the time replaced by `now` (time zone kept). */
function restamp(signature: string, now: Date): string {
  const seconds = Math.floor(now.getTime() / 1000);
  return signature.replace(/ \d+ ([+-]\d{4})$/, ` ${seconds} $1`);
}

function rawHeader(content: Uint8Array, name: string, oid: string): string {
  const text = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8');
  const headerEnd = text.indexOf('\n\n');
  const match = new RegExp(`^${name} (.*)$`, 'm').exec(headerEnd < 0 ? text : text.slice(0, headerEnd));
  if (match?.[1] === undefined) {
    throw new RepomemError('INVALID_DOCUMENT', `commit ${oid} has no ${name} line`, { details: { oid } });
  }
  return match[1];
}

/**
 * Replay `commits` (this run's commits, parents first) on top of commit `onto`. Writes blobs,
 * trees and commits (nothing is published: the caller moves refs). Commits whose change is
 * already on `onto` are dropped, as `git rebase` drops empty commits.
 */
export async function reapplyCommits(
  objects: GitObjectStore,
  commits: readonly string[],
  onto: string,
  now: Date,
): Promise<ReapplyResult> {
  let tip = onto;
  let tipTree: string | null = (await objects.readCommit(onto)).tree;
  let created = 0;
  const conflicts: ResolvedConflict[] = [];
  for (const oid of commits) {
    const commit = await objects.readCommit(oid);
    const parent = commit.parents[0];
    const parentTree = parent === undefined ? null : (await objects.readCommit(parent)).tree;
    const changes: FileChange[] = [];
    await changedFiles(objects, parentTree, commit.tree, '', changes);
    const edits: TreeEdit[] = [];
    for (const change of changes) {
      const found = await lookupPath(objects, tipTree, change.path);
      const remote = found.status === 'found' && found.entry.kind !== 'tree' ? found.entry : null;
      const local = change.after;
      const base = change.before;
      if (remote?.oid === local?.oid) continue;
      const put = (blob: string): void => {
        edits.push({ kind: 'put', path: change.path, oid: blob });
      };
      if (remote?.oid === base?.oid) {
        if (local === null) edits.push({ kind: 'delete', path: change.path });
        else put(local.oid);
        continue;
      }
      const conflict = {
        path: change.path,
        commit: oid,
        localVersion: local?.oid ?? null,
        remoteVersion: remote?.oid ?? null,
        resolution: 'local' as const,
      };
      if (local === null || remote === null) {
        const [baseText, localText, remoteText] = await Promise.all([
          readText(objects, base),
          readText(objects, local),
          readText(objects, remote),
        ]);
        conflicts.push({
          ...conflict,
          kind: 'modify_delete',
          base: baseText ?? null,
          local: localText ?? null,
          remote: remoteText ?? null,
        });
        if (local === null) edits.push({ kind: 'delete', path: change.path });
        else put(local.oid);
        continue;
      }
      const [baseText, localText, remoteText] = await Promise.all([
        base === null ? '' : readText(objects, base),
        readText(objects, local),
        readText(objects, remote),
      ]);
      if (typeof baseText !== 'string' || typeof localText !== 'string' || typeof remoteText !== 'string') {
        conflicts.push({ ...conflict, kind: 'binary', base: null, local: null, remote: null });
        put(local.oid);
        continue;
      }
      const merged = mergeLines(baseText, localText, remoteText);
      for (const region of merged.conflicts) {
        conflicts.push({ ...conflict, kind: 'lines', base: region.base, local: region.local, remote: region.remote });
      }
      const content = Buffer.from(merged.text, 'utf8');
      const blob = blobVersion(content);
      if (blob !== remote.oid) await objects.write('blob', content);
      put(blob);
    }
    const next = await applyTreeEdits(objects, tipTree, edits);
    if (next === tipTree) continue;
    const tree: string = next ?? (await objects.write('tree', new Uint8Array(0)));
    const raw = await objects.readTyped(oid, 'commit');
    tip = await objects.write(
      'commit',
      serializeCommit({
        tree,
        parents: [tip],
        author: rawHeader(raw, 'author', oid),
        committer: restamp(rawHeader(raw, 'committer', oid), now),
        message: commit.message,
      }),
    );
    tipTree = tree;
    created += 1;
  }
  return { tip, created, conflicts };
}
