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
import { chooseCitationSource, openCitationSource } from '../citation-source.js';
import { writeReport } from '../command-report.js';
import { CliUsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { openChosenSet } from '../open-chosen-set.js';
import { chooseRepo, chooseStore } from '../store-selection.js';
import { commandRunner } from '../tree/command-runner.js';
import { CONTEXT } from '../tree/decl/context.js';
import type { ArgsOf, CommandRunner } from '../tree/types.js';
import { workingBranch } from '../working-branch.js';
import { describeDiff, describeHydration, describeReceipt } from './context-report.js';
import { reportSkippedRecords, withTaskRecords } from './task-records-open.js';

type ContextOptions = ArgsOf<typeof CONTEXT.options>['options'];

function selection(options: ContextOptions) {
  return { store: options.store, dir: options.dir };
}

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new CliUsageError(`--${name} is required`);
  return value;
}

/** The citation source when `--verified` is given (chosen before the store, as before). */
async function citationsOf(options: ContextOptions, io: CliIo, repo: string) {
  if (!options.verified) return undefined;
  const source = await chooseCitationSource(options.source, options.ref, io);
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
  options: ContextOptions,
  io: CliIo,
  store: MemoryStore,
): Promise<NonNullable<HydrateOptions['semantic']> | undefined> {
  const spec = configuredEmbedderSpec(options.embedder, io.env);
  if (spec === undefined) return undefined;
  const { openCliSemanticIndex } = await import('../open-embedder.js');
  return openCliSemanticIndex(spec, store, io);
}

async function runHydrate(options: ContextOptions, io: CliIo, json: boolean): Promise<number> {
  if (options.json && options.markdown) throw new CliUsageError('give --json or --markdown, not both');
  const repo = chooseRepo(options.repo, io);
  const description = required(options.task, 'task');
  const taskId = options.taskId;
  const user = options.user;
  const budget = options.budget;
  const timeout = options.timeoutMs;
  const record = options.record;
  if (record && taskId === undefined)
    throw new CliUsageError('--record needs --task-id (the receipt is stored under it)');
  if (options.noteRules && taskId === undefined) {
    throw new CliUsageError('--note-rules needs --task-id (each task is counted once)');
  }
  const ruleExpiry = options.ruleExpiry;
  if (ruleExpiry !== undefined && !options.noteRules) {
    throw new CliUsageError('--rule-expiry needs --note-rules');
  }
  const noteRules = options.noteRules ? (ruleExpiry === undefined ? true : { expireAfterTasks: ruleExpiry }) : false;
  const promptVersion = options.promptVersion;
  const commit = options.commit;
  const files = options.file;
  const citations = await citationsOf(options, io, repo);
  // Branch scope: task records learned on another branch are offered when this branch's history
  // (the citation source's, else the clone around the working directory) contains their commit.
  const history = citations ?? (await openCitationSource(await chooseCitationSource(undefined, options.ref, io), repo));
  const branch = options.ref === undefined ? workingBranch(io.env) : undefined;
  // One open of the spec for the store, its verified memories and its task records (one
  // PostgreSQL connection for the whole command).
  const set = await openChosenSet(await chooseStore(selection(options), io), { repo, readOnly: false, create: true });
  try {
    const verified =
      citations === undefined ? undefined : openVerifiedMemory({ backend: await set.verified(), citations });
    const semantic = await semanticOf(options, io, set.store);
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
          ...(files.length > 0 ? { files: files.map(String) } : {}),
        },
        ...(verified === undefined ? {} : { verified }),
        history,
        ...(branch === undefined ? {} : { branch }),
        ...(semantic === undefined
          ? {}
          : {
              semantic,
              timeouts: {
                semantic: timeout === undefined ? SEMANTIC_TIMEOUT_MS : timeout,
              },
            }),
        ...(budget === undefined ? {} : { budgetTokens: budget }),
        ...(timeout === undefined ? {} : { timeoutMs: timeout }),
        ...(promptVersion === undefined ? {} : { promptVersion }),
        ...(commit === undefined ? {} : { commit }),
        recordReceipt: record,
        noteRuleRetrievals: noteRules,
        mode: options.strict ? 'strict' : 'fail-open',
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

async function runReceipts(options: ContextOptions, io: CliIo, json: boolean): Promise<number> {
  const repo = chooseRepo(options.repo, io);
  const taskId = options.task ?? options.taskId;
  if (taskId === undefined || taskId === '') throw new CliUsageError('--task <task id> is required');
  const receipt = await withTaskRecords(selection(options), io, repo, (backend) => getReceipt(backend, repo, taskId));
  return writeReport(describeReceipt(taskId, receipt), io, json);
}

async function runDiff(options: ContextOptions, io: CliIo, json: boolean, a: string, b: string): Promise<number> {
  const repo = chooseRepo(options.repo, io);
  const diff = await withTaskRecords(selection(options), io, repo, async (backend) => {
    const [before, after] = await Promise.all([getReceipt(backend, repo, a), getReceipt(backend, repo, b)]);
    if (before === undefined) return { missing: a };
    if (after === undefined) return { missing: b };
    return diffReceipts(before, after);
  });
  return writeReport(describeDiff(a, b, diff), io, json);
}

/** Run `repomem context [receipts|diff] ...`; returns the exit code. */
export const runContextCommand: CommandRunner = commandRunner(CONTEXT, async ({ options, positionals }, io) => {
  const json = options.json;
  const [action, ...rest] = positionals;
  switch (action) {
    case undefined:
      return await runHydrate(options, io, json);
    case 'receipts':
    case 'receipt':
      if (rest.length > 0) throw new CliUsageError(`unexpected argument: ${rest[0]}`);
      return await runReceipts(options, io, json);
    case 'diff': {
      const [a, b, ...extra] = rest;
      if (a === undefined || b === undefined || extra.length > 0)
        throw new CliUsageError('context diff needs two task ids');
      return await runDiff(options, io, json, a, b);
    }
    default:
      throw new CliUsageError(`unknown context subcommand: ${action}`);
  }
});
