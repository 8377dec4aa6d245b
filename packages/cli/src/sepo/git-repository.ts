// Why: Sepo's support commands act on "the git repository around the working directory"; this
// finds its root, the branch its worktree has checked out and a remote's GitHub slug by reading
// `.git` directly (no git binary, as in the rest of repomem).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CliDataError } from '../errors.js';

/** The worktree root (the directory holding `.git`) at or above `start`. */
export function findRepositoryRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new CliDataError('NOT_FOUND', `not a git repository (or any parent): ${start}`);
    dir = parent;
  }
}

/** The `.git` directory of a worktree root, or `undefined` when `.git` is a file (linked worktree). */
function gitDirectory(root: string): string | undefined {
  const dotGit = join(root, '.git');
  return statSync(dotGit).isDirectory() ? dotGit : undefined;
}

/** The short name of the branch checked out in `root`'s worktree, or `''` (detached, or unknown). */
export function checkedOutBranch(root: string): string {
  const gitDir = gitDirectory(root);
  if (gitDir === undefined) return '';
  const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
  return head.startsWith('ref: refs/heads/') ? head.slice('ref: refs/heads/'.length) : '';
}

/** `owner/repo` from a GitHub remote URL (`https://github.com/o/r.git`, `git@github.com:o/r`), or `''`. */
export function slugOfGitHubUrl(url: string): string {
  const match = url.trim().match(/github\.com[:/]([^/\s]+\/[^/\s]+?)(?:\.git)?$/i);
  return match?.[1] ?? '';
}

/** The GitHub slug of remote `remote` in `root`'s `.git/config`, or `''`. */
export function remoteSlug(root: string, remote: string): string {
  const gitDir = gitDirectory(root);
  if (gitDir === undefined) return '';
  let section = '';
  for (const line of readFileSync(join(gitDir, 'config'), 'utf8').split('\n')) {
    const header = /^\s*\[\s*remote\s+"([^"]*)"\s*\]/.exec(line);
    if (header !== null) {
      section = header[1] ?? '';
      continue;
    }
    if (/^\s*\[/.test(line)) section = '';
    const url = /^\s*url\s*=\s*(.+)$/.exec(line);
    if (section === remote && url !== null) return slugOfGitHubUrl(url[1] ?? '');
  }
  return '';
}

/** True when `root`'s repository has the full ref `ref` (loose or packed). */
export function hasRef(root: string, ref: string): boolean {
  const gitDir = gitDirectory(root);
  if (gitDir === undefined) return false;
  if (existsSync(join(gitDir, ref))) return true;
  const packed = join(gitDir, 'packed-refs');
  if (!existsSync(packed)) return false;
  return readFileSync(packed, 'utf8')
    .split('\n')
    .some((line) => line.endsWith(` ${ref}`));
}
