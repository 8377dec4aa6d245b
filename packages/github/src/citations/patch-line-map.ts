// Why: the compare API gives each changed file's unified diff (`patch`, three lines of context),
// and following a citation means knowing exactly which old lines each change replaced. This pure
// module cuts a patch into zero-context hunks (git's `--unified=0` numbering) and maps a cited
// line range through them, with the rules of the git reader's mapper, so both readers agree and
// the arithmetic is tested without a server.
import type { LineMapping } from '@repomem/core';

/** One zero-context hunk: old lines `old_start..+old_count` became new ones (git's numbering). */
export interface PatchHunk {
  /** First old line replaced (for a pure insertion: the line after which lines were added). */
  readonly old_start: number;
  readonly old_count: number;
  /** First new line (for a pure deletion: the line after which lines were removed). */
  readonly new_start: number;
  readonly new_count: number;
}

/** What a comparison says about one path of the base revision. */
export interface FileChange {
  /** Path at the base revision. */
  readonly old_path: string;
  /** Path at the head revision (differs when renamed); `null` when deleted. */
  readonly new_path: string | null;
  /** Zero-context hunks in order (empty for a pure rename). */
  readonly hunks: readonly PatchHunk[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * Cut a unified-diff `patch` (as the compare API returns it: hunks with context, no file
 * headers) into zero-context hunks. Returns `undefined` when the text is not such a patch or its
 * line counts disagree with its headers (never guess a mapping from a malformed diff).
 */
export function patchHunks(patch: string): PatchHunk[] | undefined {
  const hunks: PatchHunk[] = [];
  const lines = patch.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let at = 0;
  while (at < lines.length) {
    const header = HUNK_HEADER.exec(lines[at] as string);
    if (header === null) return undefined;
    at += 1;
    const oldCount = header[2] === undefined ? 1 : Number(header[2]);
    const newCount = header[4] === undefined ? 1 : Number(header[4]);
    // The next old / new line numbers; a count of 0 names the line before (git's convention).
    let oldLine = oldCount === 0 ? Number(header[1]) + 1 : Number(header[1]);
    let newLine = newCount === 0 ? Number(header[3]) + 1 : Number(header[3]);
    let oldLeft = oldCount;
    let newLeft = newCount;
    let run: { oldFrom: number; newFrom: number; removed: number; added: number } | undefined;
    const closeRun = () => {
      if (run === undefined) return;
      hunks.push({
        old_start: run.removed > 0 ? run.oldFrom : run.oldFrom - 1,
        old_count: run.removed,
        new_start: run.added > 0 ? run.newFrom : run.newFrom - 1,
        new_count: run.added,
      });
      run = undefined;
    };
    while (at < lines.length && (oldLeft > 0 || newLeft > 0 || (lines[at] as string).startsWith('\\'))) {
      const line = lines[at] as string;
      at += 1;
      const marker = line[0];
      if (marker === '\\') continue;
      if (marker === '-' || marker === '+') {
        run ??= { oldFrom: oldLine, newFrom: newLine, removed: 0, added: 0 };
        if (marker === '-') {
          if (oldLeft === 0) return undefined;
          run.removed += 1;
          oldLine += 1;
          oldLeft -= 1;
        } else {
          if (newLeft === 0) return undefined;
          run.added += 1;
          newLine += 1;
          newLeft -= 1;
        }
        continue;
      }
      // Context: a space, or an empty line where a tool stripped the space of a blank line.
      if (marker !== ' ' && marker !== undefined) return undefined;
      if (oldLeft === 0 || newLeft === 0) return undefined;
      closeRun();
      oldLine += 1;
      newLine += 1;
      oldLeft -= 1;
      newLeft -= 1;
    }
    if (oldLeft !== 0 || newLeft !== 0) return undefined;
    closeRun();
  }
  return hunks;
}

/**
 * Map lines `start..end` (1-indexed, inclusive, at the base revision) through `change`:
 * - no change → `same` (file untouched); deleted → `deleted`;
 * - a hunk replacing any cited line, or inserting between two cited lines → `changed` (at the new
 *   path, near where the hunk put its lines, with every range of lines the diff added to the file);
 * - otherwise the range shifts by the lines added minus removed above it: `same` when neither the
 *   path nor the lines moved (`file_changed: true`), else `moved`.
 */
export function mapThroughChange(change: FileChange | undefined, start: number, end: number): LineMapping {
  if (change === undefined) return { kind: 'same', file_changed: false };
  if (change.new_path === null) return { kind: 'deleted' };
  const path = change.new_path;
  const count = end - start + 1;
  let shift = 0;
  for (const hunk of change.hunks) {
    // A pure insertion sits after old line `old_start`; a replacement covers old_start..+old_count-1.
    const first = hunk.old_count === 0 ? hunk.old_start + 0.5 : hunk.old_start;
    const last = hunk.old_count === 0 ? hunk.old_start + 0.5 : hunk.old_start + hunk.old_count - 1;
    if (last < start) {
      shift += hunk.new_count - hunk.old_count;
      continue;
    }
    if (first > end) break;
    const near = Math.max(1, start + shift);
    const added = change.hunks
      .filter((each) => each.new_count > 0)
      .map((each) => ({ line_start: each.new_start, line_end: each.new_start + each.new_count - 1 }));
    return { kind: 'changed', path, line_start: near, line_end: near + count - 1, added };
  }
  if (shift === 0 && path === change.old_path) return { kind: 'same', file_changed: true };
  return { kind: 'moved', path, line_start: start + shift, line_end: end + shift };
}
