// Why: a commit from a mount starts from what is on disk. This walk applies the commit gates as
// it goes (ignored directories are not even entered, symlinks are never followed, secrets and
// oversized files are reported by name) and returns the blob id of every committable file.
import { join } from 'node:path';
import { findSecret, normalizeDocumentPath } from '@repomem/core';
import { blobVersion } from '../objects/object-id.js';
import type { GitFileSystem } from '../repository/file-system.js';
import { type IgnoreRules, secretPattern } from './gates.js';
import { isSymlinkStats, lstatIfExists, statsSize, TEMP_SUFFIX } from './mount-files.js';
import { MOUNT_MARKER_FILE } from './mount-marker.js';
import type { SkippedPath } from './types.js';

/** Directories never walked (VCS data and dependencies), as in core's directory store. */
const SKIPPED_DIRECTORIES = new Set(['.git', '.hg', '.svn', 'node_modules']);

/**
 * True for files that belong to repomem's own machinery in a mount (the marker, temp files, the
 * directory store's `<file>.lock` locks): never committed, never deleted, never reported.
 */
export function isInternalPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return path === MOUNT_MARKER_FILE || name.endsWith(TEMP_SUFFIX) || name.endsWith('.lock');
}

/** True when core refuses `path` as a document path (e.g. a name git reserves, such as `.GIT` or `git~1`). */
function isRefusedPath(path: string): boolean {
  try {
    normalizeDocumentPath(path);
    return false;
  } catch {
    return true;
  }
}

/** True when some directory of `path` is one the walk never enters. */
export function isInSkippedDirectory(path: string): boolean {
  return path
    .split('/')
    .slice(0, -1)
    .some((segment) => SKIPPED_DIRECTORIES.has(segment));
}

/** What the walk found. */
export interface MountScan {
  /** Committable files: path -> blob id. */
  readonly files: Map<string, string>;
  /** Paths the gates left out. */
  readonly skipped: SkippedPath[];
  /** Paths of skipped files and directory prefixes (`dir/`) whose branch versions must be kept as they are. */
  readonly held: Set<string>;
}

/** Walk the mount at `root` applying the gates. */
export async function scanMount(
  fs: GitFileSystem,
  root: string,
  rules: IgnoreRules,
  maxFileBytes: number,
): Promise<MountScan> {
  const files = new Map<string, string>();
  const skipped: SkippedPath[] = [];
  const held = new Set<string>();
  const skip = (path: string, reason: SkippedPath['reason'], message: string): void => {
    skipped.push({ path, reason, message });
    held.add(path);
  };
  const walk = async (relativeDir: string): Promise<void> => {
    const names = await fs.promises.readdir(relativeDir === '' ? root : join(root, relativeDir));
    names.sort();
    for (const name of names) {
      const path = relativeDir === '' ? name : `${relativeDir}/${name}`;
      if (isInternalPath(path)) continue;
      const stats = await lstatIfExists(fs, join(root, path));
      if (stats === undefined) continue; // removed while walking
      if (isSymlinkStats(stats)) {
        skip(path, 'symlink', `skipped ${path}: symbolic links are never committed`);
        continue;
      }
      if (stats.isDirectory()) {
        if (SKIPPED_DIRECTORIES.has(name)) continue;
        if (name.includes('\\')) {
          skip(`${path}/`, 'invalid_path', `skipped ${path}/: a name with "\\" cannot be a document path`);
          continue;
        }
        if (isRefusedPath(path)) {
          skip(`${path}/`, 'invalid_path', `skipped ${path}/: git refuses this name in a tree`);
          continue;
        }
        if (rules.matchEntry(path, true) !== undefined) {
          skip(`${path}/`, 'ignored', `skipped ${path}/: ignored by .gitignore`);
          continue;
        }
        await walk(path);
        continue;
      }
      if (!stats.isFile()) {
        skip(path, 'special', `skipped ${path}: not a regular file (FIFO, socket or device)`);
        continue;
      }
      if (name.includes('\\')) {
        skip(path, 'invalid_path', `skipped ${path}: a name with "\\" cannot be a document path`);
        continue;
      }
      if (isRefusedPath(path)) {
        skip(path, 'invalid_path', `skipped ${path}: git refuses this name in a tree`);
        continue;
      }
      if (rules.matchEntry(path, false) !== undefined) {
        skip(path, 'ignored', `skipped ${path}: ignored by .gitignore`);
        continue;
      }
      const secret = secretPattern(path);
      if (secret !== undefined) {
        skip(path, 'secret', `skipped ${path}: looks like a secret (matches ${secret}); secrets are never committed`);
        continue;
      }
      let size = statsSize(stats);
      let content: Uint8Array | undefined;
      if (size === undefined) {
        content = await fs.promises.readFile(join(root, path));
        size = content.byteLength;
      }
      if (size > maxFileBytes) {
        skip(path, 'too_large', `skipped ${path}: ${size} bytes is over the ${maxFileBytes}-byte commit limit`);
        continue;
      }
      content ??= await fs.promises.readFile(join(root, path));
      if (content.byteLength > maxFileBytes) {
        skip(
          path,
          'too_large',
          `skipped ${path}: ${content.byteLength} bytes is over the ${maxFileBytes}-byte commit limit`,
        );
        continue;
      }
      const found = findSecret(content);
      if (found !== null) {
        skip(
          path,
          'secret',
          `skipped ${path}: line ${found.line} holds what looks like a ${found.description} (rule ${found.ruleId}); secrets are never committed`,
        );
        continue;
      }
      files.set(path, blobVersion(content));
    }
  };
  await walk('');
  return { files, skipped, held };
}

/** True when `path` is a held path or lies under a held directory (`dir/`). */
export function isHeld(held: ReadonlySet<string>, path: string): boolean {
  if (held.has(path)) return true;
  let slash = path.indexOf('/');
  while (slash >= 0) {
    if (held.has(path.slice(0, slash + 1))) return true;
    slash = path.indexOf('/', slash + 1);
  }
  return false;
}
