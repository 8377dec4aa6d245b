// Why: a citation follows the code through one rule however the diff was obtained (the git CLI's
// `--unified=0` output, the GitHub compare API's patches): the cited lines are the same, moved,
// changed or deleted according to the zero-context hunks of their file. The readers parse their
// own wire formats into this shape and map through this one function, so they cannot disagree.
import type { LineMapping } from './reader.js';

/** One zero-context hunk: old lines `old_start..+old_count` became new ones (git's numbering). */
export interface LineDiffHunk {
  /** First old line replaced (for a pure insertion: the line after which lines were added). */
  readonly old_start: number;
  readonly old_count: number;
  /** First new line (for a pure deletion: the line after which lines were removed). */
  readonly new_start: number;
  readonly new_count: number;
}

/** What a diff says about one path of the old revision. */
export interface FileLineDiff {
  /** Path at the old revision. */
  readonly old_path: string;
  /** Path at the new revision (equal to `old_path` unless renamed); `null` when deleted. */
  readonly new_path: string | null;
  /** Zero-context hunks in order (empty for a pure rename or a mode change). */
  readonly hunks: readonly LineDiffHunk[];
  /** The content changed but the diff shows no lines (a binary file). */
  readonly binary?: boolean;
}

/**
 * Map lines `start..end` (1-indexed, inclusive, at the old revision) through `diff`:
 * - no entry → `same` (file untouched); deleted → `deleted`;
 * - a hunk replacing any cited line, or inserting between two cited lines, or a binary change →
 *   `changed` (at the new path, near where the hunk put its lines, with every range of lines the
 *   diff added to the file);
 * - otherwise the range shifts by the lines added minus removed above it: `same` when neither the
 *   path nor the lines moved (`file_changed: true`), else `moved`.
 */
export function mapLinesThroughDiff(diff: FileLineDiff | undefined, start: number, end: number): LineMapping {
  if (diff === undefined) return { kind: 'same', file_changed: false };
  if (diff.new_path === null) return { kind: 'deleted' };
  const path = diff.new_path;
  const count = end - start + 1;
  if (diff.binary === true) return { kind: 'changed', path, line_start: start, line_end: end };
  let shift = 0;
  for (const hunk of diff.hunks) {
    // A pure insertion sits after old line `old_start`; a replacement covers old_start..+old_count-1.
    const first = hunk.old_count === 0 ? hunk.old_start + 0.5 : hunk.old_start;
    const last = hunk.old_count === 0 ? hunk.old_start + 0.5 : hunk.old_start + hunk.old_count - 1;
    if (last < start) {
      shift += hunk.new_count - hunk.old_count;
      continue;
    }
    if (first > end) break;
    const near = Math.max(1, start + shift);
    const added = diff.hunks
      .filter((each) => each.new_count > 0)
      .map((each) => ({ line_start: each.new_start, line_end: each.new_start + each.new_count - 1 }));
    return { kind: 'changed', path, line_start: near, line_end: near + count - 1, added };
  }
  if (shift === 0 && path === diff.old_path) return { kind: 'same', file_changed: true };
  return { kind: 'moved', path, line_start: start + shift, line_end: end + shift };
}
