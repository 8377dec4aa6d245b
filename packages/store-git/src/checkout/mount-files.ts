// Why: every write into a mount goes through here: files are written to a temp file and renamed
// (a reader or a crash never sees half a file), parent directories are created but never
// followed through a symbolic link (a link planted in the mount cannot redirect a write outside
// it), and a file's current state is read back as its git blob id for three-way decisions.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { RepomemError } from '@repomem/core';
import { blobVersion } from '../objects/object-id.js';
import { errnoCode, type GitFileStats, type GitFileSystem } from '../repository/file-system.js';

/** Suffix of temp files (the same one core's directory store uses, so both skip them). */
export const TEMP_SUFFIX = '.repomem-tmp';

/** True for a symbolic link (stats from `lstat`; a file system without links never has one). */
export function isSymlinkStats(stats: GitFileStats): boolean {
  const candidate = stats as GitFileStats & { isSymbolicLink?: () => boolean };
  return typeof candidate.isSymbolicLink === 'function' && candidate.isSymbolicLink();
}

/** Size in bytes when the stats carry it. */
export function statsSize(stats: GitFileStats): number | undefined {
  const { size } = stats as GitFileStats & { size?: unknown };
  return typeof size === 'number' ? size : typeof size === 'bigint' ? Number(size) : undefined;
}

/** `lstat`, or `undefined` when the path (or a parent) does not exist. */
export async function lstatIfExists(fs: GitFileSystem, path: string): Promise<GitFileStats | undefined> {
  try {
    return await fs.promises.lstat(path);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** What is at a path of the mount. */
export type DiskState =
  | { readonly kind: 'absent' }
  | { readonly kind: 'file'; readonly oid: string }
  /** A directory, symlink or special file, or a parent that is not a real directory. */
  | { readonly kind: 'other' };

/** The state of `path` (relative, normalised) under `root`, never following a symbolic link. */
export async function readDiskState(fs: GitFileSystem, root: string, path: string): Promise<DiskState> {
  const segments = path.split('/');
  let current = root;
  for (let index = 0; index < segments.length; index += 1) {
    current = join(current, segments[index] as string);
    const stats = await lstatIfExists(fs, current);
    if (stats === undefined) return { kind: 'absent' };
    if (isSymlinkStats(stats)) return { kind: 'other' };
    if (index < segments.length - 1) {
      if (!stats.isDirectory()) return { kind: 'other' };
      continue;
    }
    if (!stats.isFile()) return { kind: 'other' };
  }
  return { kind: 'file', oid: blobVersion(await fs.promises.readFile(current)) };
}

async function ensureRealParents(fs: GitFileSystem, root: string, path: string): Promise<void> {
  const segments = path.split('/').slice(0, -1);
  let current = root;
  for (const segment of segments) {
    current = join(current, segment);
    const stats = await lstatIfExists(fs, current);
    if (stats === undefined) {
      await fs.promises.mkdir(current);
      continue;
    }
    if (isSymlinkStats(stats) || !stats.isDirectory()) {
      throw new RepomemError(
        'INVALID_PATH',
        `cannot write ${path} in the mount: ${current} is not a real directory (symlink or file)`,
        { details: { path } },
      );
    }
  }
}

/** Write `content` at `path` under `root` atomically (temp file, then rename), creating parents. */
export async function writeMountFile(
  fs: GitFileSystem,
  root: string,
  path: string,
  content: Uint8Array,
  executable = false,
): Promise<void> {
  await ensureRealParents(fs, root, path);
  const slash = path.lastIndexOf('/');
  const directory = slash < 0 ? root : join(root, path.slice(0, slash));
  const base = path.slice(slash + 1);
  const target = join(root, path);
  const temp = join(directory, `.${base}.${process.pid}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
  try {
    await fs.promises.writeFile(temp, content, { mode: executable ? 0o755 : 0o644 });
    await fs.promises.rename(temp, target);
  } catch (error) {
    await fs.promises.unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** Remove the file at `path` under `root` (gone already is fine) and then its emptied parent directories. */
export async function removeMountFile(fs: GitFileSystem, root: string, path: string): Promise<void> {
  try {
    await fs.promises.unlink(join(root, path));
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
  const segments = path.split('/').slice(0, -1);
  for (let length = segments.length; length > 0; length -= 1) {
    try {
      await fs.promises.rmdir(join(root, ...segments.slice(0, length)));
    } catch {
      return; // not empty (or already gone): stop climbing
    }
  }
}
