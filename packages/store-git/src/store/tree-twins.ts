// Why: core's rule against case and Unicode-normalisation twins (see core's path-twins.ts) on the
// git store's trees: a new path is compared, level by level, with the names of the tip's trees,
// so the check reads only the trees on that path, never the whole branch. It answers the kit's
// `twins` capability, and the keys the kit asked about are checked again inside the commit loop,
// because another writer may create a twin between the kit's check and the compare-and-swap of
// the ref. (A driver holds any keys it is given: the rule itself is the kit's.)
import { findNameTwin, type KitChange, pathTwinError } from '@repomem/core';
import type { GitObjectStore } from '../objects/object-store.js';
import { walkDocuments } from '../objects/tree-walk.js';

/** The existing twin of `path` in tree `root` (`dir/` for a directory), or undefined. */
async function twinInTree(
  objects: GitObjectStore,
  root: string | null,
  path: string,
  deleted: ReadonlySet<string>,
): Promise<{ readonly shown: string; readonly oid: string; readonly tree: boolean } | undefined> {
  const segments = path.split('/');
  let tree = root;
  let base = '';
  for (let index = 0; index < segments.length && tree !== null; index += 1) {
    const segment = segments[index] as string;
    const entries = await objects.readTree(tree);
    const exact = entries.find((entry) => entry.name === segment);
    if (exact !== undefined) {
      tree = exact.kind === 'tree' ? exact.oid : null;
      base += `${segment}/`;
      continue;
    }
    const last = index === segments.length - 1;
    const names = entries.filter((entry) => !(last && deleted.has(`${base}${entry.name}`))).map((entry) => entry.name);
    const twin = findNameTwin(segment, names);
    if (twin === undefined) return undefined;
    const entry = entries.find((candidate) => candidate.name === twin);
    const isTree = entry?.kind === 'tree';
    return { shown: `${base}${twin}${isTree ? '/' : ''}`, oid: entry?.oid ?? '', tree: isTree };
  }
  return undefined;
}

/**
 * The kit's `twins` answer: for each key, the stored document that is its twin (for a twin
 * directory, the documents under it), found by reading only the trees on the key's path.
 */
export async function treeTwinCandidates(
  objects: GitObjectStore,
  root: string | null,
  keys: readonly string[],
): Promise<string[]> {
  const out = new Set<string>();
  for (const key of keys) {
    const twin = await twinInTree(objects, root, key, new Set());
    if (twin === undefined) continue;
    if (!twin.tree) out.add(twin.shown);
    else for (const document of await walkDocuments(objects, twin.oid, '')) out.add(`${twin.shown}${document.path}`);
  }
  return [...out];
}

/**
 * Throw core's `INVALID_PATH` twin error when a put of `changes` whose key is in `keys` would
 * create a twin on the branch at `root`.
 */
export async function refuseTreeTwins(
  objects: GitObjectStore,
  root: string | null,
  changes: readonly KitChange[],
  keys: ReadonlySet<string>,
): Promise<void> {
  if (keys.size === 0) return;
  const deleted = new Set(changes.filter((change) => change.value === null).map((change) => change.key));
  for (const change of changes) {
    if (change.value === null || !keys.has(change.key)) continue;
    const twin = await twinInTree(objects, root, change.key, deleted);
    if (twin !== undefined) throw pathTwinError(change.key, twin.shown);
  }
}
