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
import { writeReport } from '../command-report.js';
import { CliDataError, CliUsageError, ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { chooseRepo } from '../store-selection.js';
import { commandRunner } from '../tree/command-runner.js';
import { RULES } from '../tree/decl/rules.js';
import type { ArgsOf, CommandRunner } from '../tree/types.js';
import { commandModel, openTaskRecords, readInput, readJsonInput } from './rules-input.js';
import {
  describeExtract,
  describeParsed,
  describeRuleDecision,
  describeRuleList,
  describeSupersedeRule,
} from './rules-report.js';

type RulesOptions = ArgsOf<typeof RULES.options>['options'];

function required<T extends string | number>(value: T | undefined, name: string): T {
  if (value === undefined || value === '') throw new CliUsageError(`--${name} is required`);
  return value;
}

function selection(options: RulesOptions) {
  return { store: options.store, dir: options.dir };
}

async function withRecords<T>(
  options: RulesOptions,
  io: CliIo,
  repo: string,
  readOnly: boolean,
  use: (records: TaskRecordBackend) => Promise<T>,
): Promise<T> {
  const records = await openTaskRecords(selection(options), io, repo, readOnly);
  try {
    return await use(records);
  } finally {
    await records.close();
  }
}

function eventNameOf(options: RulesOptions, io: CliIo, payload: unknown): ReviewEventName {
  const given = options.eventName ?? io.env.GITHUB_EVENT_NAME;
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

async function runExtract(options: RulesOptions, io: CliIo, json: boolean): Promise<number> {
  const eventPath = options.event ?? io.env.GITHUB_EVENT_PATH;
  if (eventPath === undefined || eventPath === '')
    throw new CliUsageError('--event <file> (or $GITHUB_EVENT_PATH) is required');
  const payload = await readJsonInput(eventPath, io, 'event');
  const event = eventNameOf(options, io, payload);
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
  const repoOption = options.repo;
  if (repoOption !== undefined && repoOption.toLowerCase() !== feedback.repo.toLowerCase()) {
    throw new CliUsageError(`--repo ${repoOption} does not match the event's repository ${feedback.repo}`);
  }
  if (options.printPrompt) {
    const prompt = buildRuleExtractionPrompt(feedback);
    if (json)
      io.stdout.write(
        `${JSON.stringify({ ok: true, outcome: 'prompt', repo: feedback.repo, pr: feedback.pr, prompt_version: prompt.promptVersion, prompt: prompt.text })}\n`,
      );
    else io.stdout.write(`${prompt.text}\n`);
    return ExitCode.ok;
  }
  const command = options.modelCommand;
  const outputFile = options.modelOutput;
  if ((command === undefined) === (outputFile === undefined)) {
    throw new CliUsageError('give exactly one of --model-command, --model-output or --print-prompt');
  }
  const model =
    command !== undefined
      ? commandModel(command, io)
      : async () => new TextDecoder().decode(await readInput(outputFile, io, 'model output'));
  const result = await withRecords(options, io, feedback.repo, false, (backend) =>
    extractReviewRules({
      feedback,
      model,
      backend,
      allowReviewersWithoutWriteAccess: options.allowWithoutWriteAccess,
    }),
  );
  return writeReport(describeExtract(feedback.repo, feedback.pr, result), io, json);
}

async function runParse(options: RulesOptions, io: CliIo, json: boolean): Promise<number> {
  const pr = required(options.pr, 'pr');
  const reviewer = required(options.reviewer, 'reviewer');
  let association: ReturnType<typeof parseAuthorAssociation>;
  try {
    association = parseAuthorAssociation(required(options.association, 'association'));
  } catch {
    throw new CliUsageError(
      `--association must be one of OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, FIRST_TIME_CONTRIBUTOR, FIRST_TIMER, MANNEQUIN, NONE`,
    );
  }
  const repo = chooseRepo(options.repo, io);
  const promptVersion = options.promptVersion ?? RULE_EXTRACTION_PROMPT_VERSION;
  const output = new TextDecoder().decode(await readInput(options.input, io, 'model output'));
  let result: ReturnType<typeof parseRuleOutput>;
  try {
    result = parseRuleOutput(
      output,
      { repo, pr, reviewer, association, extracted_at: new Date().toISOString(), prompt_version: promptVersion },
      { allowReviewersWithoutWriteAccess: options.allowWithoutWriteAccess },
    );
  } catch (error) {
    throw new CliUsageError(`invalid --pr, --reviewer or --prompt-version: ${(error as Error).message}`);
  }
  const toSave = [...result.accepted, ...result.pending];
  const saved =
    options.save && toSave.length > 0
      ? await withRecords(options, io, repo, false, (backend) => saveRules(backend, repo, toSave))
      : undefined;
  return writeReport(describeParsed(repo, promptVersion, result, saved), io, json);
}

async function runList(options: RulesOptions, io: CliIo, json: boolean): Promise<number> {
  const repo = chooseRepo(options.repo, io);
  const pendingOnly = options.pending;
  if (pendingOnly && options.status !== undefined) throw new CliUsageError('give --pending or --status, not both');
  const status = pendingOnly ? 'pending' : (options.status ?? 'active');
  if (status !== 'all' && !(RULE_STATUSES as readonly string[]).includes(status)) {
    throw new CliUsageError(`--status must be one of ${RULE_STATUSES.join(', ')}, all`);
  }
  const limit = options.limit;
  const rules = await withRecords(options, io, repo, true, (backend) =>
    listRules(backend, repo, {
      ...(status === 'all' ? {} : { status: status as RuleStatus }),
      ...(limit === undefined ? {} : { limit }),
    }),
  );
  return writeReport(describeRuleList(repo, rules), io, json);
}

async function runSupersede(options: RulesOptions, io: CliIo, json: boolean): Promise<number> {
  const repo = chooseRepo(options.repo, io);
  const id = required(options.id, 'id');
  const reason = required(options.reason, 'reason');
  const text = options.rule;
  const scope = options.scope;
  if (text === undefined && scope !== undefined) throw new CliUsageError('--scope needs --rule');
  const author = options.author ?? io.env.GITHUB_ACTOR ?? 'local';
  const replacement =
    text === undefined
      ? undefined
      : manualRuleCandidate({ rule: text, author, ...(scope === undefined ? {} : { scope }) });
  const outcome = await withRecords(options, io, repo, false, (backend) =>
    supersedeRule(backend, repo, id, replacement, reason),
  );
  return writeReport(describeSupersedeRule(repo, outcome), io, json);
}

/** Who decides: --by, else $GITHUB_ACTOR, else the git identity's name. */
function decider(options: RulesOptions, io: CliIo): string {
  const given = options.by ?? io.env.GITHUB_ACTOR;
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
  options: RulesOptions,
  io: CliIo,
  json: boolean,
  action: 'approve' | 'reject',
  id: string | undefined,
): Promise<number> {
  if (id === undefined || id === '') throw new CliUsageError(`rules ${action} needs a rule id`);
  const repo = chooseRepo(options.repo, io);
  const note = options.reason;
  const decision = { by: decider(options, io), ...(note === undefined ? {} : { note }) };
  const outcome = await withRecords(options, io, repo, false, (backend) =>
    action === 'approve' ? approveRule(backend, repo, id, decision) : rejectRule(backend, repo, id, decision),
  );
  return writeReport(describeRuleDecision(repo, outcome), io, json);
}

/** Run `repomem rules <extract|parse|list|approve|reject|supersede> ...`; returns the exit code. */
export const runRulesCommand: CommandRunner = commandRunner(
  RULES,
  async ({ options, subcommand: action, positionals: extra }, io) => {
    const json = options.json;
    const takesId = action === 'approve' || action === 'reject';
    if (extra.length > (takesId ? 1 : 0)) throw new CliUsageError(`unexpected argument: ${extra[takesId ? 1 : 0]}`);
    switch (action) {
      case 'approve':
      case 'reject':
        return await runDecision(options, io, json, action, extra[0] ?? options.id);
      case 'extract':
        return await runExtract(options, io, json);
      case 'parse':
        return await runParse(options, io, json);
      case 'list':
        return await runList(options, io, json);
      case 'supersede':
        return await runSupersede(options, io, json);
      default:
        throw new CliUsageError(
          action === undefined ? 'rules needs a subcommand' : `unknown rules subcommand: ${action}`,
        );
    }
  },
  { subcommand: 'own' },
);
