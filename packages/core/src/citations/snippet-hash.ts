// Why: a citation survives edits elsewhere in its file only if the cited snippet can be found
// again, so the snippet is identified by a hash that ignores line-ending style and trailing
// whitespace. One definition here keeps `store`, verification and every reader in agreement.
import { createHash } from 'node:crypto';

/** Prefix of every snippet hash. */
export const SNIPPET_HASH_PREFIX = 'sha256:';

/**
 * Split file text into lines: CRLF becomes LF, a final `"\n"` ends the last line instead of
 * starting an empty one, and an empty file has no lines.
 *
 * @example splitLines('a\r\nb\n') // ['a', 'b']
 */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Hash of a run of lines: each line's trailing whitespace trimmed (and a stray `"\r"` removed),
 * joined with `"\n"`, SHA-256, written `sha256:<64 hex>`.
 */
export function hashLines(lines: readonly string[]): string {
  const normalized = lines.map((line) => line.trimEnd()).join('\n');
  return `${SNIPPET_HASH_PREFIX}${createHash('sha256').update(normalized, 'utf8').digest('hex')}`;
}

/**
 * The `snippet_hash` of cited text: `text` is the cited lines as {@link citedLines} returns them
 * (joined with `"\n"`, no final line terminator). CRLF is read as LF and each line's trailing
 * whitespace is ignored, so re-indenting the end of a line or switching line endings keeps the hash.
 *
 * @example snippetHash('const a = 1;  \r\nconst b = 2;') === snippetHash('const a = 1;\nconst b = 2;') // true
 */
export function snippetHash(text: string): string {
  return hashLines(text.replace(/\r\n/g, '\n').split('\n'));
}

/**
 * The text of lines `start`..`end` (1-indexed, inclusive) of `text`, joined with `"\n"`, or
 * `undefined` when the range is not inside the file (or is inverted or not positive integers).
 */
export function citedLines(text: string, start: number, end: number): string | undefined {
  const lines = splitLines(text);
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 1 || end < start || end > lines.length) {
    return undefined;
  }
  return lines.slice(start - 1, end).join('\n');
}
