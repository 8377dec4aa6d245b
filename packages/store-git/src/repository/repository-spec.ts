// Why: both git schemes name a repository the same way, `git:<repo-dir>[#<name>]` (a branch for
// the store, a revision for the citation reader), so the split and the path rules live once:
// everything after the last `#` is the name, and a relative directory resolves against the
// caller's working directory, never the process's.
import { isAbsolute, resolve } from 'node:path';
import { RepomemError } from '@repomem/core';

/** A `<repo-dir>[#<name>]` spec split and resolved. */
export interface RepositorySpec {
  /** Absolute repository directory. */
  readonly dir: string;
  /** What followed the last `#`, when there was one (never empty). */
  readonly name?: string;
}

function invalid(problem: string): RepomemError {
  return new RepomemError('INVALID_ARGUMENT', problem);
}

/**
 * Split `rest` (what follows `git:`) at its last `#`. Throws `INVALID_ARGUMENT` for an empty
 * directory, an empty name after `#` (`what` names it: `branch`, `revision`), or a NUL character.
 */
export function parseRepositorySpec(rest: string, cwd: string, what: string): RepositorySpec {
  if (typeof rest !== 'string' || rest.includes('\0')) throw invalid('the spec contains a NUL character');
  const hash = rest.lastIndexOf('#');
  const dir = hash === -1 ? rest : rest.slice(0, hash);
  if (dir.trim() === '') throw invalid('the repository directory is empty');
  const absolute = isAbsolute(dir) ? resolve(dir) : resolve(cwd, dir);
  if (hash === -1) return { dir: absolute };
  const name = rest.slice(hash + 1);
  if (name.trim() === '') throw invalid(`the ${what} after "#" is empty`);
  return { dir: absolute, name };
}

/** `git:<dir>` or `git:<dir>#<name>`. */
export function formatRepositorySpec(dir: string, name: string | undefined): string {
  return name === undefined ? `git:${dir}` : `git:${dir}#${name}`;
}
