// Why: before a batch becomes a commit, every path is looked up in the tip's tree once: its
// current blob id is checked against the expected version, and anything that is not a plain
// document (a directory, a symlink, a submodule, a file in the way of a new folder) is refused,
// because repomem never reads or writes through them.
import { expectationHolds, type PreparedOperation, RepomemError, type WriteConflict } from '@repomem/core';
import type { GitObjectStore } from '../objects/object-store.js';
import type { TreeEdit } from '../objects/tree-edit.js';
import { lookupPath } from '../objects/tree-walk.js';

/** The edits to apply, or every precondition that failed. */
export type BatchInspection =
  | { readonly status: 'ok'; readonly edits: TreeEdit[] }
  | { readonly status: 'conflict'; readonly conflicts: WriteConflict[] };

/**
 * Check `batch` against the tree `root` of branch `branch` (named in messages). Throws
 * `INVALID_PATH` for a path that is not a document there.
 */
export async function inspectBatch(
  objects: GitObjectStore,
  root: string | null,
  batch: readonly PreparedOperation[],
  branch: string,
): Promise<BatchInspection> {
  const deletedFiles = new Set<string>();
  const actuals = await Promise.all(
    batch.map(async (operation) => {
      const found = await lookupPath(objects, root, operation.path);
      if (found.status === 'found') {
        const { entry } = found;
        if (entry.kind === 'file') {
          if (operation.kind === 'delete') deletedFiles.add(operation.path);
          return entry.oid;
        }
        if (entry.kind === 'tree') {
          if (operation.kind === 'put') {
            throw new RepomemError('INVALID_PATH', `${operation.path} is a directory in ${branch}, not a document`, {
              details: { path: operation.path },
            });
          }
          return null;
        }
        throw new RepomemError(
          'INVALID_PATH',
          `${operation.path} is a ${entry.kind} (mode ${entry.mode}) in ${branch}, not a document; ` +
            'repomem never reads or writes through symlinks or submodules',
          { details: { path: operation.path, mode: entry.mode } },
        );
      }
      if (found.status === 'blocked' && operation.kind === 'put') return found;
      return null;
    }),
  );
  const conflicts: WriteConflict[] = [];
  const edits: TreeEdit[] = [];
  batch.forEach((operation, index) => {
    let actual = actuals[index] ?? null;
    if (actual !== null && typeof actual === 'object') {
      const { entry, prefix } = actual;
      if (!(entry.kind === 'file' && deletedFiles.has(prefix))) {
        throw new RepomemError(
          'INVALID_PATH',
          `cannot write ${operation.path}: ${prefix} is a ${entry.kind} (mode ${entry.mode}) in ${branch}, not a directory`,
          { details: { path: operation.path, mode: entry.mode } },
        );
      }
      actual = null;
    }
    if (!expectationHolds(operation.expectedVersion, actual)) {
      conflicts.push({ path: operation.path, expected: operation.expectedVersion ?? null, actual });
    }
    edits.push(
      operation.kind === 'put'
        ? { kind: 'put', path: operation.path, oid: operation.version }
        : { kind: 'delete', path: operation.path },
    );
  });
  return conflicts.length > 0 ? { status: 'conflict', conflicts } : { status: 'ok', edits };
}
