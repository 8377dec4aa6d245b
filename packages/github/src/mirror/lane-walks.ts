// Why: the bookkeeping of a sync's page walks, apart from the requests. Each lane walks its items
// newest first from the top (a fresh walk, down to the lane's cursor) or from where an interrupted
// walk stopped (a resumed walk, then a fresh one). After each written page this module says which
// items the page contributes, whether the walk ended, and how the sync state moves: the resume
// point while a walk is under way, the cursor (the greatest `updatedAt` written) once it ends.
import type { LanePageRequest, MirrorLane } from './graphql-selections.js';
import { MIRROR_LANES } from './graphql-selections.js';
import type { MirrorSyncState, StatePatch } from './mirror-state.js';
import type { LaneItem, RepositoryPage } from './page-items.js';

/** One walk down a lane. */
interface Walk {
  /** GitHub's cursor of the last page read (`null`: from the newest item). */
  after: string | null;
  /** Items updated before this are mirrored already: the walk ends at the first one. */
  readonly floor: string;
  /** Greatest `updatedAt` written by the walk. */
  ceiling: string;
}

/** A lane during a sync. */
export interface LaneRun {
  readonly lane: MirrorLane;
  /** The walk under way, or `undefined` when the lane is done. */
  walk: Walk | undefined;
  /** A fresh walk follows the resumed one. */
  freshAfterResume: boolean;
  /** The lane's cursor (`''`: never synced). */
  cursor: string;
  /** GitHub's count of the lane's items, from the last page. */
  totalCount: number | undefined;
}

/** Milliseconds of an ISO time; `''` sorts before everything. */
export function time(value: string): number {
  return value === '' ? Number.NEGATIVE_INFINITY : Date.parse(value);
}

/** The later of two ISO times (`''` is the earliest). */
export function laterOf(a: string, b: string): string {
  return time(b) > time(a) ? b : a;
}

/** The lanes of a sync from the stored state: resumed where a walk was interrupted, else fresh. */
export function startLanes(start: MirrorSyncState, since: string | undefined): LaneRun[] {
  return MIRROR_LANES.map((lane) => {
    const resume = since === undefined ? start.extension.resume[lane] : undefined;
    return {
      lane,
      walk:
        resume === undefined
          ? { after: null, floor: since ?? start.cursors[lane], ceiling: '' }
          : { after: resume.after, floor: resume.floor, ceiling: resume.ceiling },
      freshAfterResume: resume !== undefined,
      cursor: start.cursors[lane],
      totalCount: undefined,
    };
  });
}

/** Stop a lane for this run (discussions disabled or refused). */
export function dropLane(run: LaneRun | undefined): void {
  if (run === undefined) return;
  run.walk = undefined;
  run.freshAfterResume = false;
}

/** The next page of each active lane. */
export function nextPageRequests(active: readonly LaneRun[]): LanePageRequest[] {
  return active.map((run) => ({
    lane: run.lane,
    after: run.walk?.after ?? null,
    // Issues filter on the server (`filterBy.since`); the other lanes stop at the first older item.
    since: run.lane === 'issues' && run.walk !== undefined && run.walk.floor !== '' ? run.walk.floor : null,
  }));
}

/** What a page contributes: its items not older than each walk's floor, and the walks it ends. */
export function takePage(
  active: readonly LaneRun[],
  page: RepositoryPage,
): { items: LaneItem[]; ends: ReadonlySet<MirrorLane> } {
  const items: LaneItem[] = [];
  const ends = new Set<MirrorLane>();
  for (const run of active) {
    const lanePage = page.lanes[run.lane];
    if (lanePage === undefined || run.walk === undefined) continue;
    run.totalCount = lanePage.totalCount;
    const floor = time(run.walk.floor);
    let reachedOlder = false;
    for (const item of lanePage.items) {
      if (time(item.node.updatedAt) < floor) reachedOlder = true;
      else items.push(item);
    }
    if (reachedOlder || !lanePage.pageInfo.hasNextPage || lanePage.pageInfo.endCursor === null) ends.add(run.lane);
  }
  return { items, ends };
}

/**
 * Advance the walks past a page whose files are written, and return the state change: cursors of
 * the walks that ended, resume points of the others (unless `keepResume`: a `since` run leaves
 * the stored resume points alone).
 */
export function advanceLanes(
  active: readonly LaneRun[],
  page: RepositoryPage,
  taken: { items: readonly LaneItem[]; ends: ReadonlySet<MirrorLane> },
  keepResume: boolean,
): Required<Pick<StatePatch, 'cursors' | 'resume'>> {
  const cursors: NonNullable<StatePatch['cursors']> = {};
  const resume: NonNullable<StatePatch['resume']> = {};
  for (const run of active) {
    const walk = run.walk;
    const lanePage = page.lanes[run.lane];
    if (walk === undefined || lanePage === undefined) continue;
    for (const item of taken.items) {
      if (item.lane === run.lane) walk.ceiling = laterOf(walk.ceiling, item.node.updatedAt);
    }
    if (taken.ends.has(run.lane)) {
      if (walk.ceiling !== '') run.cursor = laterOf(run.cursor, walk.ceiling);
      cursors[run.lane] = run.cursor;
      if (!keepResume) resume[run.lane] = null;
      run.walk = run.freshAfterResume ? { after: null, floor: run.cursor, ceiling: '' } : undefined;
      run.freshAfterResume = false;
    } else {
      walk.after = lanePage.pageInfo.endCursor;
      if (!keepResume) resume[run.lane] = { after: walk.after ?? '', floor: walk.floor, ceiling: walk.ceiling };
    }
  }
  return { cursors, resume };
}
