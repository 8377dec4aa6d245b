// Why: the mirror sync itself. Each lane (issues, pull requests, discussions) is walked newest
// first by `updatedAt`, one page per lane per request (lanes share requests), until it reaches
// items older than its cursor. A page is written only once its overflowing nested connections
// were fetched, its files are written in one batch (unchanged ones skipped), and only then does
// the sync state move: the lane's resume point while a walk is under way, its cursor (the greatest
// `updatedAt` written) once the walk is done. So an interrupted sync (request cap, abort, rate
// limit, outage) resumes where it stopped, and an item updated while a sync runs sorts above that
// sync's cursor and is fetched by the next one. An item larger than the store takes is cut to
// fit (or skipped) with a notice, never a reason to stop.
import { type MemoryStore, RepomemError } from '@repomem/core';
import type { GitHubEnvironment } from '../citations/github-endpoint.js';
import { fitMirrorFile, MIRROR_TRUNCATION_MARKER } from './fit-mirror-file.js';
import { completeItems } from './follow-ups.js';
import { discussionToGh, issueToGh, type MirrorJson, pullToGh } from './gh-format.js';
import { classifyThrown, forbiddenFields, type MirrorInterruption, throwGraphQLErrors } from './github-failure.js';
import { type MirrorLane, pageQuery } from './graphql-selections.js';
import { advanceLanes, dropLane, laterOf, nextPageRequests, startLanes, takePage } from './lane-walks.js';
import { createMirrorClient, type GitHubQuota } from './mirror-client.js';
import { mirrorPath, mirrorPrefix, parseMirrorRepository } from './mirror-paths.js';
import { MirrorStateStore, type StatePatch } from './mirror-state.js';
import { type MirrorFile, writeMirrorFiles } from './mirror-writer.js';
import { type LaneItem, parseRepositoryPage } from './page-items.js';
import { findVanishedItems, type VanishedReport, vanishedForState } from './vanished-items.js';

/** Progress of a running sync, reported after every page written. */
export interface GitHubMirrorProgress {
  /** Items fetched so far, per lane. */
  readonly items: Readonly<Record<MirrorLane, number>>;
  /** Files created or changed so far. */
  readonly changed: number;
  /** HTTP requests so far. */
  readonly requests: number;
  /** The quota GitHub last reported. */
  readonly quota: GitHubQuota | undefined;
}

/** Options of {@link syncGitHubMirror}. */
export interface GitHubMirrorSyncOptions {
  /** `owner/name` of the repository to mirror. */
  readonly repo: string;
  /** Where the files and the sync state go (any repomem store). */
  readonly store: MemoryStore;
  /** Token (`GITHUB_TOKEN`, `GH_TOKEN`, an App installation token); default `env.GITHUB_TOKEN`. */
  readonly token?: string;
  /**
   * Mirror items updated at or after this time instead of continuing from the stored cursors (a
   * backfill). Such a run moves the cursors forward when it completes but is not itself resumed.
   */
  readonly since?: string;
  /** Stops the sync after the page being written; what was written stays and the next run resumes. */
  readonly signal?: AbortSignal;
  /** Called after each page is written. */
  readonly onProgress?: (progress: GitHubMirrorProgress) => void;
  /** Most HTTP requests this run may send (retries included); the next run resumes where it stopped. */
  readonly maxRequests?: number;
  /** REST API root; default `env.GITHUB_API_URL`, else `https://api.github.com`. */
  readonly baseUrl?: string;
  /** GraphQL endpoint; default `env.GITHUB_GRAPHQL_URL`, else derived from the API root. Must be on the API's host. */
  readonly graphqlUrl?: string;
  /** Environment read for `GITHUB_TOKEN`, `GITHUB_API_URL`, `GITHUB_GRAPHQL_URL` (default `process.env`). */
  readonly env?: GitHubEnvironment;
  /** URL of the run recorded as `last_run_url` (default: the Actions run from `GITHUB_SERVER_URL`, `GITHUB_REPOSITORY`, `GITHUB_RUN_ID`). */
  readonly runUrl?: string;
  /** Retries of a 502/503/504 or a network failure per request (default 3). */
  readonly retries?: number;
  /** Unit of retry waits in milliseconds (default 1,000; GitHub's `retry-after` is in seconds). */
  readonly waitUnitMs?: number;
  /** Longest rate-limit wait honoured, in seconds (default 120); a longer one interrupts the sync. */
  readonly maxRateLimitWaitSeconds?: number;
  /**
   * Largest mirror file written, in bytes (default: the store's `capabilities.maxDocumentBytes`).
   * A larger item has its text bodies cut to fit, each ending in `[repomem: truncated, ...]`, or is
   * skipped when even that does not fit; either is reported in `notices`.
   */
  readonly maxFileBytes?: number;
  /** Clock (tests). */
  readonly clock?: () => Date;
}

/** Per-lane counts. */
export type LaneCounts = Readonly<Record<MirrorLane, number>>;

/** What {@link syncGitHubMirror} did. */
export interface GitHubMirrorSyncSummary {
  /** `owner/name`. */
  readonly repo: string;
  /** Folder of the mirror files, `github/<owner>/<repo>/`. */
  readonly prefix: string;
  /** Items fetched per lane. */
  readonly items: LaneCounts;
  /** Files created or changed, sorted. */
  readonly changed: readonly string[];
  /** Items fetched whose file already held the same bytes. */
  readonly unchanged: number;
  /** HTTP requests sent (retries included). */
  readonly requests: number;
  /** Rate-limit waits honoured. */
  readonly rateLimitWaits: number;
  /** The quota GitHub last reported (`undefined` when it sent none). */
  readonly quota: GitHubQuota | undefined;
  /** Cursors after the run (`''`: never synced). */
  readonly cursors: Readonly<Record<MirrorLane, string>>;
  /** `last_activity_at` after the run. */
  readonly lastActivityAt: string;
  /** Items found to have left the repository (deleted or transferred); their files are kept. */
  readonly vanished: readonly VanishedReport[];
  /** Things the user should know (discussions disabled, an ignored state...). */
  readonly notices: readonly string[];
}

/** Outcome of a sync: finished, or stopped early (the next run resumes; nothing written is lost). */
export type GitHubMirrorSyncResult =
  | (GitHubMirrorSyncSummary & { readonly status: 'complete' })
  | (GitHubMirrorSyncSummary & {
      readonly status: 'interrupted';
      readonly reason: MirrorInterruption;
      readonly message: string;
    });

const megabytes = (bytes: number): string => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** A file to write, with what to report if it is written (or reported once when skipped). */
interface FittedItem {
  readonly file: MirrorFile | undefined;
  readonly notice: string | undefined;
}

/** The file of an item, fitted to the store's largest document (cut to fit, or none: skipped). */
function toFile(repo: ReturnType<typeof parseMirrorRepository>, item: LaneItem, maxBytes: number): FittedItem {
  let json: MirrorJson;
  if (item.lane === 'issues') json = issueToGh(item.node);
  else if (item.lane === 'pulls') json = pullToGh(item.node);
  else json = discussionToGh(item.node);
  const path = mirrorPath(repo, item.lane, item.node.number);
  const fitted = fitMirrorFile(json, maxBytes);
  if (fitted.kind === 'too_large') {
    return {
      file: undefined,
      notice: `skipped ${path}: ${megabytes(fitted.fullBytes)} as gh writes it, more than the store takes (${megabytes(maxBytes)}) even with its text cut`,
    };
  }
  const notice =
    fitted.kind === 'truncated'
      ? `truncated ${path} to fit the store (${megabytes(fitted.fullBytes)} as gh writes it, at most ${megabytes(maxBytes)}): ${fitted.cutBodies} text bodies cut to ${fitted.keptChars.toLocaleString('en-US')} characters, each ending in "${MIRROR_TRUNCATION_MARKER} ...]"`
      : undefined;
  return { file: { path, content: fitted.content }, notice };
}

function defaultRunUrl(env: GitHubEnvironment): string {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: run } = env;
  return server && repository && run ? `${server}/${repository}/actions/runs/${run}` : '';
}

/** Smallest fraction of the normal page size tried when GitHub keeps failing (1/8: 12 issues). */
const MIN_PAGE_SCALE = 1 / 8;

class Interrupted extends Error {
  constructor(
    readonly reason: MirrorInterruption,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Mirror a repository's issues, pull requests and discussions into
 * `github/<owner>/<repo>/{issue,pull,discussion}-<n>.json` of `store`, as `gh ... --json` writes them.
 *
 * Incremental and resumable: cursors and resume points live in the store's sync state (Sepo's
 * `state.json` schema; `refs/agent-memory-state/sync` on the git store). Returns `complete`, or
 * `interrupted` with the reason (request cap, abort, rate limit, GitHub outage); run it again to
 * continue. Throws `INVALID_ARGUMENT` (bad repository name, no token, bad endpoint), `NOT_FOUND`
 * (no such repository, or invisible to the token) and `BACKEND_UNAVAILABLE` (a token without a
 * permission, with `details.permission` naming it; GitHub refusing a query).
 *
 * @example
 * ```ts
 * const result = await syncGitHubMirror({ repo: 'acme/app', store, token: process.env.GITHUB_TOKEN });
 * console.log(result.status, result.changed.length, result.requests);
 * ```
 */
export async function syncGitHubMirror(options: GitHubMirrorSyncOptions): Promise<GitHubMirrorSyncResult> {
  const repo = parseMirrorRepository(options.repo);
  const env = options.env ?? process.env;
  const clock = options.clock ?? (() => new Date());
  if (options.maxRequests !== undefined && (!Number.isInteger(options.maxRequests) || options.maxRequests < 1)) {
    throw new RepomemError('INVALID_ARGUMENT', `maxRequests must be a positive integer (got ${options.maxRequests})`);
  }
  if (options.maxFileBytes !== undefined && (!Number.isInteger(options.maxFileBytes) || options.maxFileBytes < 1)) {
    throw new RepomemError('INVALID_ARGUMENT', `maxFileBytes must be a positive integer (got ${options.maxFileBytes})`);
  }
  if (options.since !== undefined && Number.isNaN(Date.parse(options.since))) {
    throw new RepomemError('INVALID_ARGUMENT', `since must be an ISO 8601 time (got ${JSON.stringify(options.since)})`);
  }
  const client = createMirrorClient({
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.graphqlUrl === undefined ? {} : { graphqlUrl: options.graphqlUrl }),
    env,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    retries: options.retries ?? 3,
    waitUnitMs: options.waitUnitMs ?? 1000,
    maxRateLimitWaitSeconds: options.maxRateLimitWaitSeconds ?? 120,
    secondaryRetries: 5,
  });
  const state = await MirrorStateStore.open(options.store, repo.slug, clock);
  const start = state.current();
  const notices: string[] = [...state.notices];
  const runUrl = options.runUrl ?? defaultRunUrl(env);

  const lanes = startLanes(start, options.since);
  const discussionLane = lanes.find((run) => run.lane === 'discussions');
  const items: Record<MirrorLane, number> = { issues: 0, pulls: 0, discussions: 0 };
  const changed: string[] = [];
  let unchanged = 0;
  let lastActivityAt = start.lastActivityAt;
  let vanished: VanishedReport[] = [];
  let checkedRepository = false;
  let pageScale = 1;

  const budgetLeft = (): boolean => options.maxRequests === undefined || client.requests() < options.maxRequests;
  const send = async (query: string, variables: Record<string, unknown>) => {
    if (options.signal?.aborted) throw new Interrupted('aborted', 'the sync was aborted');
    if (!budgetLeft()) {
      throw new Interrupted(
        'max_requests',
        `stopped after ${client.requests()} requests (the cap); the next run resumes here`,
      );
    }
    return client.query(query, variables);
  };

  const summary = (): GitHubMirrorSyncSummary => ({
    repo: repo.slug,
    prefix: mirrorPrefix(repo),
    items: { ...items },
    changed: [...changed].sort(),
    unchanged,
    requests: client.requests(),
    rateLimitWaits: client.rateLimitWaits(),
    quota: client.quota(),
    cursors: { issues: lanes[0]?.cursor ?? '', pulls: lanes[1]?.cursor ?? '', discussions: lanes[2]?.cursor ?? '' },
    lastActivityAt,
    vanished,
    notices,
  });

  try {
    for (;;) {
      const active = lanes.filter((run) => run.walk !== undefined);
      if (active.length === 0) break;
      const { query, variables } = pageQuery(nextPageRequests(active), pageScale);
      let answer: Awaited<ReturnType<typeof send>>;
      try {
        answer = await send(query, variables(repo.owner, repo.name));
      } catch (error) {
        // GitHub times out on pages that are too heavy (5xx even after retries): smaller pages.
        const classified = classifyThrown(error, repo.slug, options.signal?.aborted === true);
        if (
          classified.kind !== 'interrupted' ||
          classified.reason !== 'github_unavailable' ||
          pageScale <= MIN_PAGE_SCALE
        ) {
          throw error;
        }
        pageScale /= 2;
        notices.push(
          `GitHub kept failing on full pages; continuing with pages of ${Math.round(pageScale * 100)}% size`,
        );
        continue;
      }
      const repository = (answer.data as { repository?: unknown } | null)?.repository;
      if (answer.errors.length > 0) {
        // A token may read issues and pull requests but not discussions: those are skipped.
        const forbidden = forbiddenFields(answer.errors);
        if (forbidden.length > 0 && forbidden.every((field) => field === 'discussions') && discussionLane?.walk) {
          dropLane(discussionLane);
          notices.push(
            `discussions skipped: the token cannot read them (give it the permission Discussions: read to mirror them)`,
          );
          continue;
        }
        // Anything else refused (a missing repository, a permission, a query GitHub rejects) stops the sync.
        throwGraphQLErrors(repo.slug, answer.errors);
      }
      const page = parseRepositoryPage(
        repository,
        active.map((run) => run.lane),
      );
      if (!checkedRepository) {
        checkedRepository = true;
        if (page.nameWithOwner.toLowerCase() !== repo.slug.toLowerCase()) {
          notices.push(`GitHub answers for ${repo.slug} with ${page.nameWithOwner} (renamed or transferred)`);
        }
      }
      if (!page.hasDiscussionsEnabled && discussionLane?.walk !== undefined) {
        dropLane(discussionLane);
        notices.push(`${repo.slug} has discussions disabled: discussions skipped`);
      }

      // Which items this page contributes (complete, overflowing connections fetched), and which walks end.
      const taken = takePage(active, page);
      const pageItems = taken.items;
      await completeItems(pageItems, send, repo.slug);

      // One item too large for the store never stops the others (cut to fit, or skipped). Each
      // is reported once: a cut file when it is written, a skipped item when it is newer than the
      // cursor the run started from (the inclusive cursor fetches the newest item again).
      const maxBytes = options.maxFileBytes ?? options.store.capabilities.maxDocumentBytes;
      const fitted = pageItems.map((item) => ({ item, ...toFile(repo, item, maxBytes) }));
      for (const { item, file, notice } of fitted) {
        if (file === undefined && notice !== undefined && item.node.updatedAt > start.cursors[item.lane]) {
          notices.push(notice);
        }
      }
      const outcome = await writeMirrorFiles(
        options.store,
        fitted.flatMap(({ file }) => (file === undefined ? [] : [file])),
        `chore(memory): mirror ${pageItems.length} GitHub item${pageItems.length === 1 ? '' : 's'} of ${repo.slug}`,
      );
      changed.push(...outcome.changed);
      for (const { file, notice } of fitted) {
        if (file !== undefined && notice !== undefined && outcome.changed.includes(file.path)) notices.push(notice);
      }
      unchanged += outcome.unchanged;
      for (const item of pageItems) items[item.lane] += 1;

      // Move the state only now that the files are written.
      const patch = advanceLanes(active, page, taken, options.since !== undefined);
      const activity = outcome.changed.length > 0 ? clock().toISOString() : undefined;
      if (activity !== undefined) lastActivityAt = laterOf(lastActivityAt, activity);
      await state.write({ ...patch, ...(activity === undefined ? {} : { activityAt: activity }), runUrl });
      options.onProgress?.({
        items: { ...items },
        changed: changed.length,
        requests: client.requests(),
        quota: client.quota(),
      });
    }

    vanished = await findVanishedItems({
      store: options.store,
      repo,
      send,
      totals: Object.fromEntries(lanes.map((run) => [run.lane, run.totalCount])) as Partial<
        Record<MirrorLane, number | undefined>
      >,
      known: state.current().extension.vanished,
    });
    const finish: StatePatch = { syncedAt: clock().toISOString(), vanished: vanishedForState(vanished), runUrl };
    await state.write(finish);
    return { status: 'complete', ...summary() };
  } catch (error) {
    if (error instanceof Interrupted) {
      return { status: 'interrupted', reason: error.reason, message: error.message, ...summary() };
    }
    const classified = classifyThrown(error, repo.slug, options.signal?.aborted === true);
    if (classified.kind === 'interrupted') {
      return { status: 'interrupted', reason: classified.reason, message: classified.message, ...summary() };
    }
    throw classified.error;
  }
}
