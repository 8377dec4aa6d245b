// Why: core's rule against case and Unicode-normalisation twins (see core's path-twins.ts) on the
// git store: a put creating a new path is compared, level by level, with the names of the tip's
// trees, so the check reads only the trees on that path, never the whole branch.
import { assertNoPathTwins, findNameTwin, type PreparedOperation, pathTwinError } from '@repomem/core';
import type { GitObjectStore } from '../objects/object-store.js';

async function twinInTree(
  objects: GitObjectStore,
  root: string | null,
  path: string,
  deleted: ReadonlySet<string>,
): Promise<string | undefined> {
  const segments = path.split('/');
  let tree = root;
  let base = '';
  for (let index = 0; index < segments.length && tree !== null; index += 1) {
    const segment = segments[index]!;
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
    const twinEntry = entries.find((entry) => entry.name === twin);
    return `${base}${twin}${twinEntry?.kind === 'tree' ? '/' : ''}`;
  }
  return undefined;
}

/** Throw core's `INVALID_PATH` twin error when a put of `batch` would create a twin on the branch at `root`. */
export async function refuseTreeTwins(
  objects: GitObjectStore,
  root: string | null,
  batch: readonly PreparedOperation[],
): Promise<void> {
  const puts = batch.filter((operation) => operation.kind === 'put').map((operation) => operation.path);
  if (puts.length === 0) return;
  const deleted = new Set(batch.filter((operation) => operation.kind === 'delete').map((operation) => operation.path));
  assertNoPathTwins(puts, []);
  for (const path of puts) {
    const twin = await twinInTree(objects, root, path, deleted);
    if (twin !== undefined) throw pathTwinError(path, twin);
  }
}
