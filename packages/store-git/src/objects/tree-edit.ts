// Why: a commit must rewrite only the trees along the changed paths and reuse every other subtree
// by id, so one bullet edit on a branch of 20,000 files writes a blob, a few small trees and a
// commit. Emptied directories disappear, as they would in git.
import { RepomemError } from '@repomem/core';
import type { GitObjectStore } from './object-store.js';
import {
  FILE_MODE,
  findEntryIndex,
  insertSorted,
  makeEntry,
  serializeTree,
  TREE_MODE,
  type TreeEntry,
} from './tree-object.js';

/** One change to apply: write blob `oid` at `path`, or remove the file at `path`. */
export type TreeEdit =
  | { readonly kind: 'put'; readonly path: string; readonly oid: string }
  | { readonly kind: 'delete'; readonly path: string };

interface EditNode {
  readonly children: Map<string, EditNode>;
  edit?: TreeEdit;
}

function buildTrie(edits: readonly TreeEdit[]): EditNode {
  const root: EditNode = { children: new Map() };
  for (const edit of edits) {
    let node = root;
    for (const segment of edit.path.split('/')) {
      let child = node.children.get(segment);
      if (child === undefined) {
        child = { children: new Map() };
        node.children.set(segment, child);
      }
      node = child;
    }
    node.edit = edit;
  }
  return root;
}

function notADirectory(path: string, entry: TreeEntry): RepomemError {
  return new RepomemError(
    'INVALID_PATH',
    `cannot write below ${path}: it is a ${entry.kind} (mode ${entry.mode}) in the tree, not a directory`,
    { details: { path, mode: entry.mode } },
  );
}

async function rewrite(
  objects: GitObjectStore,
  treeOid: string | null,
  node: EditNode,
  base: string,
): Promise<string | null> {
  const original: readonly TreeEntry[] = treeOid === null ? [] : await objects.readTree(treeOid);
  let entries: TreeEntry[] | undefined;
  const current = (): TreeEntry[] => {
    entries ??= [...original];
    return entries;
  };
  for (const [name, child] of node.children) {
    const path = `${base}${name}`;
    const list = entries ?? original;
    const index = findEntryIndex(list, name);
    let existing = index >= 0 ? list[index] : undefined;
    const edit = child.edit;
    if (edit?.kind === 'delete' && existing?.kind === 'file') {
      current().splice(index, 1);
      existing = undefined;
    }
    if (edit?.kind === 'put') {
      if (child.children.size > 0) {
        throw new RepomemError('INVALID_ARGUMENT', `${path} is written both as a document and as a directory`, {
          details: { path },
        });
      }
      if (existing !== undefined && existing.kind !== 'file') {
        throw new RepomemError(
          'INVALID_PATH',
          `${path} is a ${existing.kind} (mode ${existing.mode}), not a document`,
          {
            details: { path, mode: existing.mode },
          },
        );
      }
      if (existing?.oid === edit.oid) continue;
      const entry = makeEntry(existing?.nameBytes ?? name, existing?.mode ?? FILE_MODE, edit.oid);
      if (existing !== undefined) current()[index] = entry;
      else insertSorted(current(), entry);
      continue;
    }
    if (child.children.size === 0) continue;
    if (existing !== undefined && existing.kind !== 'tree') throw notADirectory(path, existing);
    const before = existing?.oid ?? null;
    const after = await rewrite(objects, before, child, `${path}/`);
    if (after === before) continue;
    const list2 = current();
    const at = existing === undefined ? -1 : findEntryIndex(list2, name);
    if (after === null) {
      if (at >= 0) list2.splice(at, 1);
    } else {
      const entry = makeEntry(existing?.nameBytes ?? name, existing?.mode ?? TREE_MODE, after);
      if (at >= 0) list2[at] = entry;
      else insertSorted(list2, entry);
    }
  }
  if (entries === undefined) return treeOid;
  if (entries.length === 0) return null;
  return objects.writeTree(entries, serializeTree(entries));
}

/**
 * Apply `edits` to tree `root` (`null` = empty) and return the new root tree id, writing only
 * the trees that changed (`null` when the result is empty). Blobs must already be written.
 * Throws `INVALID_PATH` when a path runs into or replaces a non-file entry (symlink, submodule,
 * directory), before anything is written.
 */
export async function applyTreeEdits(
  objects: GitObjectStore,
  root: string | null,
  edits: readonly TreeEdit[],
): Promise<string | null> {
  if (edits.length === 0) return root;
  return rewrite(objects, root, buildTrie(edits), '');
}
