// Why: `--cite path:START-END` is outside data entering the CLI, so it is parsed into core's
// zod-validated Citation here, once, with a message naming the bad value (a `..` path, an
// inverted range, a missing line number) before anything is stored.
import { type Citation, CitationSchema } from '@repomem/core';
import { CliUsageError } from './errors.js';

const RANGE_PATTERN = /^(\d{1,9})(?:-(\d{1,9}))?$/;

/**
 * Parse one `--cite` value: `<path>:<line>` or `<path>:<start>-<end>` (1-based, inclusive; the
 * path may itself contain `:`, the range is after the last one). Throws {@link CliUsageError}
 * naming the value for a missing or malformed range, `line_end < line_start`, a line below 1,
 * and a path that is absolute, empty or contains `..`.
 */
export function parseCitationArgument(value: string): Citation {
  const colon = value.lastIndexOf(':');
  const bad = (problem: string): CliUsageError =>
    new CliUsageError(`invalid --cite ${JSON.stringify(value)}: ${problem}`);
  if (colon === -1) throw bad('expected <path>:<start>-<end> or <path>:<line>');
  const path = value.slice(0, colon);
  const match = RANGE_PATTERN.exec(value.slice(colon + 1));
  if (match === null) throw bad('the line range must be <start>-<end> or <line> (positive integers)');
  const lineStart = Number(match[1]);
  const lineEnd = match[2] === undefined ? lineStart : Number(match[2]);
  const parsed = CitationSchema.safeParse({ path, line_start: lineStart, line_end: lineEnd });
  if (!parsed.success) throw bad(parsed.error.issues.map((issue) => issue.message).join('; '));
  return parsed.data;
}

/** `path:start-end` (or `path:line` for one line), the form {@link parseCitationArgument} reads. */
export function formatCitation(citation: Pick<Citation, 'path' | 'line_start' | 'line_end'>): string {
  return citation.line_start === citation.line_end
    ? `${citation.path}:${citation.line_start}`
    : `${citation.path}:${citation.line_start}-${citation.line_end}`;
}
