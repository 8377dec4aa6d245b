// Why: `repomem episode write|get|list`: the task-end episode from a shell step (an agent's
// wrapper script, a workflow), idempotent by task id and fail-open like the library; `--minimal`
// is the orchestrator's fallback (written only when the task has none). `write --outcome` records a
// pull request's outcome as a webhook delivery would, through core's timestamp ordering.
import {
  type EpisodeInput,
  type EpisodeOutcomeTarget,
  type EpisodeWriteResult,
  ensureEpisode,
  getEpisode,
  listEpisodes,
  recordEpisodeOutcome,
  type StoredEpisode,
  writeEpisode,
} from '@repomem/core';
import { type CommandReport, failedReport, okReport, writeReport } from '../command-report.js';
import { CliUsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { learnedHere } from '../learned-here.js';
import { chooseRepo } from '../store-selection.js';
import { commandRunner } from '../tree/command-runner.js';
import { EPISODE } from '../tree/decl/episode.js';
import type { ArgsOf, CommandRunner } from '../tree/types.js';
import { withTaskRecords } from './task-records-open.js';

type EpisodeOptions = ArgsOf<typeof EPISODE.options>['options'];

function selection(options: EpisodeOptions) {
  return { store: options.store, dir: options.dir };
}

function number(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const parsedNumber = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsedNumber) || parsedNumber < 0) {
    throw new CliUsageError(`--${name} must be a non-negative number, got ${JSON.stringify(value)}`);
  }
  return parsedNumber;
}

function episodeInput(options: EpisodeOptions): EpisodeInput {
  const taskId = options.taskId;
  const status = options.status;
  if (taskId === undefined || status === undefined) throw new CliUsageError('--task-id and --status are required');
  const files = options.file;
  const optional: Record<string, unknown> = {
    description: options.description,
    pr_url: options.prUrl,
    pr_number: options.prNumber,
    branch: options.branch,
    files_changed: files.length > 0 ? [...files] : undefined,
    cost_usd: number(options.cost, 'cost'),
    duration_s: number(options.duration, 'duration'),
    approach: options.approach,
    difficulties: options.difficulties,
    self_feedback: options.selfFeedback,
    prompt_version: options.promptVersion,
    user: options.user,
  };
  const defined = Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined));
  return { task_id: taskId, status: status as EpisodeInput['status'], ...defined };
}

function episodeLine(episode: StoredEpisode): string {
  const data = episode.data;
  const outcome = data.outcome === null ? '' : `, ${data.outcome}`;
  const summary = data.description ?? data.approach ?? '';
  return `${episode.id}  ${data.status}${outcome}${data.minimal ? ' (minimal)' : ''}  ${episode.updated_at}  ${summary}`.trimEnd();
}

function describeWrite(result: EpisodeWriteResult): CommandReport {
  if (result.kind === 'failed') {
    return failedReport(
      'failed',
      `episode not written after ${result.attempts} attempts (${result.failure.category}): ${result.failure.message}`,
      { failure: result.failure, attempts: result.attempts },
    );
  }
  const verb = result.kind === 'written' ? 'written' : 'unchanged';
  return okReport(result.kind, `episode ${result.episode.id} ${verb} (revision ${result.episode.revision})`, {
    episode: result.episode,
    attempts: result.attempts,
  });
}

/** The task-end fields `write --outcome` does not take (an outcome signal changes only the outcome). */
const EPISODE_FIELDS = [
  'status',
  'description',
  'branch',
  'file',
  'cost',
  'duration',
  'approach',
  'difficulties',
  'self-feedback',
  'prompt-version',
  'user',
  'minimal',
] as const;

/** `write --outcome merged|closed`: the pull request's outcome on the episodes that opened it. */
async function writeOutcome(
  options: EpisodeOptions,
  given: ReadonlySet<string>,
  io: CliIo,
  repo: string,
): Promise<CommandReport> {
  const outcome = options.outcome;
  if (outcome !== 'merged' && outcome !== 'closed') {
    throw new CliUsageError(`--outcome must be merged or closed, got ${JSON.stringify(outcome ?? '')}`);
  }
  const extra = EPISODE_FIELDS.find((name) => given.has(name));
  if (extra !== undefined) throw new CliUsageError(`--outcome records only the outcome: drop --${extra}`);
  const taskId = options.taskId;
  const prUrl = options.prUrl;
  const prNumber = options.prNumber;
  const targets: EpisodeOutcomeTarget[] = [];
  if (taskId !== undefined) targets.push({ taskId });
  // As the webhook does: the pull request's URL first, then its number.
  if (prUrl !== undefined) targets.push({ prUrl });
  if (prNumber !== undefined) targets.push({ prNumber });
  if (targets.length === 0) throw new CliUsageError('--outcome needs --pr-number, --pr-url or --task-id');
  if (taskId !== undefined && targets.length > 1) {
    throw new CliUsageError('--task-id names one episode: give it without --pr-number and --pr-url');
  }
  const eventAt = options.at;
  if (eventAt !== undefined && Number.isNaN(Date.parse(eventAt))) {
    throw new CliUsageError(
      `--at must be an ISO 8601 time (the pull request's mergedAt or closedAt), got ${JSON.stringify(eventAt)}`,
    );
  }
  const merged = outcome === 'merged';
  const result = await withTaskRecords(selection(options), io, repo, async (backend) => {
    for (const target of targets) {
      const recorded = await recordEpisodeOutcome({
        backend,
        repo,
        target,
        merged,
        ...(eventAt === undefined ? {} : { eventAt }),
      });
      if (recorded.kind === 'recorded') return recorded;
    }
    return { kind: 'not_found' as const };
  });
  const signal = merged ? 'positive' : 'negative';
  const what = taskId !== undefined ? `task ${taskId}` : `pull request ${prUrl ?? `#${prNumber}`}`;
  if (result.kind === 'not_found') {
    return failedReport('not_found', `no episode for ${what} in ${repo}`, {
      ...(taskId === undefined ? {} : { task_id: taskId }),
      ...(prUrl === undefined ? {} : { pr_url: prUrl }),
      ...(prNumber === undefined ? {} : { pr_number: prNumber }),
    });
  }
  const lines = result.episodes.map((episode) =>
    result.stale.includes(episode.id)
      ? `episode ${episode.id} kept ${episode.data.outcome} (a newer pull request state is recorded)`
      : `episode ${episode.id} ${episode.data.outcome === signal ? signal : `kept ${episode.data.outcome}`}`,
  );
  return okReport('recorded', lines.join('\n'), { outcome: signal, episodes: result.episodes, stale: result.stale });
}

async function run(
  action: string | undefined,
  options: EpisodeOptions,
  given: ReadonlySet<string>,
  io: CliIo,
): Promise<CommandReport> {
  const repo = chooseRepo(options.repo, io);
  switch (action) {
    case 'write': {
      if (options.outcome !== undefined) return writeOutcome(options, given, io, repo);
      if (options.at !== undefined) throw new CliUsageError('--at goes with --outcome');
      const episode = episodeInput(options);
      const strict = options.strict;
      const learnedOn = await learnedHere(io, repo);
      const learned = learnedOn === undefined ? {} : { learnedOn };
      return describeWrite(
        await withTaskRecords(selection(options), io, repo, (backend) =>
          options.minimal
            ? ensureEpisode({ backend, repo, episode, strict, ...learned })
            : writeEpisode({ backend, repo, episode, strict, ...learned }),
        ),
      );
    }
    case 'get': {
      const taskId = options.taskId;
      if (taskId === undefined) throw new CliUsageError('--task-id is required');
      const episode = await withTaskRecords(selection(options), io, repo, (backend) =>
        getEpisode(backend, repo, taskId),
      );
      if (episode === undefined) return failedReport('not_found', `no episode for task ${taskId}`, { task_id: taskId });
      return okReport('episode', JSON.stringify(episode.data, null, 2), { episode });
    }
    case 'list': {
      const limit = options.limit ?? 20;
      const warnings: string[] = [];
      const episodes = await withTaskRecords(selection(options), io, repo, (backend) =>
        listEpisodes(backend, repo, {
          limit,
          onSkipped: ({ id, error }) =>
            warnings.push(`skipped episode ${id}: ${error instanceof Error ? error.message : String(error)}`),
        }),
      );
      const text = episodes.length === 0 ? `no episodes for ${repo}` : episodes.map(episodeLine).join('\n');
      return okReport('episodes', text, { episodes, ...(warnings.length === 0 ? {} : { warnings }) }, warnings);
    }
    default:
      throw new CliUsageError(
        action === undefined
          ? 'episode needs a subcommand (write, get, list)'
          : `unknown episode subcommand: ${action}`,
      );
  }
}

/** Run `repomem episode <write|get|list> ...`; returns the exit code. */
export const runEpisodeCommand: CommandRunner = commandRunner(
  EPISODE,
  async ({ options, subcommand, positionals, given }, io) => {
    if (positionals.length > 0) throw new CliUsageError(`unexpected argument: ${positionals[0]}`);
    return writeReport(await run(subcommand, options, given, io), io, options.json);
  },
  { subcommand: 'own' },
);
