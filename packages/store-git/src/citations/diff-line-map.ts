// Why: following a citation through history means reading what git's diff says happened to one
// file (renamed, deleted, which lines each hunk replaced). This module is the pure part: parse the
// output of `git diff -M --unified=0` into one entry per old path, and map a cited line range
// through an entry's hunks, so the parser and the arithmetic are tested without a repository.
import { type FileLineDiff, type LineDiffHunk, type LineMapping, mapLinesThroughDiff } from '@repomem/core';

/** One hunk of a zero-context diff (core's shape). */
export type DiffHunk = LineDiffHunk;

/** What the diff says about one path of the old revision (core's shape; `binary` always set). */
export type FileDiff = FileLineDiff & { readonly binary: boolean };

/** The old path → what happened to it; paths absent did not change. */
export type DiffIndex = ReadonlyMap<string, FileDiff>;

/** The old path → the files git found to be copies of it (`-C`: a file split off it, a copy). */
export type CopyIndex = ReadonlyMap<string, readonly FileDiff[]>;

/** A parsed diff: each old path's own change, and the copies made from it. */
export interface ParsedDiff {
  readonly files: DiffIndex;
  readonly copies: CopyIndex;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** A path as git prints it: C-style quoted (`"a\tb"`, octal bytes) when it has special characters. */
export function unquoteGitPath(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"') || text.length < 2) return text;
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  const body = text.slice(1, -1);
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index] as string;
    if (char !== '\\') {
      bytes.push(...encoder.encode(char));
      continue;
    }
    const next = body[index + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(Number.parseInt(body.slice(index + 1, index + 4), 8));
      index += 3;
    } else {
      bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
      index += 1;
    }
  }
  return new TextDecoder('utf-8').decode(new Uint8Array(bytes));
}

/** `a/<path>` / `b/<path>` (possibly quoted) → path; `/dev/null` → `null`. */
function prefixedPath(text: string, prefix: 'a/' | 'b/'): string | null {
  if (text === '/dev/null') return null;
  const path = unquoteGitPath(text);
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** The path of `diff --git a/P b/P` when both sides are equal (no rename). */
function headerPath(rest: string): string | undefined {
  if (rest.startsWith('"')) {
    const end = rest.indexOf('" ');
    return end < 0 ? undefined : (prefixedPath(rest.slice(0, end + 1), 'a/') ?? undefined);
  }
  const half = (rest.length - 1) / 2;
  if (!Number.isInteger(half)) return undefined;
  const left = rest.slice(0, half);
  return left.startsWith('a/') && rest.slice(half + 1) === `b/${left.slice(2)}` ? left.slice(2) : undefined;
}

interface Building {
  old_path: string | undefined;
  new_path: string | null | undefined;
  deleted: boolean;
  added: boolean;
  copy: boolean;
  binary: boolean;
  hunks: DiffHunk[];
}

/**
 * Parse `git diff -M --unified=0 --src-prefix=a/ --dst-prefix=b/` output (paths unquoted; hunk
 * bodies skipped by their counts, so a removed line reading `--- x` is never a header). Added
 * files are left out: no citation at the old revision can name them. Copies (`-C`) are left out
 * too (see {@link parseDiffWithCopies}).
 */
export function parseDiff(text: string): DiffIndex {
  return parseDiffWithCopies(text).files;
}

/**
 * Parse `git diff -C -M --unified=0 ...` output: each old path's own change (as
 * {@link parseDiff}), and apart from it the copies git found of each old path (`copy from` /
 * `copy to`), so a file split off another does not hide what happened to the original.
 */
export function parseDiffWithCopies(text: string): ParsedDiff {
  const index = new Map<string, FileDiff>();
  const copies = new Map<string, FileDiff[]>();
  const lines = text.split('\n');
  let current: Building | undefined;
  const finish = () => {
    if (current === undefined || current.added || current.old_path === undefined) return;
    const newPath = current.deleted ? null : current.new_path === undefined ? current.old_path : current.new_path;
    const entry = { old_path: current.old_path, new_path: newPath, hunks: current.hunks, binary: current.binary };
    if (!current.copy) {
      index.set(current.old_path, entry);
      return;
    }
    const made = copies.get(current.old_path) ?? [];
    made.push(entry);
    copies.set(current.old_path, made);
  };
  for (let at = 0; at < lines.length; at += 1) {
    const line = lines[at] as string;
    if (line.startsWith('diff --git ')) {
      finish();
      const path = headerPath(line.slice('diff --git '.length));
      current = {
        old_path: path,
        new_path: path,
        deleted: false,
        added: false,
        copy: false,
        binary: false,
        hunks: [],
      };
      continue;
    }
    if (current === undefined) continue;
    const hunk = HUNK.exec(line);
    if (hunk !== null) {
      const parsed: DiffHunk = {
        old_start: Number(hunk[1]),
        old_count: hunk[2] === undefined ? 1 : Number(hunk[2]),
        new_start: Number(hunk[3]),
        new_count: hunk[4] === undefined ? 1 : Number(hunk[4]),
      };
      current.hunks.push(parsed);
      // Skip the body: old_count `-` lines and new_count `+` lines, plus "\ No newline" markers.
      let remaining = parsed.old_count + parsed.new_count;
      while (remaining > 0 && at + 1 < lines.length) {
        at += 1;
        if (!(lines[at] as string).startsWith('\\')) remaining -= 1;
      }
      while (at + 1 < lines.length && (lines[at + 1] as string).startsWith('\\')) at += 1;
      continue;
    }
    if (line.startsWith('copy from ')) {
      current.copy = true;
      current.old_path = unquoteGitPath(line.slice('copy from '.length));
    } else if (line.startsWith('copy to ')) current.new_path = unquoteGitPath(line.slice('copy to '.length));
    else if (line.startsWith('rename from ')) current.old_path = unquoteGitPath(line.slice('rename from '.length));
    else if (line.startsWith('rename to ')) current.new_path = unquoteGitPath(line.slice('rename to '.length));
    else if (line.startsWith('deleted file mode')) current.deleted = true;
    else if (line.startsWith('new file mode')) current.added = true;
    else if (line.startsWith('Binary files ')) current.binary = true;
    else if (line.startsWith('--- ')) {
      const path = prefixedPath(line.slice(4), 'a/');
      if (path === null) current.added = true;
      else current.old_path = path;
    } else if (line.startsWith('+++ ')) {
      const path = prefixedPath(line.slice(4), 'b/');
      if (path === null) current.deleted = true;
      else current.new_path = path;
    }
  }
  finish();
  return { files: index, copies };
}

/**
 * Map lines `start..end` of `path` through `diff`, following a copy when the lines left the file:
 * when every hunk touching them only removes lines (a block split off into another file) and a
 * copy of the file keeps them untouched, they moved there.
 */
export function mapRangeWithCopies(diff: ParsedDiff, path: string, start: number, end: number): LineMapping {
  const own = diff.files.get(path);
  const mapped = mapLinesThroughDiff(own, start, end);
  if (mapped.kind !== 'changed' && mapped.kind !== 'deleted') return mapped;
  if (own !== undefined && mapped.kind === 'changed') {
    const touching = own.hunks.filter(
      (hunk) => hunk.old_count > 0 && hunk.old_start <= end && hunk.old_start + hunk.old_count - 1 >= start,
    );
    if (touching.length === 0 || touching.some((hunk) => hunk.new_count > 0)) return mapped;
  }
  for (const copy of diff.copies.get(path) ?? []) {
    const followed = mapLinesThroughDiff(copy, start, end);
    if (followed.kind === 'moved') return followed;
  }
  return mapped;
}

/** Map lines `start..end` at the old revision through `diff` (core's {@link mapLinesThroughDiff}). */
export const mapRange = mapLinesThroughDiff;
