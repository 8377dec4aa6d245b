// Why: the git citation reader answers "where did these cited lines go between two commits" with
// git's own rename detection rather than a re-implementation of it: one `git diff -M
// --unified=0` per pair of commits, parsed once and cached (commit ids are immutable), so
// verifying or checking the impact on thousands of citations costs one process per pair.
import type { LineMapping } from '@repomem/core';
import { LRUCache } from 'lru-cache';
import { mapRangeWithCopies, type ParsedDiff, parseDiffWithCopies } from './diff-line-map.js';
import { runGit } from './run-git.js';

/** Commit ids and abbreviations git may be given (never an option or a range). */
const COMMITISH = /^[0-9a-f]{4,64}$/;

/** Outcome of one diff between two commits. */
type DiffResult = { readonly ok: true; readonly index: ParsedDiff } | { readonly ok: false; readonly reason: string };

/** Maps cited lines between commits of the repository at `dir` with the git CLI. */
export interface GitLineMapper {
  /** Map `start..end` of `path` at commit `from` to commit `to` (both commit ids, maybe abbreviated). */
  map(from: string, to: string, path: string, start: number, end: number): Promise<LineMapping>;
}

/**
 * A {@link GitLineMapper} over the git CLI in `dir`. Each (from, to) pair runs
 * `git diff -M --find-renames -C --unified=0` once (copies of modified files detected too, so a
 * block split off into a new file is followed there; rename limit raised so large diffs still detect
 * renames); results are cached for `cacheSize` pairs. A revision git does not know (garbage
 * collected after a force-push, a shallow clone), a missing `git` or an oversized diff map as
 * `unknown`, so verification falls back to the snippet search.
 */
export function createGitLineMapper(dir: string, cacheSize = 16): GitLineMapper {
  const diffs = new LRUCache<string, Promise<DiffResult>>({ max: cacheSize });
  const diff = (from: string, to: string): Promise<DiffResult> => {
    const key = `${from}\0${to}`;
    let result = diffs.get(key);
    if (result === undefined) {
      result = runGit(dir, [
        '-c',
        'core.quotePath=false',
        '-c',
        'diff.renameLimit=100000',
        'diff',
        '--no-color',
        '--no-ext-diff',
        '--no-textconv',
        '-M',
        '--find-renames',
        // Copies of modified files too: a block split off into a new file is followed there.
        '-C',
        '--unified=0',
        '--src-prefix=a/',
        '--dst-prefix=b/',
        `${from}^{commit}`,
        `${to}^{commit}`,
        '--',
      ]).then(
        (output): DiffResult => ({ ok: true, index: parseDiffWithCopies(output) }),
        (error: unknown): DiffResult => ({ ok: false, reason: error instanceof Error ? error.message : String(error) }),
      );
      diffs.set(key, result);
    }
    return result;
  };
  return {
    async map(from, to, path, start, end) {
      if (!COMMITISH.test(from) || !COMMITISH.test(to)) {
        return { kind: 'unknown', reason: `not commit ids: ${JSON.stringify(from)}, ${JSON.stringify(to)}` };
      }
      if (from === to) return { kind: 'same', file_changed: false };
      const result = await diff(from, to);
      if (!result.ok) return { kind: 'unknown', reason: result.reason };
      return mapRangeWithCopies(result.index, path, start, end);
    },
  };
}
