// Why: `repomem learnings add`: the agent's answer to the post-task learnings prompt (or to the
// self-feedback prompt, `--self-feedback`) becomes knowledge records, deduplicated and
// superseding by subject and scope; the report says what was stored, repeated, replaced or skipped.
// `repomem learnings list` shows what is stored (the active learnings, `--all` the superseded too).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { knowledgeFromRecord, type RecordLearningsResult, recordLearnings, type StoredKnowledge } from '@repomem/core';
import { type CommandReport, okReport, writeReport } from '../command-report.js';
import { CliDataError, CliUsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { learnedHere } from '../learned-here.js';
import { chooseRepo } from '../store-selection.js';
import { commandRunner } from '../tree/command-runner.js';
import { LEARNINGS } from '../tree/decl/learnings.js';
import type { ArgsOf, CommandRunner } from '../tree/types.js';
import { withTaskRecords } from './task-records-open.js';

type LearningsOptions = ArgsOf<typeof LEARNINGS.options>['options'];

async function answerOf(options: LearningsOptions, io: CliIo): Promise<string> {
  const { text, file } = options;
  if ((text === undefined) === (file === undefined)) throw new CliUsageError('give exactly one of --text or --file');
  if (text !== undefined) return text;
  try {
    return await readFile(resolve(io.cwd, file as string), 'utf8');
  } catch (error) {
    throw new CliDataError('NOT_FOUND', `cannot read ${file}: ${(error as Error).message}`);
  }
}

function describe(result: RecordLearningsResult): CommandReport {
  if (result.kind === 'none') return okReport('none', 'nothing new to record', { outcomes: [], skipped: [] });
  const lines = result.outcomes.map((outcome) => {
    const subject =
      outcome.item.scope === null ? outcome.item.subject : `${outcome.item.subject} (${outcome.item.scope})`;
    if (outcome.kind === 'duplicate') return `duplicate  ${outcome.id}  ${subject}`;
    const replaced = outcome.superseded.length === 0 ? '' : `, supersedes ${outcome.superseded.join(', ')}`;
    return `stored     ${outcome.id}  ${subject}${replaced}`;
  });
  const warnings = result.skipped.map((line) => `skipped (${line.reason}): ${line.line}`);
  return okReport(
    'recorded',
    lines.length === 0 ? 'no learnings found in the answer' : lines.join('\n'),
    { outcomes: result.outcomes, skipped: result.skipped },
    warnings,
  );
}

function learningLine(learning: StoredKnowledge): string {
  const { data } = learning;
  const subject = data.scope === null ? data.subject : `${data.subject} (${data.scope})`;
  const superseded =
    data.status === 'superseded'
      ? ` [superseded${data.superseded_by === undefined ? '' : ` by ${data.superseded_by}`}]`
      : '';
  return `${learning.id}  ${learning.updated_at}  ${subject}: ${data.fact}${superseded}`;
}

/** The stored learnings, newest first: active ones, or every one with `--all`; unreadable records are warnings. */
async function listLearnings(options: LearningsOptions, io: CliIo, repo: string): Promise<CommandReport> {
  const limit = options.limit ?? 50;
  const all = options.all;
  const warnings: string[] = [];
  const records = await withTaskRecords({ store: options.store, dir: options.dir }, io, repo, (backend) =>
    backend.list({ repo, kind: 'knowledge' }),
  );
  const learnings: StoredKnowledge[] = [];
  for (const record of records) {
    try {
      const learning = knowledgeFromRecord(record);
      if (all || learning.data.status === 'active') learnings.push(learning);
    } catch (error) {
      warnings.push(`skipped learning ${record.id}: ${(error as Error).message}`);
    }
    if (learnings.length >= limit) break;
  }
  const text = learnings.length === 0 ? `no learnings for ${repo}` : learnings.map(learningLine).join('\n');
  return okReport('learnings', text, { learnings, ...(warnings.length === 0 ? {} : { warnings }) }, warnings);
}

/** Run `repomem learnings add|list ...`; returns the exit code. */
export const runLearningsCommand: CommandRunner = commandRunner(
  LEARNINGS,
  async ({ options, subcommand: action, positionals }, io) => {
    if (action !== 'add' && action !== 'list')
      throw new CliUsageError(
        action === undefined ? 'learnings needs a subcommand (add, list)' : `unknown learnings subcommand: ${action}`,
      );
    if (positionals.length > 0) throw new CliUsageError(`unexpected argument: ${positionals[0]}`);
    const repo = chooseRepo(options.repo, io);
    if (action === 'list') return writeReport(await listLearnings(options, io, repo), io, options.json);
    const learnings = await answerOf(options, io);
    const taskId = options.taskId;
    const learnedOn = await learnedHere(io, repo);
    const result = await withTaskRecords({ store: options.store, dir: options.dir }, io, repo, (backend) =>
      recordLearnings({
        backend,
        repo,
        learnings,
        insightType: options.selfFeedback ? 'agent_self_feedback' : 'repo_learning',
        ...(taskId === undefined ? {} : { taskId }),
        ...(learnedOn === undefined ? {} : { learnedOn }),
      }),
    );
    return writeReport(describe(result), io, options.json);
  },
  { subcommand: 'own' },
);
