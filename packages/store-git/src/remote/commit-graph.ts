// Why: pushing, fetching and re-applying all ask the same questions of the commit graph — which
// commits does the other side lack, is one commit an ancestor of another, where did two
// histories part — answered here from the object database.
import { isRepomemError } from '@repomem/core';
import type { GitObjectStore } from '../objects/object-store.js';

/** True when commit `oid` is in the local object database. */
export async function hasCommit(objects: GitObjectStore, oid: string): Promise<boolean> {
  try {
    await objects.readCommit(oid);
    return true;
  } catch (error) {
    if (isRepomemError(error, 'NOT_FOUND')) return false;
    throw error;
  }
}

/**
 * Every commit reachable from `tips` (the tips included), stopping at commits in `stopAt` and at
 * parents missing locally (a shallow history).
 */
export async function reachableCommits(
  objects: GitObjectStore,
  tips: readonly string[],
  stopAt: ReadonlySet<string> = new Set(),
): Promise<Set<string>> {
  const seen = new Set<string>();
  const stack = tips.filter((tip) => !stopAt.has(tip));
  while (stack.length > 0) {
    const oid = stack.pop() as string;
    if (seen.has(oid)) continue;
    if (!(await hasCommit(objects, oid))) continue;
    seen.add(oid);
    for (const parent of (await objects.readCommit(oid)).parents) {
      if (!seen.has(parent) && !stopAt.has(parent)) stack.push(parent);
    }
  }
  return seen;
}

/** True when `ancestor` is `descendant` or one of its ancestors. */
export async function isAncestor(objects: GitObjectStore, ancestor: string, descendant: string): Promise<boolean> {
  if (ancestor === descendant) return true;
  return (await reachableCommits(objects, [descendant])).has(ancestor);
}

/**
 * The commits reachable from `tip` but not from any commit in `known` (whose ancestry is given as
 * `knownAncestry`), ordered parents first (the order to re-apply or send them in).
 */
export async function commitsBetween(
  objects: GitObjectStore,
  knownAncestry: ReadonlySet<string>,
  tip: string,
): Promise<string[]> {
  const ordered: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: { oid: string; expanded: boolean }[] = [{ oid: tip, expanded: false }];
  while (stack.length > 0) {
    const frame = stack.pop() as { oid: string; expanded: boolean };
    if (frame.expanded) {
      state.set(frame.oid, 'done');
      ordered.push(frame.oid);
      continue;
    }
    if (knownAncestry.has(frame.oid) || state.has(frame.oid)) continue;
    state.set(frame.oid, 'open');
    stack.push({ oid: frame.oid, expanded: true });
    const parents = (await objects.readCommit(frame.oid)).parents;
    for (let index = parents.length - 1; index >= 0; index -= 1) {
      const parent = parents[index] as string;
      if (!knownAncestry.has(parent) && !state.has(parent) && (await hasCommit(objects, parent))) {
        stack.push({ oid: parent, expanded: false });
      }
    }
  }
  return ordered;
}

/** Up to `limit` commits from `tips` backwards (breadth first): the "have" lines of a fetch. */
export async function recentCommits(
  objects: GitObjectStore,
  tips: readonly string[],
  limit: number,
): Promise<string[]> {
  const found: string[] = [];
  const seen = new Set<string>();
  const queue = [...tips];
  while (queue.length > 0 && found.length < limit) {
    const oid = queue.shift() as string;
    if (seen.has(oid)) continue;
    seen.add(oid);
    if (!(await hasCommit(objects, oid))) continue;
    found.push(oid);
    queue.push(...(await objects.readCommit(oid)).parents);
  }
  return found;
}
