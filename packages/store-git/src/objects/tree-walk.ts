// Why: reading documents out of a commit's tree without a checkout: resolve one path through the
// nested trees, or walk everything under a prefix. Only regular files are documents; symlinks,
// submodules and reserved names (`.git`, `node_modules`) are never exposed.
import type { GitObjectStore } from './object-store.js';
import { isDocumentName, type TreeEntry } from './tree-object.js';

/** Where a path leads in a tree. */
export type PathLookup =
  | { readonly status: 'found'; readonly entry: TreeEntry }
  | { readonly status: 'absent' }
  /** A leading part of the path is not a directory (a file, symlink or submodule). */
  | { readonly status: 'blocked'; readonly entry: TreeEntry; readonly prefix: string };

/** Resolve `path` (normalised, `/`-separated) in tree `root` (`null` = empty). */
export async function lookupPath(objects: GitObjectStore, root: string | null, path: string): Promise<PathLookup> {
  if (root === null) return { status: 'absent' };
  const segments = path.split('/');
  let tree = root;
  for (let index = 0; index < segments.length; index += 1) {
    const name = segments[index] as string;
    const entries = await objects.readTree(tree);
    const entry = entries.find((candidate) => candidate.name === name);
    if (entry === undefined) return { status: 'absent' };
    if (index === segments.length - 1) return { status: 'found', entry };
    if (entry.kind !== 'tree') return { status: 'blocked', entry, prefix: segments.slice(0, index + 1).join('/') };
    tree = entry.oid;
  }
  return { status: 'absent' };
}

/** A document found while walking a tree. */
export interface WalkedDocument {
  readonly path: string;
  readonly oid: string;
}

/**
 * Every document (regular file) under tree `root` whose path starts with `prefix` (a normalised
 * path prefix, `''` for all), in git tree order. Subtrees that cannot match are not read.
 */
export async function walkDocuments(
  objects: GitObjectStore,
  root: string | null,
  prefix: string,
): Promise<WalkedDocument[]> {
  const found: WalkedDocument[] = [];
  const visit = async (tree: string, base: string): Promise<void> => {
    for (const entry of await objects.readTree(tree)) {
      if (!isDocumentName(entry.name)) continue;
      const path = `${base}${entry.name}`;
      if (entry.kind === 'file') {
        if (path.startsWith(prefix)) found.push({ path, oid: entry.oid });
      } else if (entry.kind === 'tree') {
        const directory = `${path}/`;
        if (directory.startsWith(prefix) || prefix.startsWith(directory)) await visit(entry.oid, directory);
      }
    }
  };
  if (root !== null) await visit(root, '');
  return found;
}
