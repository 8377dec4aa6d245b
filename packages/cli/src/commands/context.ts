// Why: `repomem context` (build a task's memory context), `context receipts` (show what a task
// was given) and `context diff` (what changed between two tasks' contexts): thin wiring from
// arguments to core's hydrate and receipts over the chosen store. Wording lives in context-report.ts.
import {
  configuredEmbedderSpec,
  diffReceipts,
  getReceipt,
  type HydrateOptions,
  hydrate,
  type MemoryStore,
  openVerifiedMemory,
} from '@repomem/core';
import { booleanOption, type ParsedArguments, parseArguments, parsePositiveInteger, stringOption } from '../args.js';
import { chooseCitationSource, openCitationSource } from '../citation-source.js';
import { writeReport } from '../command-report.js';
import { CliUsageError, ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { openChosenSet } from '../open-chosen-set.js';
import { reportError, wantsJson } from '../report-error.js';
import { chooseRepo, chooseStore } from '../store-selection.js';
import { CONTEXT } from '../tree/decl/context.js';
import { helpText, optionSpecsOf } from '../tree/help.js';
import { workingBranch } from '../working-branch.js';
import { describeDiff, describeHydration, describeReceipt } from './context-report.js';
import { reportSkippedRecords, withTaskRecords } from './task-records-open.js';

const OPTIONS = optionSpecsOf(CONTEXT);

function selection(parsed: ParsedArguments) {
  return { store: stringOption(parsed, 'store'), dir: stringOption(parsed, 'dir') };
}

function required(parsed: ParsedArguments, name: string): string {
  const value = stringOption(parsed, name);
  if (value === undefined || value === '') throw new CliUsageError(`--${name} is required`);
  return value;
}

/** The citation source when `--verified` is given (chosen before the store, as before). */
async function citationsOf(parsed: ParsedArguments, io: CliIo, repo: string) {
  if (!booleanOption(parsed, 'verified')) return undefined;
  const source = await chooseCitationSource(stringOption(parsed, 'source'), stringOption(parsed, 'ref'), io);
  return openCitationSource(source, repo);
}

/**
 * Default time the semantic scoring may take: a first run embeds the memory's records (about 20
 * a second on two cores with the local model) and keeps their vectors; later runs embed the task.
 */
const SEMANTIC_TIMEOUT_MS = 300_000;

/**
 * The semantic scorer when an embedder is configured (`--embedder`, else `$REPOMEM_EMBEDDER`),
 * over the command's store (which keeps the vectors); nothing is loaded otherwise.
 */
async function semanticOf(
  parsed: ParsedArguments,
  io: CliIo,
  store: MemoryStore,
): Promise<NonNullable<HydrateOptions['semantic']> | undefined> {
  const spec = configuredEmbedderSpec(stringOption(parsed, 'embedder'), io.env);
  if (spec === undefined) return undefined;
  const { openCliSemanticIndex } = await import('../open-embedder.js');
  return openCliSemanticIndex(spec, store, io);
}

async function runHydrate(parsed: ParsedArguments, io: CliIo, json: boolean): Promise<number> {
  if (booleanOption(parsed, 'json') && booleanOption(parsed, 'markdown'))
    throw new CliUsageError('give --json or --markdown, not both');
  const repo = chooseRepo(stringOption(parsed, 'repo'), io);
  const description = required(parsed, 'task');
  const taskId = stringOption(parsed, 'task-id');
  const user = stringOption(parsed, 'user');
  const budget = stringOption(parsed, 'budget');
  const timeout = stringOption(parsed, 'timeout-ms');
  const record = booleanOption(parsed, 'record');
  if (record && taskId === undefined)
    throw new CliUsageError('--record needs --task-id (the receipt is stored under it)');
  if (booleanOption(parsed, 'note-rules') && taskId === undefined) {
    throw new CliUsageError('--note-rules needs --task-id (each task is counted once)');
  }
  const ruleExpiry = stringOption(parsed, 'rule-expiry');
  if (ruleExpiry !== undefined && !booleanOption(parsed, 'note-rules')) {
    throw new CliUsageError('--rule-expiry needs --note-rules');
  }
  const noteRules = booleanOption(parsed, 'note-rules')
    ? ruleExpiry === undefined
      ? true
      : { expireAfterTasks: parsePositiveInteger(ruleExpiry, '--rule-expiry') }
    : false;
  const promptVersion = stringOption(parsed, 'prompt-version');
  const commit = stringOption(parsed, 'commit');
  const files = parsed.values.file;
  const citations = await citationsOf(parsed, io, repo);
  // Branch scope: task records learned on another branch are offered when this branch's history
  // (the citation source's, else the clone around the working directory) contains their commit.
  const history =
    citations ??
    (await openCitationSource(await chooseCitationSource(undefined, stringOption(parsed, 'ref'), io), repo));
  const branch = stringOption(parsed, 'ref') === undefined ? workingBranch(io.env) : undefined;
  // One open of the spec for the store, its verified memories and its task records (one
  // PostgreSQL connection for the whole command).
  const set = await openChosenSet(await chooseStore(selection(parsed), io), { repo, readOnly: false, create: true });
  try {
    const verified =
      citations === undefined ? undefined : openVerifiedMemory({ backend: await set.verified(), citations });
    const semantic = await semanticOf(parsed, io, set.store);
    const backend = await set.tasks();
    let result: Awaited<ReturnType<typeof hydrate>>;
    try {
      result = await hydrate({
        backend,
        repo,
        task: {
          description,
          ...(taskId === undefined ? {} : { id: taskId }),
          ...(user === undefined ? {} : { user }),
          ...(Array.isArray(files) && files.length > 0 ? { files: files.map(String) } : {}),
        },
        ...(verified === undefined ? {} : { verified }),
        history,
        ...(branch === undefined ? {} : { branch }),
        ...(semantic === undefined
          ? {}
          : {
              semantic,
              timeouts: {
                semantic: timeout === undefined ? SEMANTIC_TIMEOUT_MS : parsePositiveInteger(timeout, '--timeout-ms'),
              },
            }),
        ...(budget === undefined ? {} : { budgetTokens: parsePositiveInteger(budget, '--budget') }),
        ...(timeout === undefined ? {} : { timeoutMs: parsePositiveInteger(timeout, '--timeout-ms') }),
        ...(promptVersion === undefined ? {} : { promptVersion }),
        ...(commit === undefined ? {} : { commit }),
        recordReceipt: record,
        noteRuleRetrievals: noteRules,
        mode: booleanOption(parsed, 'strict') ? 'strict' : 'fail-open',
      });
    } finally {
      reportSkippedRecords(backend, io);
      await verified?.close();
    }
    return writeReport(describeHydration(result), io, json);
  } finally {
    await set.close();
  }
}

async function runReceipts(parsed: ParsedArguments, io: CliIo, json: boolean): Promise<number> {
  const repo = chooseRepo(stringOption(parsed, 'repo'), io);
  const taskId = stringOption(parsed, 'task') ?? stringOption(parsed, 'task-id');
  if (taskId === undefined || taskId === '') throw new CliUsageError('--task <task id> is required');
  const receipt = await withTaskRecords(selection(parsed), io, repo, (backend) => getReceipt(backend, repo, taskId));
  return writeReport(describeReceipt(taskId, receipt), io, json);
}

async function runDiff(parsed: ParsedArguments, io: CliIo, json: boolean, a: string, b: string): Promise<number> {
  const repo = chooseRepo(stringOption(parsed, 'repo'), io);
  const diff = await withTaskRecords(selection(parsed), io, repo, async (backend) => {
    const [before, after] = await Promise.all([getReceipt(backend, repo, a), getReceipt(backend, repo, b)]);
    if (before === undefined) return { missing: a };
    if (after === undefined) return { missing: b };
    return diffReceipts(before, after);
  });
  return writeReport(describeDiff(a, b, diff), io, json);
}

/** Run `repomem context [receipts|diff] ...`; returns the exit code. */
export async function runContextCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const parsed = parseArguments(argv, OPTIONS);
    if (booleanOption(parsed, 'help')) {
      io.stdout.write(helpText(CONTEXT));
      return ExitCode.ok;
    }
    const [action, ...rest] = parsed.positionals;
    switch (action) {
      case undefined:
        return await runHydrate(parsed, io, json);
      case 'receipts':
      case 'receipt':
        if (rest.length > 0) throw new CliUsageError(`unexpected argument: ${rest[0]}`);
        return await runReceipts(parsed, io, json);
      case 'diff': {
        const [a, b, ...extra] = rest;
        if (a === undefined || b === undefined || extra.length > 0)
          throw new CliUsageError('context diff needs two task ids');
        return await runDiff(parsed, io, json, a, b);
      }
      default:
        throw new CliUsageError(`unknown context subcommand: ${action}`);
    }
  } catch (error) {
    return reportError(error, io, helpText(CONTEXT), json);
  }
}
