// Why: the compare API gives each changed file's unified diff (`patch`, three lines of context),
// and following a citation means knowing exactly which old lines each change replaced. This pure
// module cuts a patch into zero-context hunks (git's `--unified=0` numbering) and maps a cited
// line range through them with core's `mapLinesThroughDiff`, the git reader's rule too, so both
// readers agree and the arithmetic is tested without a server.
import { type FileLineDiff, type LineDiffHunk, mapLinesThroughDiff } from '@repomem/core';

/** One zero-context hunk (core's shape, git's numbering). */
export type PatchHunk = LineDiffHunk;

/** What a comparison says about one path of the base revision (core's shape). */
export type FileChange = FileLineDiff;

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

/** Map lines `start..end` at the base revision through `change` (core's {@link mapLinesThroughDiff}). */
export const mapThroughChange = mapLinesThroughDiff;
