// Why: a task episode (seed phase 3: what was done, how it went, what was hard) is the record
// hydration ranks "similar past tasks" by, and the one outcome signals (merged or closed PR)
// land on. One schema keeps the agent's write, the orchestrator's fallback, the webhook's
// outcome and hydration's read in agreement.
import { z } from 'zod';
import { HttpUrlSchema, LoginSchema } from '../../envelope/fields.js';
import { RepomemError } from '../../errors.js';
import { LEARNED_ON_FIELDS } from '../../verified/learned-on.js';
import { MAX_SERIALIZED_TASK_RECORD_CHARS, type TaskRecord, TaskRecordIdSchema } from '../record-backend.js';

/** How a task ended. */
export const EPISODE_STATUSES = ['completed', 'failed', 'cancelled', 'timed_out'] as const;
/** Zod schema of an episode status. */
export const EpisodeStatusSchema = z.enum(EPISODE_STATUSES);
/** How a task ended. */
export type EpisodeStatus = z.infer<typeof EpisodeStatusSchema>;

/** Outcome signal of a task's pull request: merged = positive, closed without merge = negative. */
export const EpisodeOutcomeSchema = z.enum(['positive', 'negative']);
/** Outcome signal of a task's pull request. */
export type EpisodeOutcome = z.infer<typeof EpisodeOutcomeSchema>;

/** Most changed files kept on an episode (more are counted in `files_omitted`). */
export const MAX_EPISODE_FILES = 100;

const IsoTime = z.iso.datetime({ offset: true, message: 'expected an ISO 8601 timestamp' });
const text = (max: number) => z.string().trim().min(1).max(max);

/** Zod schema of what a caller writes at task end (the agent, or the orchestrator's fallback). */
export const EpisodeInputSchema = z.object({
  /** Task id (the record id). */
  task_id: TaskRecordIdSchema,
  /** How the task ended. */
  status: EpisodeStatusSchema,
  /** The task description, or its first lines. */
  description: text(1000).optional(),
  /** Pull request opened by the task. */
  pr_url: HttpUrlSchema.optional(),
  /** Pull request number. */
  pr_number: z.number().int().min(1).optional(),
  /** Branch the task pushed. */
  branch: text(200).optional(),
  /** Files the task changed (repository-relative). */
  files_changed: z.array(text(300)).optional(),
  /** Cost in US dollars. */
  cost_usd: z.number().min(0).optional(),
  /** Wall time in seconds. */
  duration_s: z.number().min(0).optional(),
  /** The approach taken. */
  approach: text(2000).optional(),
  /** Difficulties met. */
  difficulties: text(2000).optional(),
  /** The agent's self-feedback (missing context). */
  self_feedback: text(2000).optional(),
  /** Prompt version of the run (`sha256:...`). */
  prompt_version: text(100).optional(),
  /** Login of the user who submitted the task. */
  user: LoginSchema.optional(),
  /** Id of the context receipt of the run (default: the task id when a receipt was recorded). */
  receipt_id: TaskRecordIdSchema.optional(),
});
/** What a caller writes at task end, as written. */
export type EpisodeInput = z.input<typeof EpisodeInputSchema>;

/** Zod schema of the `data` of an `episode` task record. */
export const EpisodeDataSchema = EpisodeInputSchema.extend({
  /** Files beyond {@link MAX_EPISODE_FILES} (or dropped to fit the record size). */
  files_omitted: z.number().int().min(0).default(0),
  /** Written by `ensureEpisode` (the orchestrator's fallback) rather than by the agent. */
  minimal: z.boolean(),
  /** Outcome signal, once the pull request was merged or closed. */
  outcome: EpisodeOutcomeSchema.nullable().default(null),
  /** When the outcome was recorded. */
  outcome_at: IsoTime.optional(),
  /**
   * The time of the state the outcome comes from (the pull request's own `closed_at` /
   * `updated_at`): an older state never replaces a newer one, whatever the arrival order.
   */
  outcome_event_at: IsoTime.optional(),
  /** When the episode was first written. */
  written_at: IsoTime,
  ...LEARNED_ON_FIELDS,
});
/** The `data` of an `episode` task record. */
export type EpisodeData = z.output<typeof EpisodeDataSchema>;

/** A stored episode with typed data. */
export interface StoredEpisode {
  /** Task id. */
  readonly id: string;
  /** Record revision. */
  readonly revision: number;
  /** Last write. */
  readonly updated_at: string;
  /** Validated data. */
  readonly data: EpisodeData;
}

/** Searchable text of an episode: description, approach, difficulties, self-feedback, files, branch. */
export function episodeSearchText(data: EpisodeData): string {
  return [
    data.description,
    data.approach,
    data.difficulties,
    data.self_feedback,
    data.branch,
    ...(data.files_changed ?? []),
  ]
    .filter((part): part is string => part !== undefined)
    .join('\n');
}

/** Typed episode of a record; `INVALID_DOCUMENT` when its data does not match the schema. */
export function episodeFromRecord(record: TaskRecord): StoredEpisode {
  const parsed = EpisodeDataSchema.safeParse(record.data);
  if (record.kind !== 'episode' || !parsed.success) {
    throw new RepomemError('INVALID_DOCUMENT', `record ${record.kind}/${record.id} is not a valid episode`, {
      details: { id: record.id },
    });
  }
  return { id: record.id, revision: record.revision, updated_at: record.updated_at, data: parsed.data };
}

/**
 * `data` trimmed to fit one task record: files beyond {@link MAX_EPISODE_FILES}, then from the
 * end until the serialised record fits, are dropped and counted in `files_omitted`.
 */
export function fitEpisode(data: EpisodeData, repo: string): EpisodeData {
  let fitted = data;
  const files = data.files_changed ?? [];
  if (files.length > MAX_EPISODE_FILES) {
    fitted = {
      ...fitted,
      files_changed: files.slice(0, MAX_EPISODE_FILES),
      files_omitted: data.files_omitted + files.length - MAX_EPISODE_FILES,
    };
  }
  const size = (candidate: EpisodeData): number =>
    JSON.stringify({
      kind: 'episode',
      repo,
      id: candidate.task_id,
      revision: 1_000_000,
      updated_at: '2026-01-01T00:00:00.000Z',
      text: episodeSearchText(candidate),
      data: candidate,
    }).length;
  while (size(fitted) > MAX_SERIALIZED_TASK_RECORD_CHARS && (fitted.files_changed?.length ?? 0) > 0) {
    const kept = fitted.files_changed ?? [];
    fitted = { ...fitted, files_changed: kept.slice(0, -1), files_omitted: fitted.files_omitted + 1 };
  }
  return fitted;
}
