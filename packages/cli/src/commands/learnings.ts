// Why: `repomem learnings add`: the agent's answer to the post-task learnings prompt (or to the
// self-feedback prompt, `--self-feedback`) becomes knowledge records, deduplicated and
// superseding by subject and scope; the report says what was stored, repeated, replaced or skipped.
// `repomem learnings list` shows what is stored (the active learnings, `--all` the superseded too).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { knowledgeFromRecord, type RecordLearningsResult, recordLearnings, type StoredKnowledge } from '@repomem/core';
import { booleanOption, type ParsedArguments, parseArguments, parsePositiveInteger, stringOption } from '../args.js';
import { type CommandReport, okReport, writeReport } from '../command-report.js';
import { CliDataError, CliUsageError, ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { learnedHere } from '../learned-here.js';
import { reportError, wantsJson } from '../report-error.js';
import { chooseRepo } from '../store-selection.js';
import { LEARNINGS } from '../tree/decl/learnings.js';
import { helpText, optionSpecsOf } from '../tree/help.js';
import { withTaskRecords } from './task-records-open.js';

const OPTIONS = optionSpecsOf(LEARNINGS);

async function answerOf(parsed: ParsedArguments, io: CliIo): Promise<string> {
  const text = stringOption(parsed, 'text');
  const file = stringOption(parsed, 'file');
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
async function listLearnings(parsed: ParsedArguments, io: CliIo, repo: string): Promise<CommandReport> {
  const limitText = stringOption(parsed, 'limit');
  const limit = limitText === undefined ? 50 : parsePositiveInteger(limitText, '--limit');
  const all = booleanOption(parsed, 'all');
  const warnings: string[] = [];
  const records = await withTaskRecords(
    { store: stringOption(parsed, 'store'), dir: stringOption(parsed, 'dir') },
    io,
    repo,
    (backend) => backend.list({ repo, kind: 'knowledge' }),
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
export async function runLearningsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const parsed = parseArguments(argv, OPTIONS);
    if (booleanOption(parsed, 'help')) {
      io.stdout.write(helpText(LEARNINGS));
      return ExitCode.ok;
    }
    const [action, ...extra] = parsed.positionals;
    if (action !== 'add' && action !== 'list')
      throw new CliUsageError(
        action === undefined ? 'learnings needs a subcommand (add, list)' : `unknown learnings subcommand: ${action}`,
      );
    if (extra.length > 0) throw new CliUsageError(`unexpected argument: ${extra[0]}`);
    const repo = chooseRepo(stringOption(parsed, 'repo'), io);
    if (action === 'list') return writeReport(await listLearnings(parsed, io, repo), io, json);
    const learnings = await answerOf(parsed, io);
    const taskId = stringOption(parsed, 'task-id');
    const learnedOn = await learnedHere(io, repo);
    const result = await withTaskRecords(
      { store: stringOption(parsed, 'store'), dir: stringOption(parsed, 'dir') },
      io,
      repo,
      (backend) =>
        recordLearnings({
          backend,
          repo,
          learnings,
          insightType: booleanOption(parsed, 'self-feedback') ? 'agent_self_feedback' : 'repo_learning',
          ...(taskId === undefined ? {} : { taskId }),
          ...(learnedOn === undefined ? {} : { learnedOn }),
        }),
    );
    return writeReport(describe(result), io, json);
  } catch (error) {
    return reportError(error, io, helpText(LEARNINGS), json);
  }
}
