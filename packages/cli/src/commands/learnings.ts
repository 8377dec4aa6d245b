// Why: `repomem learnings add`: the agent's answer to the post-task learnings prompt (or to the
// self-feedback prompt, `--self-feedback`) becomes knowledge records, deduplicated and
// superseding by subject and scope; the report says what was stored, repeated, replaced or skipped.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type RecordLearningsResult, recordLearnings } from '@repomem/core';
import { booleanOption, type ParsedArguments, parseArguments, stringOption } from '../args.js';
import { type CommandReport, okReport, writeReport } from '../command-report.js';
import { CliDataError, CliUsageError, ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { reportError, wantsJson } from '../report-error.js';
import { chooseRepo } from '../store-selection.js';
import { LEARNINGS_USAGE } from '../usage.js';
import { withTaskRecords } from './task-records-open.js';

const OPTIONS = {
  store: { type: 'string' },
  dir: { type: 'string' },
  repo: { type: 'string' },
  'task-id': { type: 'string' },
  text: { type: 'string' },
  file: { type: 'string' },
  'self-feedback': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

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

/** Run `repomem learnings add ...`; returns the exit code. */
export async function runLearningsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const parsed = parseArguments(argv, OPTIONS);
    if (booleanOption(parsed, 'help')) {
      io.stdout.write(LEARNINGS_USAGE);
      return ExitCode.ok;
    }
    const [action, ...extra] = parsed.positionals;
    if (action !== 'add')
      throw new CliUsageError(
        action === undefined ? 'learnings needs a subcommand (add)' : `unknown learnings subcommand: ${action}`,
      );
    if (extra.length > 0) throw new CliUsageError(`unexpected argument: ${extra[0]}`);
    const repo = chooseRepo(stringOption(parsed, 'repo'), io.env);
    const learnings = await answerOf(parsed, io);
    const taskId = stringOption(parsed, 'task-id');
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
        }),
    );
    return writeReport(describe(result), io, json);
  } catch (error) {
    return reportError(error, io, LEARNINGS_USAGE, json);
  }
}
