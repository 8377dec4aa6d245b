// Why: the one place that decides whether a citation still holds (seed 003's "read every cited
// location before use"): the cited lines must exist and, when the citation carries a
// snippet_hash, still hash the same; a snippet that moved is found again and re-anchored, and a
// reader failure is reported as "unavailable" so it never invalidates a memory.
import type { Citation } from '../verified/record.js';
import type { CitationReader, CitationSource } from './reader.js';
import { hashLines, splitLines } from './snippet-hash.js';
import type { CitationCheck, VerificationResult } from './verification-types.js';

const COMMIT_SHA = /^[0-9a-f]{7,64}$/;

function range(citation: Citation): string {
  return citation.line_start === citation.line_end
    ? `line ${citation.line_start}`
    : `lines ${citation.line_start}-${citation.line_end}`;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Find the window of `count` lines hashing to `hash`, nearest to `from` (0-based) first; on a tie
 * the earlier window wins. Returns its 0-based start, or `undefined`.
 */
function relocate(lines: readonly string[], count: number, hash: string, from: number): number | undefined {
  const last = lines.length - count;
  if (last < 0) return undefined;
  const origin = Math.min(Math.max(from, 0), last);
  const reach = Math.max(origin, last - origin);
  for (let distance = 0; distance <= reach; distance += 1) {
    for (const start of distance === 0 ? [origin] : [origin - distance, origin + distance]) {
      if (start < 0 || start > last) continue;
      if (hashLines(lines.slice(start, start + count)) === hash) return start;
    }
  }
  return undefined;
}

function checkText(citation: Citation, source: Extract<CitationSource, { kind: 'text' }>): CitationCheck {
  const lines = splitLines(source.text);
  const count = citation.line_end - citation.line_start + 1;
  const inRange = citation.line_end <= lines.length;
  const slice = inRange ? lines.slice(citation.line_start - 1, citation.line_end) : undefined;
  if (citation.snippet_hash === undefined) {
    if (slice !== undefined) return { kind: 'valid', citation, content: slice.join('\n') };
    return {
      kind: 'invalid',
      citation,
      reason: 'out_of_range',
      message: `${citation.path}: ${range(citation)} is outside the file (${lines.length} lines at ${source.revision})`,
    };
  }
  if (slice !== undefined && hashLines(slice) === citation.snippet_hash) {
    return { kind: 'valid', citation, content: slice.join('\n') };
  }
  const start = relocate(lines, count, citation.snippet_hash, citation.line_start - 1);
  if (start === undefined) {
    return {
      kind: 'invalid',
      citation,
      reason: 'snippet_missing',
      message: `${citation.path}: the snippet cited at ${range(citation)} is no longer in the file at ${source.revision}`,
    };
  }
  const relocated: Citation = { ...citation, line_start: start + 1, line_end: start + count };
  if (citation.sha !== undefined) {
    // The old commit no longer describes the new lines: pin to the revision read, or drop the pin.
    if (COMMIT_SHA.test(source.revision)) relocated.sha = source.revision;
    else delete relocated.sha;
  }
  return { kind: 'relocated', citation, relocated, content: lines.slice(start, start + count).join('\n') };
}

/**
 * Check one citation against the code `reader` sees at `ref` (default: the reader's HEAD).
 *
 * - reader throws (network, auth, bad ref...) → `unavailable` (never `invalid`);
 * - file absent / binary / too large → `invalid` with `file_missing` / `binary_file` / `file_too_large`;
 * - without `snippet_hash`: `valid` when the line range is inside the file, else `invalid` `out_of_range`;
 * - with `snippet_hash`: `valid` when the cited lines still hash the same; otherwise the nearest
 *   window of as many lines with that hash makes it `relocated` (new lines, same hash, `sha`
 *   updated to the source's revision when the citation had one and the revision is a commit id);
 *   none → `invalid` `snippet_missing`.
 *
 * `content` is the text of the cited (or relocated) lines, joined with `"\n"`.
 */
export async function checkCitation(
  reader: CitationReader,
  repo: string,
  citation: Citation,
  ref?: string,
): Promise<CitationCheck> {
  let source: CitationSource;
  try {
    source = await reader.read(ref === undefined ? { repo, path: citation.path } : { repo, path: citation.path, ref });
  } catch (error) {
    return {
      kind: 'unavailable',
      citation,
      message: `${citation.path}: the ${reader.name} reader failed: ${describeError(error)}`,
    };
  }
  switch (source.kind) {
    case 'text':
      return checkText(citation, source);
    case 'missing':
      return {
        kind: 'invalid',
        citation,
        reason: 'file_missing',
        message: `${citation.path}: no such file at ${source.revision}`,
      };
    case 'binary':
      return {
        kind: 'invalid',
        citation,
        reason: 'binary_file',
        message: `${citation.path}: binary file at ${source.revision}; a binary file cannot support a memory`,
      };
    case 'too_large':
      return {
        kind: 'invalid',
        citation,
        reason: 'file_too_large',
        message: `${citation.path}: ${source.bytes} bytes at ${source.revision}, larger than the ${reader.name} reader's limit`,
      };
  }
}

/** Summarise per-citation checks (in order) as a {@link VerificationResult}. */
export function summarizeChecks(checks: readonly CitationCheck[]): VerificationResult {
  let validCount = 0;
  let invalidCount = 0;
  let unavailableCount = 0;
  for (const check of checks) {
    if (check.kind === 'valid' || check.kind === 'relocated') validCount += 1;
    else if (check.kind === 'invalid') invalidCount += 1;
    else unavailableCount += 1;
  }
  return {
    valid: checks.length > 0 && validCount === checks.length,
    citations: checks,
    valid_count: validCount,
    invalid_count: invalidCount,
    unavailable_count: unavailableCount,
  };
}

/**
 * Check every citation (concurrently; results in input order) with {@link checkCitation}.
 * `valid` is true only when every citation is `valid` or `relocated`.
 */
export async function verifyCitations(
  reader: CitationReader,
  repo: string,
  citations: readonly Citation[],
  ref?: string,
): Promise<VerificationResult> {
  const checks = await Promise.all(citations.map((citation) => checkCitation(reader, repo, citation, ref)));
  return summarizeChecks(checks);
}
