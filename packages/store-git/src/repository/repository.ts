// Why: the store is given "a repository" the way a user names one (a worktree with `.git`, a
// linked worktree or submodule whose `.git` is a file, or a bare repository) and must find the
// directories git itself uses for objects and refs, failing clearly for anything else.
import { isAbsolute, join, resolve } from 'node:path';
import { RepomemError } from '@repomem/core';
import { errnoCode, type GitFileSystem, readFileIfExists, statIfExists } from './file-system.js';

/** Where a repository keeps its data. */
export interface GitRepositoryLayout {
  /** The directory the caller named (absolute). */
  readonly dir: string;
  /** The git directory (`<dir>/.git`, the target of a `.git` file, or `dir` itself when bare). */
  readonly gitdir: string;
  /** Where shared data lives: objects, `refs/heads`, `packed-refs` (differs from `gitdir` in linked worktrees). */
  readonly commondir: string;
  /** True for a bare repository (no worktree). */
  readonly bare: boolean;
}

const decoder = new TextDecoder();

async function isGitDirectory(fs: GitFileSystem, path: string): Promise<boolean> {
  const [head, objects, refs] = await Promise.all([
    statIfExists(fs, join(path, 'HEAD')),
    statIfExists(fs, join(path, 'objects')),
    statIfExists(fs, join(path, 'refs')),
  ]);
  // A linked worktree's gitdir has HEAD and a commondir file but no objects of its own.
  if (head?.isFile() && (await readFileIfExists(fs, join(path, 'commondir'))) !== undefined) return true;
  return head?.isFile() === true && objects?.isDirectory() === true && refs?.isDirectory() === true;
}

async function resolveCommondir(fs: GitFileSystem, gitdir: string): Promise<string> {
  const content = await readFileIfExists(fs, join(gitdir, 'commondir'));
  if (content === undefined) return gitdir;
  const target = decoder.decode(content).trim();
  return isAbsolute(target) ? target : resolve(gitdir, target);
}

function notARepository(dir: string, reason: string): RepomemError {
  return new RepomemError(
    'NOT_FOUND',
    `not a git repository: ${dir} (${reason}); run \`git init\` there or pass the repository's directory`,
    { details: { dir } },
  );
}

/**
 * Locate the git directory of `dir`. Throws `INVALID_ARGUMENT` for an empty path,
 * `NOT_FOUND` when `dir` does not exist or is not a repository, `NOT_A_DIRECTORY` when it is a file.
 */
export async function locateRepository(fs: GitFileSystem, dir: string): Promise<GitRepositoryLayout> {
  if (typeof dir !== 'string' || dir.length === 0) {
    throw new RepomemError('INVALID_ARGUMENT', 'openGitStore: dir must be a non-empty path to a git repository');
  }
  const absolute = resolve(dir);
  let stats: Awaited<ReturnType<typeof statIfExists>>;
  try {
    stats = await statIfExists(fs, absolute);
  } catch (error) {
    throw new RepomemError('NOT_FOUND', `cannot read repository directory ${absolute}: ${errnoCode(error) ?? error}`, {
      cause: error,
      details: { dir: absolute },
    });
  }
  if (stats === undefined) throw notARepository(absolute, 'the directory does not exist');
  if (!stats.isDirectory()) {
    throw new RepomemError('NOT_A_DIRECTORY', `repository path is not a directory: ${absolute}`, {
      details: { dir: absolute },
    });
  }
  const dotGit = join(absolute, '.git');
  const dotGitStats = await statIfExists(fs, dotGit);
  let gitdir: string | undefined;
  if (dotGitStats?.isDirectory()) {
    gitdir = dotGit;
  } else if (dotGitStats?.isFile()) {
    const text = decoder.decode((await readFileIfExists(fs, dotGit)) ?? new Uint8Array()).trim();
    const match = /^gitdir:\s*(.+)$/.exec(text);
    if (match?.[1] === undefined) throw notARepository(absolute, '.git is a file without a "gitdir:" line');
    gitdir = isAbsolute(match[1]) ? match[1] : resolve(absolute, match[1]);
  }
  if (gitdir !== undefined) {
    if (!(await isGitDirectory(fs, gitdir))) throw notARepository(absolute, `${gitdir} is not a git directory`);
    return { dir: absolute, gitdir, commondir: await resolveCommondir(fs, gitdir), bare: false };
  }
  if (await isGitDirectory(fs, absolute)) {
    return { dir: absolute, gitdir: absolute, commondir: await resolveCommondir(fs, absolute), bare: true };
  }
  throw notARepository(absolute, 'no .git here and it is not a bare repository');
}
