// Why: `repomem rules extract|parse|list|approve|reject|supersede`: thin wiring from arguments to core's
// review-rule library over the chosen store's task records. Wording lives in rules-report.ts.
import { execFileSync } from 'node:child_process';
import {
  approveRule,
  buildRuleExtractionPrompt,
  extractReviewRules,
  feedbackFromWebhook,
  listRules,
  manualRuleCandidate,
  parseAuthorAssociation,
  parseRuleOutput,
  type ReviewEventName,
  RULE_EXTRACTION_PROMPT_VERSION,
  RULE_STATUSES,
  type RuleStatus,
  rejectRule,
  saveRules,
  supersedeRule,
  type TaskRecordBackend,
} from '@repomem/core';
import { booleanOption, type ParsedArguments, parseArguments, parsePositiveInteger, stringOption } from '../args.js';
import { writeReport } from '../command-report.js';
import { CliDataError, CliUsageError, ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { reportError, wantsJson } from '../report-error.js';
import { chooseRepo } from '../store-selection.js';
import { RULES } from '../tree/decl/rules.js';
import { helpText, optionSpecsOf } from '../tree/help.js';
import { commandModel, openTaskRecords, readInput, readJsonInput } from './rules-input.js';
import {
  describeExtract,
  describeParsed,
  describeRuleDecision,
  describeRuleList,
  describeSupersedeRule,
} from './rules-report.js';

const OPTIONS = optionSpecsOf(RULES);

function required(parsed: ParsedArguments, name: string): string {
  const value = stringOption(parsed, name);
  if (value === undefined || value === '') throw new CliUsageError(`--${name} is required`);
  return value;
}

function selection(parsed: ParsedArguments) {
  return { store: stringOption(parsed, 'store'), dir: stringOption(parsed, 'dir') };
}

async function withRecords<T>(
  parsed: ParsedArguments,
  io: CliIo,
  repo: string,
  readOnly: boolean,
  use: (records: TaskRecordBackend) => Promise<T>,
): Promise<T> {
  const records = await openTaskRecords(selection(parsed), io, repo, readOnly);
  try {
    return await use(records);
  } finally {
    await records.close();
  }
}

function eventNameOf(parsed: ParsedArguments, io: CliIo, payload: unknown): ReviewEventName {
  const given = stringOption(parsed, 'event-name') ?? io.env.GITHUB_EVENT_NAME;
  if (given === 'pull_request_review' || given === 'pull_request_review_comment') return given;
  if (given !== undefined && given !== '') {
    throw new CliDataError(
      'UNSUPPORTED',
      `event ${given} is not a review event (pull_request_review, pull_request_review_comment)`,
    );
  }
  const object = typeof payload === 'object' && payload !== null ? payload : {};
  if ('review' in object) return 'pull_request_review';
  if ('comment' in object) return 'pull_request_review_comment';
  throw new CliUsageError('cannot tell the event name: pass --event-name');
}

async function runExtract(parsed: ParsedArguments, io: CliIo, json: boolean): Promise<number> {
  const eventPath = stringOption(parsed, 'event') ?? io.env.GITHUB_EVENT_PATH;
  if (eventPath === undefined || eventPath === '')
    throw new CliUsageError('--event <file> (or $GITHUB_EVENT_PATH) is required');
  const payload = await readJsonInput(eventPath, io, 'event');
  const event = eventNameOf(parsed, io, payload);
  const read = feedbackFromWebhook(event, payload);
  if (read.kind === 'invalid')
    throw new CliDataError('INVALID_DOCUMENT', `the ${event} payload is invalid: ${read.message}`);
  if (read.kind === 'ignored') {
    return writeReport(
      {
        exitCode: ExitCode.ok,
        stream: 'stdout',
        text: `ignored: ${read.reason}`,
        json: { ok: true, outcome: 'ignored', reason: read.reason },
      },
      io,
      json,
    );
  }
  const { feedback } = read;
  const repoOption = stringOption(parsed, 'repo');
  if (repoOption !== undefined && repoOption.toLowerCase() !== feedback.repo.toLowerCase()) {
    throw new CliUsageError(`--repo ${repoOption} does not match the event's repository ${feedback.repo}`);
  }
  if (booleanOption(parsed, 'print-prompt')) {
    const prompt = buildRuleExtractionPrompt(feedback);
    if (json)
      io.stdout.write(
        `${JSON.stringify({ ok: true, outcome: 'prompt', repo: feedback.repo, pr: feedback.pr, prompt_version: prompt.promptVersion, prompt: prompt.text })}\n`,
      );
    else io.stdout.write(`${prompt.text}\n`);
    return ExitCode.ok;
  }
  const command = stringOption(parsed, 'model-command');
  const outputFile = stringOption(parsed, 'model-output');
  if ((command === undefined) === (outputFile === undefined)) {
    throw new CliUsageError('give exactly one of --model-command, --model-output or --print-prompt');
  }
  const model =
    command !== undefined
      ? commandModel(command, io)
      : async () => new TextDecoder().decode(await readInput(outputFile, io, 'model output'));
  const result = await withRecords(parsed, io, feedback.repo, false, (backend) =>
    extractReviewRules({
      feedback,
      model,
      backend,
      allowReviewersWithoutWriteAccess: booleanOption(parsed, 'allow-without-write-access'),
    }),
  );
  return writeReport(describeExtract(feedback.repo, feedback.pr, result), io, json);
}

async function runParse(parsed: ParsedArguments, io: CliIo, json: boolean): Promise<number> {
  const pr = parsePositiveInteger(required(parsed, 'pr'), '--pr');
  const reviewer = required(parsed, 'reviewer');
  let association: ReturnType<typeof parseAuthorAssociation>;
  try {
    association = parseAuthorAssociation(required(parsed, 'association'));
  } catch {
    throw new CliUsageError(
      `--association must be one of OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, FIRST_TIME_CONTRIBUTOR, FIRST_TIMER, MANNEQUIN, NONE`,
    );
  }
  const repo = chooseRepo(stringOption(parsed, 'repo'), io);
  const promptVersion = stringOption(parsed, 'prompt-version') ?? RULE_EXTRACTION_PROMPT_VERSION;
  const output = new TextDecoder().decode(await readInput(stringOption(parsed, 'input'), io, 'model output'));
  let result: ReturnType<typeof parseRuleOutput>;
  try {
    result = parseRuleOutput(
      output,
      { repo, pr, reviewer, association, extracted_at: new Date().toISOString(), prompt_version: promptVersion },
      { allowReviewersWithoutWriteAccess: booleanOption(parsed, 'allow-without-write-access') },
    );
  } catch (error) {
    throw new CliUsageError(`invalid --pr, --reviewer or --prompt-version: ${(error as Error).message}`);
  }
  const toSave = [...result.accepted, ...result.pending];
  const saved =
    booleanOption(parsed, 'save') && toSave.length > 0
      ? await withRecords(parsed, io, repo, false, (backend) => saveRules(backend, repo, toSave))
      : undefined;
  return writeReport(describeParsed(repo, promptVersion, result, saved), io, json);
}

async function runList(parsed: ParsedArguments, io: CliIo, json: boolean): Promise<number> {
  const repo = chooseRepo(stringOption(parsed, 'repo'), io);
  const pendingOnly = booleanOption(parsed, 'pending');
  if (pendingOnly && stringOption(parsed, 'status') !== undefined)
    throw new CliUsageError('give --pending or --status, not both');
  const status = pendingOnly ? 'pending' : (stringOption(parsed, 'status') ?? 'active');
  if (status !== 'all' && !(RULE_STATUSES as readonly string[]).includes(status)) {
    throw new CliUsageError(`--status must be one of ${RULE_STATUSES.join(', ')}, all`);
  }
  const limitText = stringOption(parsed, 'limit');
  const limit = limitText === undefined ? undefined : parsePositiveInteger(limitText, '--limit');
  const rules = await withRecords(parsed, io, repo, true, (backend) =>
    listRules(backend, repo, {
      ...(status === 'all' ? {} : { status: status as RuleStatus }),
      ...(limit === undefined ? {} : { limit }),
    }),
  );
  return writeReport(describeRuleList(repo, rules), io, json);
}

async function runSupersede(parsed: ParsedArguments, io: CliIo, json: boolean): Promise<number> {
  const repo = chooseRepo(stringOption(parsed, 'repo'), io);
  const id = required(parsed, 'id');
  const reason = required(parsed, 'reason');
  const text = stringOption(parsed, 'rule');
  const scope = stringOption(parsed, 'scope');
  if (text === undefined && scope !== undefined) throw new CliUsageError('--scope needs --rule');
  const author = stringOption(parsed, 'author') ?? io.env.GITHUB_ACTOR ?? 'local';
  const replacement =
    text === undefined
      ? undefined
      : manualRuleCandidate({ rule: text, author, ...(scope === undefined ? {} : { scope }) });
  const outcome = await withRecords(parsed, io, repo, false, (backend) =>
    supersedeRule(backend, repo, id, replacement, reason),
  );
  return writeReport(describeSupersedeRule(repo, outcome), io, json);
}

/** Who decides: --by, else $GITHUB_ACTOR, else the git identity's name. */
function decider(parsed: ParsedArguments, io: CliIo): string {
  const given = stringOption(parsed, 'by') ?? io.env.GITHUB_ACTOR;
  if (given !== undefined && given.trim() !== '') return given.trim();
  try {
    const name = execFileSync('git', ['config', 'user.name'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    if (name.trim() !== '') return name.trim();
  } catch {
    // no git identity: asked for below
  }
  throw new CliUsageError('say who decides: --by <login> (or set $GITHUB_ACTOR or git config user.name)');
}

async function runDecision(
  parsed: ParsedArguments,
  io: CliIo,
  json: boolean,
  action: 'approve' | 'reject',
  id: string | undefined,
): Promise<number> {
  if (id === undefined || id === '') throw new CliUsageError(`rules ${action} needs a rule id`);
  const repo = chooseRepo(stringOption(parsed, 'repo'), io);
  const note = stringOption(parsed, 'reason');
  const decision = { by: decider(parsed, io), ...(note === undefined ? {} : { note }) };
  const outcome = await withRecords(parsed, io, repo, false, (backend) =>
    action === 'approve' ? approveRule(backend, repo, id, decision) : rejectRule(backend, repo, id, decision),
  );
  return writeReport(describeRuleDecision(repo, outcome), io, json);
}

/** Run `repomem rules <extract|parse|list|approve|reject|supersede> ...`; returns the exit code. */
export async function runRulesCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const parsed = parseArguments(argv, OPTIONS);
    if (booleanOption(parsed, 'help')) {
      io.stdout.write(helpText(RULES));
      return ExitCode.ok;
    }
    const [action, ...extra] = parsed.positionals;
    const takesId = action === 'approve' || action === 'reject';
    if (extra.length > (takesId ? 1 : 0)) throw new CliUsageError(`unexpected argument: ${extra[takesId ? 1 : 0]}`);
    switch (action) {
      case 'approve':
      case 'reject':
        return await runDecision(parsed, io, json, action, extra[0] ?? stringOption(parsed, 'id'));
      case 'extract':
        return await runExtract(parsed, io, json);
      case 'parse':
        return await runParse(parsed, io, json);
      case 'list':
        return await runList(parsed, io, json);
      case 'supersede':
        return await runSupersede(parsed, io, json);
      default:
        throw new CliUsageError(
          action === undefined ? 'rules needs a subcommand' : `unknown rules subcommand: ${action}`,
        );
    }
  } catch (error) {
    return reportError(error, io, helpText(RULES), json);
  }
}
