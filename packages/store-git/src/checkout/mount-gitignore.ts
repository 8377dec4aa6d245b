// Why: the mount's `.gitignore` is auto-maintained (seed 002): `transcripts/`, `media/` and
// `*.tmp` are kept present on every mount and commit, while any lines people add are preserved.
import { join } from 'node:path';
import type { GitFileSystem } from '../repository/file-system.js';
import { ensureIgnoreLines } from './gates.js';
import { isSymlinkStats, lstatIfExists, writeMountFile } from './mount-files.js';

/** Name of the ignore file at the mount root. */
export const GITIGNORE_FILE = '.gitignore';

/**
 * Make sure `<root>/.gitignore` holds the default lines (appending the missing ones, atomically)
 * and return its text. A `.gitignore` that is not a regular file is left alone (its rules are
 * then only the defaults).
 */
export async function ensureMountGitignore(fs: GitFileSystem, root: string): Promise<string> {
  const path = join(root, GITIGNORE_FILE);
  const stats = await lstatIfExists(fs, path);
  if (stats !== undefined && (isSymlinkStats(stats) || !stats.isFile())) return '';
  const current = stats === undefined ? '' : new TextDecoder().decode(await fs.promises.readFile(path));
  const wanted = ensureIgnoreLines(current);
  if (wanted !== current || stats === undefined) {
    await writeMountFile(fs, root, GITIGNORE_FILE, new TextEncoder().encode(wanted));
  }
  return wanted;
}
