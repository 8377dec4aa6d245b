// Why: a push must carry every object the remote lacks, and should carry little else. For each
// new commit, its tree is compared with its first parent's: subtrees and blobs that are
// identical by id are either on the remote already or sent with that parent, so only the
// entries that differ are walked (one bullet edit sends a blob, the trees above it and a commit).
import type { GitObjectStore } from '../objects/object-store.js';
import type { TreeEntry } from '../objects/tree-object.js';

async function collectTreeDifference(
  objects: GitObjectStore,
  tree: string,
  baseTree: string | null,
  into: Set<string>,
): Promise<void> {
  if (tree === baseTree || into.has(tree)) return;
  into.add(tree);
  const base = new Map<string, TreeEntry>();
  if (baseTree !== null) for (const entry of await objects.readTree(baseTree)) base.set(entry.name, entry);
  for (const entry of await objects.readTree(tree)) {
    if (entry.kind === 'submodule') continue; // a commit of another repository
    const before = base.get(entry.name);
    if (before?.oid === entry.oid) continue;
    if (entry.kind === 'tree') {
      await collectTreeDifference(objects, entry.oid, before?.kind === 'tree' ? before.oid : null, into);
    } else {
      into.add(entry.oid);
    }
  }
}

/**
 * Ids of the commits `commits` (parents first) and of the trees and blobs they introduce over
 * their first parents: the content of the pack to push.
 */
export async function objectsToSend(objects: GitObjectStore, commits: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const oid of commits) {
    found.add(oid);
    const commit = await objects.readCommit(oid);
    const parent = commit.parents[0];
    const parentTree = parent === undefined ? null : await parentTreeOf(objects, parent);
    await collectTreeDifference(objects, commit.tree, parentTree, found);
  }
  return [...found];
}

async function parentTreeOf(objects: GitObjectStore, parent: string): Promise<string | null> {
  try {
    return (await objects.readCommit(parent)).tree;
  } catch {
    return null;
  }
}
