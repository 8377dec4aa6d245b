// Why: where a directory store lives on disk is decided once, at open: the memory directory (which
// must exist unless asked to create it) and the state directory beside it. State must stay out of
// the memory tree, because a Sepo workflow commits whatever appears there.
import { mkdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { RepomemError } from '@repomem/core';
import { errnoCode } from './directory-files.js';

/** Directory, beside the memory directory, that holds the state of every memory directory there. */
export const STATE_DIRECTORY_NAME = '.repomem-state';

function notADirectory(path: string, what: string, cause?: unknown): RepomemError {
  return new RepomemError('NOT_A_DIRECTORY', `${what} is not a directory: ${path}`, {
    details: { path },
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * Resolve the memory directory to its absolute real path. Throws `NOT_FOUND` when it is missing
 * (unless `create`, which makes it like `mkdir -p`) and `NOT_A_DIRECTORY` when it or a parent is
 * a file.
 */
export async function resolveMemoryRoot(root: string, create: boolean): Promise<string> {
  if (typeof root !== 'string' || root.length === 0) {
    throw new RepomemError('INVALID_ARGUMENT', 'openDirectoryStore: root must be a non-empty path');
  }
  const absolute = resolve(root);
  try {
    const stats = await stat(absolute);
    if (!stats.isDirectory()) throw notADirectory(absolute, 'memory directory');
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOTDIR') throw notADirectory(absolute, 'memory directory', error);
    if (code !== 'ENOENT') throw error;
    if (!create) {
      throw new RepomemError('NOT_FOUND', `memory directory does not exist: ${absolute}`, {
        details: { path: absolute },
        cause: error,
      });
    }
    try {
      await mkdir(absolute, { recursive: true });
    } catch (mkdirError) {
      const mkdirCode = errnoCode(mkdirError);
      if (mkdirCode === 'ENOTDIR' || mkdirCode === 'EEXIST') {
        throw new RepomemError('NOT_A_DIRECTORY', `cannot create memory directory ${absolute}: a parent is a file`, {
          details: { path: absolute },
          cause: mkdirError,
        });
      }
      throw mkdirError;
    }
  }
  return realpath(absolute);
}

/** The real path `path` will have: its longest existing ancestor resolved, the rest appended. */
async function prospectiveRealPath(path: string): Promise<string> {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      const real = await realpath(current);
      if (missing.length === 0 && !(await stat(real)).isDirectory()) throw notADirectory(path, 'state directory');
      return join(real, ...missing.reverse());
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOTDIR') throw notADirectory(path, 'state directory', error);
      if (code !== 'ENOENT') throw error;
    }
    const parent = dirname(current);
    if (parent === current) return path;
    missing.push(basename(current));
    current = parent;
  }
}

function isWithin(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(ancestor.endsWith(sep) ? ancestor : `${ancestor}${sep}`);
}

/**
 * The absolute state directory of the memory directory `root` (a real path): `stateDir` when
 * given (relative paths resolve against the working directory), else
 * `<dirname(root)>/.repomem-state/<basename(root)>`. Nothing is created. Throws
 * `INVALID_ARGUMENT` when the state directory would be inside the memory directory (or contain
 * it), or when `root` is the filesystem root and no `stateDir` is given; `NOT_A_DIRECTORY` when it
 * exists as a file.
 */
export async function resolveStateDirectory(root: string, stateDir: string | undefined): Promise<string> {
  let requested: string;
  if (stateDir !== undefined) {
    requested = resolve(stateDir);
  } else {
    const parent = dirname(root);
    if (parent === root || basename(root) === '') {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `the memory directory ${root} has no parent to keep state values beside it: pass stateDir`,
        { details: { root } },
      );
    }
    requested = join(parent, STATE_DIRECTORY_NAME, basename(root));
  }
  const real = await prospectiveRealPath(requested);
  if (isWithin(real, root) || isWithin(root, real)) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `state directory ${requested} overlaps the memory directory ${root}: state files would be listed, searched and committed with the memory; choose a directory outside it`,
      { details: { root, stateDir: requested } },
    );
  }
  return real;
}
