// Why: materialising a tree on disk is where a crafted tree could do harm (an entry named `..`,
// `.git` or `a/b`, a symlink pointing outside). This walk lists only regular files whose every
// name is a safe document name; everything else is reported as skipped and never written.
import { normalizeDocumentPath } from '@repomem/core';
import type { GitObjectStore } from '../objects/object-store.js';
import { isDocumentName } from '../objects/tree-object.js';
import { TEMP_SUFFIX } from './mount-files.js';
import { MOUNT_MARKER_FILE } from './mount-marker.js';
import type { SkippedPath } from './types.js';

/** A regular file of the branch. */
export interface BranchFile {
  readonly oid: string;
  readonly executable: boolean;
}

/** The files of a tree that may be materialised, and the entries that may not. */
export interface BranchFiles {
  readonly files: Map<string, BranchFile>;
  readonly skipped: SkippedPath[];
}

/**
 * A name a mount never writes even when core accepts it as a document path: `*.lock` (lock files
 * of git and of repomem's directory store: one from the branch would wedge every later edit) and
 * any spelling of `.git` a case-insensitive or Windows file system reads as `.git` (`.GIT`,
 * `.git.`, `git~1`), so no hook or config can be planted through a mount.
 */
function isReservedMountName(name: string): boolean {
  return name.toLowerCase().endsWith('.lock') || /^\.git[. ]*$/i.test(name) || /^git~\d+$/i.test(name);
}

/** True when `path` (as read from a tree) is a normalised document path a mount may hold. */
export function isSafeMountPath(path: string): boolean {
  try {
    if (normalizeDocumentPath(path) !== path) return false;
  } catch {
    return false;
  }
  if (path.split('/').some(isReservedMountName)) return false;
  return path !== MOUNT_MARKER_FILE && !path.endsWith(TEMP_SUFFIX);
}

function unsafe(path: string): SkippedPath {
  return {
    path,
    reason: 'invalid_path',
    message: `skipped ${JSON.stringify(path)}: not a safe document path (.., ., any spelling of .git, a *.lock name, node_modules, "/" or "\\" in a name, or a name reserved by repomem)`,
  };
}

/** Every materialisable file of tree `root` (`null` = empty), with the entries left out. */
export async function readBranchFiles(objects: GitObjectStore, root: string | null): Promise<BranchFiles> {
  const files = new Map<string, BranchFile>();
  const skipped: SkippedPath[] = [];
  const visit = async (tree: string, base: string): Promise<void> => {
    for (const entry of await objects.readTree(tree)) {
      const path = `${base}${entry.name}`;
      if (!isDocumentName(entry.name) || entry.name.includes('/')) {
        skipped.push(unsafe(path));
        continue;
      }
      if (entry.kind === 'tree') {
        if (isReservedMountName(entry.name)) skipped.push(unsafe(`${path}/`));
        else await visit(entry.oid, `${path}/`);
      } else if (entry.kind === 'file') {
        if (isSafeMountPath(path)) files.set(path, { oid: entry.oid, executable: entry.mode === '100755' });
        else skipped.push(unsafe(path));
      } else if (entry.kind === 'symlink') {
        skipped.push({ path, reason: 'symlink', message: `skipped ${path}: symbolic links are never materialised` });
      } else if (entry.kind === 'submodule') {
        skipped.push({ path, reason: 'submodule', message: `skipped ${path}: submodule entries are not materialised` });
      } else {
        skipped.push({ path, reason: 'special', message: `skipped ${path}: unknown tree entry mode ${entry.mode}` });
      }
    }
  };
  if (root !== null) await visit(root, '');
  return { files, skipped };
}
