// Why: the one place that decides whether a citation still holds (seed 003's "read every cited
// location before use"): the cited lines must exist and, when the citation carries a
// snippet_hash, still hash the same; a snippet that moved is found again and re-anchored, and a
// reader failure is reported as "unavailable" so it never invalidates a memory.
import { type Citation, VERIFIED_COMMIT_DIGITS } from '../verified/record.js';
import type { CitationReader, CitationSource, LineMapping } from './reader.js';
import { citedLines, hashLines, snippetHash, splitLines } from './snippet-hash.js';
import type { CitationCheck, VerificationResult } from './verification-types.js';

const COMMIT_SHA = /^[0-9a-f]{7,64}$/;
const FULL_COMMIT_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

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
function relocate(
  lines: readonly string[],
  count: number,
  hash: string,
  from: number,
  allowed: (start: number) => boolean = () => true,
): number | undefined {
  const last = lines.length - count;
  if (last < 0) return undefined;
  const origin = Math.min(Math.max(from, 0), last);
  const reach = Math.max(origin, last - origin);
  for (let distance = 0; distance <= reach; distance += 1) {
    for (const start of distance === 0 ? [origin] : [origin - distance, origin + distance]) {
      if (start < 0 || start > last) continue;
      if (allowed(start) && hashLines(lines.slice(start, start + count)) === hash) return start;
    }
  }
  return undefined;
}

/** Where verification looks for the cited lines in the file read: the lines as cited, or as mapped. */
interface Anchor {
  readonly path: string;
  readonly line_start: number;
  /** `same`: not mapped or mapped unchanged; `moved`: intact elsewhere; `changed`: a hunk touched them. */
  readonly mapping: 'same' | 'moved' | 'changed';
  /** The revision mapped from (for messages). */
  readonly from?: string;
  /** For `changed`: the 1-indexed line ranges the diff added, where a moved snippet may be found. */
  readonly added?: readonly { readonly line_start: number; readonly line_end: number }[];
}

/** A predicate on 0-based window starts: the window of `count` lines lies inside one added range. */
function insideAdded(added: Anchor['added'], count: number): ((start: number) => boolean) | undefined {
  if (added === undefined) return undefined;
  return (start) => added.some((range) => start + 1 >= range.line_start && start + count <= range.line_end);
}

function relocatedTo(citation: Citation, path: string, start: number, count: number, revision: string): Citation {
  const relocated: Citation = { ...citation, path, line_start: start, line_end: start + count - 1 };
  if (citation.sha !== undefined) {
    // The old commit no longer describes the new lines: pin to the revision read, or drop the pin.
    if (COMMIT_SHA.test(revision)) relocated.sha = revision;
    else delete relocated.sha;
  }
  // Likewise `verified_commit`: a later mapping from the old commit would take the new lines as
  // lines of that commit (and could call other lines' edits a change of these). A commit read
  // replaces it (anchoredCitation); a branch or a working tree leaves none.
  if (!COMMIT_SHA.test(revision)) delete relocated.verified_commit;
  return relocated;
}

function checkText(
  citation: Citation,
  source: Extract<CitationSource, { kind: 'text' }>,
  anchor: Anchor = { path: citation.path, line_start: citation.line_start, mapping: 'same' },
): CitationCheck {
  const lines = splitLines(source.text);
  const count = citation.line_end - citation.line_start + 1;
  const start = anchor.line_start;
  const inRange = start >= 1 && start + count - 1 <= lines.length;
  const slice = inRange ? lines.slice(start - 1, start - 1 + count) : undefined;
  const unmoved = anchor.path === citation.path && start === citation.line_start;
  const revision = source.revision;
  const found = (at: number): CitationCheck => {
    const content = lines.slice(at - 1, at - 1 + count).join('\n');
    if (anchor.path === citation.path && at === citation.line_start) {
      return { kind: 'valid', citation, content, revision };
    }
    return {
      kind: 'relocated',
      citation,
      relocated: relocatedTo(citation, anchor.path, at, count, revision),
      content,
      revision,
    };
  };
  const changedSince = anchor.from === undefined ? '' : ` between ${anchor.from} and ${revision}`;
  if (citation.snippet_hash === undefined) {
    if (anchor.mapping === 'changed') {
      return {
        kind: 'invalid',
        citation,
        reason: 'lines_changed',
        message: `${citation.path}: the cited ${range(citation)} changed${changedSince}`,
      };
    }
    if (slice !== undefined) return found(start);
    return {
      kind: 'invalid',
      citation,
      reason: 'out_of_range',
      message: `${citation.path}: ${range(citation)} is outside the file (${lines.length} lines at ${revision})`,
    };
  }
  if (slice !== undefined && hashLines(slice) === citation.snippet_hash) return found(start);
  const allowed = anchor.mapping === 'changed' ? insideAdded(anchor.added, count) : undefined;
  const at = relocate(lines, count, citation.snippet_hash, start - 1, allowed);
  if (at !== undefined) return found(at + 1);
  if (anchor.mapping === 'changed') {
    return {
      kind: 'invalid',
      citation,
      reason: 'lines_changed',
      message: `${citation.path}: the cited ${range(citation)} changed${changedSince}${anchor.path === citation.path ? '' : ` (file now ${anchor.path})`}`,
    };
  }
  return {
    kind: 'invalid',
    citation,
    reason: 'snippet_missing',
    message: `${unmoved ? citation.path : anchor.path}: the snippet cited at ${range(citation)}${unmoved ? '' : ` of ${citation.path}`} is no longer in the file at ${revision}`,
  };
}

async function readSource(
  reader: CitationReader,
  repo: string,
  path: string,
  ref: string | undefined,
): Promise<CitationSource | { readonly kind: 'failed'; readonly error: unknown }> {
  try {
    return await reader.read(ref === undefined ? { repo, path } : { repo, path, ref });
  } catch (error) {
    return { kind: 'failed', error };
  }
}

/**
 * Where the cited lines went since the citation's `verified_commit`, when the reader can say
 * (`mapLines`); `undefined` = no mapping (no commit recorded, no capability, unknown revision).
 */
async function mapCitation(
  reader: CitationReader,
  repo: string,
  citation: Citation,
  ref: string | undefined,
): Promise<Exclude<LineMapping, { kind: 'unknown' }> | undefined> {
  if (citation.verified_commit === undefined || reader.mapLines === undefined) return undefined;
  try {
    const mapping = await reader.mapLines({
      repo,
      from: citation.verified_commit,
      ...(ref === undefined ? {} : { to: ref }),
      path: citation.path,
      line_start: citation.line_start,
      line_end: citation.line_end,
    });
    return mapping.kind === 'unknown' ? undefined : mapping;
  } catch {
    // A mapping that cannot be computed is no evidence either way: the snippet search decides.
    return undefined;
  }
}

/**
 * Check one citation against the code `reader` sees at `ref` (default: the reader's HEAD).
 *
 * - when the reader resolves names (`resolveRevision`, the GitHub reader) and `ref` is not a full
 *   commit id, the name is first resolved to the commit it stands for; the check reads and maps at
 *   that commit and reports it as `revision` (a failure to resolve is `unavailable`);
 * - when the citation records the commit it was last verified at (`verified_commit`) and the
 *   reader can map lines (`mapLines`, git readers), the cited lines are first followed through
 *   the diff from that commit: a renamed file or lines moved by edits elsewhere are checked at
 *   their new place; a deleted file is `invalid` `file_missing`; lines a hunk touched are
 *   `invalid` `lines_changed` unless the snippet is found again in lines the diff added (moved
 *   by it; a copy in lines the diff left alone is not the cited code). An unknown mapping
 *   falls back to the unmapped check;
 * - reader throws (network, auth, bad ref...) → `unavailable` (never `invalid`);
 * - file absent / binary / too large → `invalid` with `file_missing` / `binary_file` / `file_too_large`;
 * - without `snippet_hash`: `valid` when the line range is inside the file, else `invalid` `out_of_range`;
 * - with `snippet_hash`: `valid` when the cited lines still hash the same; otherwise the nearest
 *   window of as many lines with that hash makes it `relocated` (new lines, same hash, `sha`
 *   updated to the source's revision when the citation had one and the revision is a commit id);
 *   none → `invalid` `snippet_missing`.
 *
 * `content` is the text of the cited (or relocated) lines, joined with `"\n"`; `revision` is
 * the revision read. {@link anchoredCitation} gives the citation to keep after a passing check.
 */
export async function checkCitation(
  reader: CitationReader,
  repo: string,
  citation: Citation,
  asked?: string,
): Promise<CitationCheck> {
  let ref = asked;
  if (reader.resolveRevision !== undefined && (asked === undefined || !FULL_COMMIT_SHA.test(asked))) {
    // Read and map at the one commit the name stands for now, so that commit can be recorded.
    try {
      ref = (await reader.resolveRevision(asked === undefined ? { repo } : { repo, ref: asked })) ?? asked;
    } catch (error) {
      return {
        kind: 'unavailable',
        citation,
        message: `${citation.path}: the ${reader.name} reader failed to resolve ${asked ?? 'the default revision'}: ${describeError(error)}`,
      };
    }
  }
  // The common case first: the cited lines still hash the same where they were, so no diff is
  // needed (recall stays one read per citation however old the recorded commit is).
  let unmapped: Awaited<ReturnType<typeof readSource>> | undefined;
  if (citation.snippet_hash !== undefined) {
    unmapped = await readSource(reader, repo, citation.path, ref);
    if (unmapped.kind === 'text') {
      const cited = citedLines(unmapped.text, citation.line_start, citation.line_end);
      if (cited !== undefined && snippetHash(cited) === citation.snippet_hash) {
        return { kind: 'valid', citation, content: cited, revision: unmapped.revision };
      }
    }
  }
  const mapping = await mapCitation(reader, repo, citation, ref);
  if (mapping?.kind === 'deleted') {
    return {
      kind: 'invalid',
      citation,
      reason: 'file_missing',
      message: `${citation.path}: the file was deleted after ${citation.verified_commit ?? 'the verified commit'}`,
    };
  }
  const anchor: Anchor =
    mapping === undefined || mapping.kind === 'same'
      ? { path: citation.path, line_start: citation.line_start, mapping: 'same' }
      : {
          path: mapping.path,
          line_start: mapping.line_start,
          mapping: mapping.kind,
          ...(citation.verified_commit === undefined ? {} : { from: citation.verified_commit }),
          ...(mapping.kind === 'changed' && mapping.added !== undefined ? { added: mapping.added } : {}),
        };
  const source =
    unmapped !== undefined && anchor.path === citation.path
      ? unmapped
      : await readSource(reader, repo, anchor.path, ref);
  const where = anchor.path;
  switch (source.kind) {
    case 'failed':
      return {
        kind: 'unavailable',
        citation,
        message: `${where}: the ${reader.name} reader failed: ${describeError(source.error)}`,
      };
    case 'text':
      return checkText(citation, source, anchor);
    case 'missing':
      return {
        kind: 'invalid',
        citation,
        reason: 'file_missing',
        message: `${where}: no such file at ${source.revision}`,
      };
    case 'binary':
      return {
        kind: 'invalid',
        citation,
        reason: 'binary_file',
        message: `${where}: binary file at ${source.revision}; a binary file cannot support a memory`,
      };
    case 'too_large':
      return {
        kind: 'invalid',
        citation,
        reason: 'file_too_large',
        message: `${where}: ${source.bytes} bytes at ${source.revision}, larger than the ${reader.name} reader's limit`,
      };
  }
}

/**
 * The citation to keep after a `valid` or `relocated` check: the re-anchored one when it moved,
 * with `verified_commit` set to the commit read (abbreviated) when the revision read is a commit
 * id; otherwise (a working tree, a branch name no reader resolved) an unmoved citation keeps
 * the commit recorded before and a re-anchored one has none (its new lines are not that commit's).
 */
export function anchoredCitation(check: Extract<CitationCheck, { kind: 'valid' | 'relocated' }>): Citation {
  const citation = check.kind === 'relocated' ? check.relocated : check.citation;
  const revision = check.revision;
  if (revision === undefined || !COMMIT_SHA.test(revision)) return citation;
  const verified = revision.slice(0, VERIFIED_COMMIT_DIGITS);
  return citation.verified_commit === verified ? citation : { ...citation, verified_commit: verified };
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
