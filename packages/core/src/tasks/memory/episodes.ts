// Why: seed phase 3 and its orchestrator fallback: the agent writes an episode at task end,
// idempotent by task id and retried on transient failures; if it wrote none, the orchestrator
// writes a minimal one; later a merged or closed pull request marks it positive or negative, so
// hydration can prefer approaches that worked. A memory failure never fails the task.
import { RepomemError } from '../../errors.js';
import { type LearnedOnInput, parseLearnedOnOption } from '../../verified/learned-on.js';
import type { TaskRecord, TaskRecordBackend } from '../record-backend.js';
import { assertTaskRecordId, assertTaskRecordRepo } from '../record-rules.js';
import {
  type EpisodeData,
  EpisodeDataSchema,
  type EpisodeInput,
  EpisodeInputSchema,
  type EpisodeOutcome,
  episodeFromRecord,
  episodeSearchText,
  fitEpisode,
  type StoredEpisode,
} from './episode-record.js';
import type { MemoryFailure } from './failure.js';
import { type RecordDecision, updateRecord } from './record-update.js';
import { type WriteRetryOptions, withWriteRetries } from './retry.js';

/** Options shared by the episode writers. */
export interface EpisodeWriteOptions extends WriteRetryOptions {
  /** Where episodes live. */
  readonly backend: TaskRecordBackend;
  /** Repository `owner/name`. */
  readonly repo: string;
  /**
   * Commit and branch of the task (see `resolveLearnedOn`), recorded on the episode (replacing
   * what a rewrite had); absent = kept as stored, or the default branch's scope for a new one.
   */
  readonly learnedOn?: LearnedOnInput;
  /** Clock (tests). */
  readonly now?: () => Date;
  /** Throw the last failure instead of returning it (default `false`: fail open). */
  readonly strict?: boolean;
}

/** Outcome of {@link writeEpisode} and {@link ensureEpisode}. */
export type EpisodeWriteResult =
  /** Written (created, or updated with new information). */
  | { readonly kind: 'written'; readonly episode: StoredEpisode; readonly attempts: number }
  /** Already stored as given (or a full episode exists and this was a minimal one). */
  | { readonly kind: 'unchanged'; readonly episode: StoredEpisode; readonly attempts: number }
  /** Not written: the last failure, after the retries a transient failure gets. */
  | { readonly kind: 'failed'; readonly failure: MemoryFailure; readonly attempts: number };

function parseInput(input: EpisodeInput): ReturnType<typeof EpisodeInputSchema.parse> {
  const parsed = EpisodeInputSchema.safeParse(input);
  if (!parsed.success) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `invalid episode: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

function sameData(a: EpisodeData, b: EpisodeData): boolean {
  return JSON.stringify({ ...a, written_at: '' }) === JSON.stringify({ ...b, written_at: '' });
}

async function write(options: EpisodeWriteOptions, input: EpisodeInput, minimal: boolean): Promise<EpisodeWriteResult> {
  assertTaskRecordRepo(options.repo);
  const episode = parseInput(input);
  const learnedOn = parseLearnedOnOption(options.learnedOn);
  const now = options.now ?? (() => new Date());
  let receiptId = episode.receipt_id;
  const decide = (current: TaskRecord | undefined): RecordDecision => {
    // A stored record that is not a valid episode is rewritten, never a reason to fail.
    const parsedStored = current === undefined ? undefined : EpisodeDataSchema.safeParse(current.data);
    const stored = parsedStored?.success === true ? parsedStored.data : undefined;
    if (stored !== undefined && minimal) return 'unchanged';
    const base: EpisodeData = stored?.minimal === false ? stored : ({} as EpisodeData);
    const merged: EpisodeData = fitEpisode(
      {
        ...base,
        ...episode,
        ...(receiptId === undefined ? {} : { receipt_id: receiptId }),
        files_omitted: 0,
        minimal,
        outcome: stored?.outcome ?? null,
        ...(stored?.outcome_at === undefined ? {} : { outcome_at: stored.outcome_at }),
        ...(stored?.outcome_event_at === undefined ? {} : { outcome_event_at: stored.outcome_event_at }),
        written_at: stored?.written_at ?? now().toISOString(),
        ...(learnedOn === undefined ? {} : { learned_on: learnedOn }),
      },
      options.repo,
    );
    if (stored !== undefined && sameData(stored, merged)) return 'unchanged';
    return { text: episodeSearchText(merged), data: merged };
  };
  const outcome = await withWriteRetries(async () => {
    // Link the task's context receipt, when one was recorded, so an outcome can be traced to it.
    if (receiptId === undefined && !minimal) {
      const receipt = await options.backend.get(options.repo, 'receipt', episode.task_id);
      if (receipt !== undefined) receiptId = episode.task_id;
    }
    return updateRecord(options.backend, { repo: options.repo, kind: 'episode', id: episode.task_id }, decide, now);
  }, options);
  if (!outcome.ok) {
    if (options.strict === true) throw outcome.error;
    return { kind: 'failed', failure: outcome.failure, attempts: outcome.attempts };
  }
  const { record, changed } = outcome.value;
  if (record === undefined) throw new RepomemError('CONFLICT', `episode ${episode.task_id} vanished while written`);
  return { kind: changed ? 'written' : 'unchanged', episode: episodeFromRecord(record), attempts: outcome.attempts };
}

/**
 * Write the task's episode at task end. Idempotent by task id: writing the same episode again
 * changes nothing (`unchanged`); writing more information updates it (fields given replace
 * stored ones, fields omitted are kept); a minimal episode written earlier by
 * {@link ensureEpisode} is replaced; an outcome signal already recorded is kept. Transient
 * failures are retried (up to 3 attempts, 200 ms then 400 ms apart); the call returns `failed`
 * rather than throwing unless `strict`.
 *
 * @throws RepomemError `INVALID_ARGUMENT` for an invalid episode or repository (always: that is misuse).
 */
export function writeEpisode(
  options: EpisodeWriteOptions & { readonly episode: EpisodeInput },
): Promise<EpisodeWriteResult> {
  return write(options, options.episode, false);
}

/**
 * The orchestrator's fallback: write a minimal episode (status, duration, cost...) only when the
 * task has none (the agent crashed, timed out or ran out of memory before writing one). An
 * existing episode is left as it is (`unchanged`). Same retries and fail-open rule as
 * {@link writeEpisode}.
 */
export function ensureEpisode(
  options: EpisodeWriteOptions & { readonly episode: EpisodeInput },
): Promise<EpisodeWriteResult> {
  return write(options, options.episode, true);
}

/** Which episode an outcome signal is for: a task id, or the pull request the task opened. */
export type EpisodeOutcomeTarget =
  | { readonly taskId: string }
  | { readonly prNumber: number }
  | { readonly prUrl: string };

/** Outcome of {@link recordEpisodeOutcome}. */
export type EpisodeOutcomeResult =
  | {
      readonly kind: 'recorded';
      /** The episodes as stored after the call. */
      readonly episodes: readonly StoredEpisode[];
      /** Task ids whose stored outcome comes from a newer state than this signal's (left as they are). */
      readonly stale: readonly string[];
    }
  | { readonly kind: 'not_found' };

/**
 * Whether a signal of `outcome` from a state at `eventMs` replaces the stored outcome: never
 * when the stored state is newer; at the same instant only a merge (merged is final: a merged
 * pull request cannot be reopened), so the result does not depend on the arrival order.
 */
function replacesOutcome(data: EpisodeData, outcome: EpisodeOutcome, eventMs: number): boolean {
  if (data.outcome === null) return true;
  const storedAt = data.outcome_event_at ?? data.outcome_at;
  const storedMs = storedAt === undefined ? Number.NEGATIVE_INFINITY : Date.parse(storedAt);
  if (eventMs !== storedMs) return eventMs > storedMs;
  return data.outcome !== outcome && outcome === 'positive';
}

function eventTime(eventAt: string | undefined, now: () => Date): { iso: string; ms: number } {
  if (eventAt === undefined) {
    const at = now();
    return { iso: at.toISOString(), ms: at.getTime() };
  }
  const ms = Date.parse(eventAt);
  if (typeof eventAt !== 'string' || Number.isNaN(ms)) {
    throw new RepomemError('INVALID_ARGUMENT', `eventAt must be an ISO 8601 timestamp, got ${JSON.stringify(eventAt)}`);
  }
  return { iso: new Date(ms).toISOString(), ms };
}

/**
 * Record a pull request's outcome on the episodes of the tasks that opened it: `merged` marks
 * them `positive`, closed without merge `negative`. Signals are ordered by `eventAt`, the time
 * of the pull request state they report (a webhook's `closed_at` / `updated_at`; default: now):
 * a signal older than the stored one changes nothing (its task id is returned in `stale`), so a
 * replayed or late delivery never rewrites history, and a reopened and merged pull request ends
 * positive whatever order the events arrive in. Finding by pull request scans the repository's
 * episodes.
 */
export async function recordEpisodeOutcome(options: {
  readonly backend: TaskRecordBackend;
  readonly repo: string;
  readonly target: EpisodeOutcomeTarget;
  readonly merged: boolean;
  /** ISO 8601 time of the state this signal reports (default: now). */
  readonly eventAt?: string;
  readonly now?: () => Date;
}): Promise<EpisodeOutcomeResult> {
  const { backend, repo, target } = options;
  assertTaskRecordRepo(repo);
  const now = options.now ?? (() => new Date());
  const event = eventTime(options.eventAt, now);
  let ids: string[];
  if ('taskId' in target) {
    assertTaskRecordId(target.taskId);
    ids = [target.taskId];
  } else {
    const all = await backend.list({ repo, kind: 'episode' });
    ids = all
      .filter((record) => {
        // A record that is not a valid episode is not this pull request's (and never stops the others).
        const parsed = EpisodeDataSchema.safeParse(record.data);
        if (!parsed.success) return false;
        const data = parsed.data;
        return 'prNumber' in target ? data.pr_number === target.prNumber : data.pr_url === target.prUrl;
      })
      .map((record) => record.id);
  }
  const outcome: EpisodeOutcome = options.merged ? 'positive' : 'negative';
  const episodes: StoredEpisode[] = [];
  const stale: string[] = [];
  for (const id of ids) {
    let older = false;
    const { record } = await updateRecord(
      backend,
      { repo, kind: 'episode', id },
      (current) => {
        older = false;
        const parsed = current === undefined ? undefined : EpisodeDataSchema.safeParse(current.data);
        if (current === undefined || parsed?.success !== true) return 'unchanged';
        const data = parsed.data;
        if (!replacesOutcome(data, outcome, event.ms)) {
          older = data.outcome !== outcome;
          return 'unchanged';
        }
        // The same outcome again: only a newer, explicitly timed state moves its time.
        if (data.outcome === outcome && (options.eventAt === undefined || data.outcome_event_at === event.iso)) {
          return 'unchanged';
        }
        const next: EpisodeData = { ...data, outcome, outcome_at: now().toISOString(), outcome_event_at: event.iso };
        return { text: current.text, data: next };
      },
      now,
    );
    if (older) stale.push(id);
    if (record !== undefined && EpisodeDataSchema.safeParse(record.data).success) {
      episodes.push(episodeFromRecord(record));
    }
  }
  return episodes.length === 0 ? { kind: 'not_found' } : { kind: 'recorded', episodes, stale };
}

/** One episode by task id, or `undefined`. */
export async function getEpisode(
  backend: TaskRecordBackend,
  repo: string,
  taskId: string,
): Promise<StoredEpisode | undefined> {
  const record = await backend.get(repo, 'episode', taskId);
  return record === undefined ? undefined : episodeFromRecord(record);
}

/**
 * The repository's episodes, newest first (default limit 20). A record whose data is not a
 * valid episode is left out and handed to `onSkipped` (one bad record never hides the others).
 */
export async function listEpisodes(
  backend: TaskRecordBackend,
  repo: string,
  options: {
    readonly limit?: number;
    readonly onSkipped?: (skipped: { readonly id: string; readonly error: unknown }) => void;
  } = {},
): Promise<StoredEpisode[]> {
  const records = await backend.list({ repo, kind: 'episode', limit: options.limit ?? 20 });
  const episodes: StoredEpisode[] = [];
  for (const record of records) {
    try {
      episodes.push(episodeFromRecord(record));
    } catch (error) {
      options.onSkipped?.({ id: record.id, error });
    }
  }
  return episodes;
}
