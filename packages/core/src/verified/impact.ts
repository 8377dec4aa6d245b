// Why: a pull request should say which memories it touches before it merges (issue 26, item 5):
// the memories whose cited lines the diff between base and head moves, re-anchors or changes.
// It is read-only, written once over the citation reader's `mapLines` capability (git's rename
// detection and line mapping), and checks only the citations the diff touches, so a large
// repository's memories cost one diff plus a lookup each.
import type { CitationReader } from '../citations/reader.js';
import type { CitationFailureReason } from '../citations/verification-types.js';
import { checkCitation } from '../citations/verify.js';
import { RepomemError } from '../errors.js';
import type { VerifiedMemoryBackend } from './backend.js';
import type { Citation, VerifiedMemory } from './record.js';
import { parseRepo } from './service-input.js';

/** Options of {@link checkMemoryImpact}. */
export interface MemoryImpactOptions {
  /** Where the memories are. */
  readonly backend: VerifiedMemoryBackend;
  /** A reader over the repository's history with the `mapLines` capability (the git reader). */
  readonly reader: CitationReader;
  /** Repository slug `owner/name`. */
  readonly repo: string;
  /** The revision the memories' citations are anchored at (the pull request's base). */
  readonly base: string;
  /** The revision to check (the pull request's head); default the reader's (HEAD). */
  readonly head?: string;
  /** Clock for "unexpired" (default now). */
  readonly now?: () => Date;
}

/** What the diff does to one citation it touches. */
export type CitationImpact =
  /** The file changed but the cited lines are intact where they were. */
  | { readonly kind: 'valid'; readonly citation: Citation }
  /** The cited lines are intact at another path or other lines. */
  | { readonly kind: 'reanchored'; readonly citation: Citation; readonly anchored: Citation }
  /** The cited lines changed or vanished: verification at head would invalidate the memory. */
  | {
      readonly kind: 'invalidated';
      readonly citation: Citation;
      readonly reason: CitationFailureReason;
      readonly message: string;
    }
  /** The head could not be read: nothing can be concluded. */
  | { readonly kind: 'unknown'; readonly citation: Citation; readonly message: string };

/** A memory's outcome: its worst citation (`invalidated` > `unknown` > `reanchored` > `valid`). */
export type ImpactOutcome = CitationImpact['kind'];

/** One memory the diff touches, with its touched citations. */
export interface MemoryImpact {
  readonly memory: VerifiedMemory;
  readonly outcome: ImpactOutcome;
  /** Only the citations whose files the diff changes, in the memory's order. */
  readonly citations: readonly CitationImpact[];
}

/** Result of {@link checkMemoryImpact}. */
export interface ImpactReport {
  readonly repo: string;
  readonly base: string;
  /** The revision checked (`HEAD` when none was given). */
  readonly head: string;
  /** Active, unexpired memories considered. */
  readonly checked: number;
  /** Memories the diff touches: invalidated first, then unknown, re-anchored, valid. */
  readonly touched: readonly MemoryImpact[];
  /** Touched memories by outcome. */
  readonly counts: Readonly<Record<ImpactOutcome, number>>;
}

const SEVERITY: Readonly<Record<ImpactOutcome, number>> = { invalidated: 3, unknown: 2, reanchored: 1, valid: 0 };
/** A path no repository has: mapping it only tells whether the diff can be computed at all. */
const PROBE_PATH = '.repomem-impact-probe/none';

function revisionArgument(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '' || value.startsWith('-')) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid ${name}: expected a branch, tag or commit id`, {
      details: { [name]: value },
    });
  }
  return value;
}

async function citationImpact(
  reader: CitationReader,
  repo: string,
  citation: Citation,
  base: string,
  head: string | undefined,
): Promise<CitationImpact | undefined> {
  const mapLines = reader.mapLines?.bind(reader);
  if (mapLines === undefined) return undefined;
  const mapping = await mapLines({
    repo,
    from: base,
    ...(head === undefined ? {} : { to: head }),
    path: citation.path,
    line_start: citation.line_start,
    line_end: citation.line_end,
  });
  if (mapping.kind === 'same' && !mapping.file_changed) return undefined;
  if (mapping.kind === 'unknown') return { kind: 'unknown', citation, message: mapping.reason };
  // The same check verification does at head, with the lines taken as cited at base.
  const check = await checkCitation(reader, repo, { ...citation, verified_commit: base }, head);
  switch (check.kind) {
    case 'valid':
      return { kind: 'valid', citation };
    case 'relocated': {
      const { verified_commit: _base, ...anchored } = check.relocated;
      return { kind: 'reanchored', citation, anchored: restoreCommit(anchored, citation) };
    }
    case 'invalid':
      return { kind: 'invalidated', citation, reason: check.reason, message: check.message };
    case 'unavailable':
      return { kind: 'unknown', citation, message: check.message };
  }
}

/** The re-anchored citation keeps the memory's own `verified_commit` (the impact check writes nothing). */
function restoreCommit(anchored: Citation, original: Citation): Citation {
  return original.verified_commit === undefined ? anchored : { ...anchored, verified_commit: original.verified_commit };
}

/**
 * The memories of `repo` whose citations the diff from `base` to `head` touches, and what it does
 * to each (read-only: nothing is refreshed or invalidated). A citation is touched when the diff
 * changes its file; it is then checked at `head` as verification would check it, with its lines
 * taken as cited at `base`: `valid` (intact in place), `reanchored` (renamed file, lines moved),
 * `invalidated` (lines changed or the file deleted, the snippet not found again) or `unknown`.
 *
 * Throws `UNSUPPORTED` when the reader cannot map lines (a plain directory), `NOT_FOUND` when the
 * diff between `base` and `head` cannot be computed (an unknown revision), `INVALID_ARGUMENT` for
 * a bad repository or revision.
 */
export async function checkMemoryImpact(options: MemoryImpactOptions): Promise<ImpactReport> {
  if (options === null || typeof options !== 'object' || options.backend === undefined) {
    throw new RepomemError('INVALID_ARGUMENT', 'checkMemoryImpact expects { backend, reader, repo, base, head }');
  }
  const { backend, reader } = options;
  const repo = parseRepo(options.repo);
  const base = revisionArgument(options.base, 'base');
  const head = options.head === undefined ? undefined : revisionArgument(options.head, 'head');
  if (reader?.mapLines === undefined) {
    throw new RepomemError(
      'UNSUPPORTED',
      `the ${reader?.name ?? 'given'} citation reader cannot map lines between revisions; use a git source`,
    );
  }
  const probe = await reader.mapLines({
    repo,
    from: base,
    ...(head === undefined ? {} : { to: head }),
    path: PROBE_PATH,
    line_start: 1,
    line_end: 1,
  });
  if (probe.kind === 'unknown') {
    throw new RepomemError('NOT_FOUND', `cannot diff ${base} against ${head ?? 'HEAD'}: ${probe.reason}`, {
      details: { base, head: head ?? 'HEAD' },
    });
  }
  const at = (options.now ?? (() => new Date()))();
  const memories = await backend.recent({ repo, statuses: ['active'], liveAt: at.toISOString() });
  const impacts = await Promise.all(
    memories.map(async (memory): Promise<MemoryImpact | undefined> => {
      const touched: CitationImpact[] = [];
      for (const citation of memory.citations) {
        const impact = await citationImpact(reader, repo, citation, base, head);
        if (impact !== undefined) touched.push(impact);
      }
      if (touched.length === 0) return undefined;
      const outcome = touched.reduce<ImpactOutcome>(
        (worst, impact) => (SEVERITY[impact.kind] > SEVERITY[worst] ? impact.kind : worst),
        'valid',
      );
      return { memory, outcome, citations: touched };
    }),
  );
  const touched = impacts
    .filter((impact): impact is MemoryImpact => impact !== undefined)
    .sort((a, b) => SEVERITY[b.outcome] - SEVERITY[a.outcome]);
  const counts: Record<ImpactOutcome, number> = { invalidated: 0, unknown: 0, reanchored: 0, valid: 0 };
  for (const impact of touched) counts[impact.outcome] += 1;
  return { repo, base, head: head ?? 'HEAD', checked: memories.length, touched, counts };
}
