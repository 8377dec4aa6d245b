// Why: `repomem webhook`: run the GitHub webhook entry point on one delivery read from files or
// stdin, so a small server, a queue worker or an Action can hand deliveries to the CLI.

import { isRepoSlug } from '@repomem/core';
import {
  deliveryHeaders,
  handleGitHubWebhook,
  parseWebhookDelivery,
  summarizeWebhookResult,
  verifyGitHubWebhook,
  type WebhookDelivery,
  type WebhookResult,
} from '@repomem/github';
import { booleanOption, type ParsedArguments, parseArguments, stringOption } from '../args.js';
import { CliDataError, CliUsageError, ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { CLI_MAX_CONNECTIONS } from '../open-chosen-store.js';
import { reportError, wantsJson } from '../report-error.js';
import { cliRegistry } from '../store-registry.js';
import { chooseRepo, chooseStore } from '../store-selection.js';
import { WEBHOOK } from '../tree/decl/webhook.js';
import { helpText, optionSpecsOf } from '../tree/help.js';
import { commandModel, readInput, readJsonInput } from './rules-input.js';
import { openPromotionReader, type PromotionReader } from './webhook-citations.js';

/** Default environment variable holding the webhook secret. */
const DEFAULT_SECRET_VARIABLE = 'REPOMEM_WEBHOOK_SECRET';

async function readDelivery(parsed: ParsedArguments, io: CliIo): Promise<WebhookDelivery> {
  const file = stringOption(parsed, 'delivery');
  const headersFile = stringOption(parsed, 'headers');
  if ((file === undefined) === (headersFile === undefined)) {
    throw new CliUsageError('give either --delivery <file> or --headers <file> (with --body <file> or stdin)');
  }
  const value =
    file !== undefined
      ? await readJsonInput(file, io, 'delivery')
      : {
          headers: await readJsonInput(headersFile, io, 'headers'),
          body: await readInput(stringOption(parsed, 'body'), io, 'body'),
        };
  try {
    // Validated with the GitHub package's zod schema of a delivery.
    return parseWebhookDelivery(value);
  } catch (error) {
    throw new CliDataError('INVALID_DOCUMENT', (error as Error).message);
  }
}

/** The repository a delivery is about (for scoping the store), without trusting it for anything else. */
function repoOf(delivery: WebhookDelivery, fallback: string): string {
  try {
    const text = typeof delivery.body === 'string' ? delivery.body : new TextDecoder().decode(delivery.body);
    const payload: unknown = JSON.parse(text);
    const repository =
      typeof payload === 'object' && payload !== null ? (payload as { repository?: unknown }).repository : undefined;
    const name =
      typeof repository === 'object' && repository !== null
        ? (repository as { full_name?: unknown }).full_name
        : undefined;
    return typeof name === 'string' && isRepoSlug(name) ? name : fallback;
  } catch {
    return fallback;
  }
}

/**
 * The summary of `result`, saying for a promotion whether its memories were re-verified at the
 * merge commit (`reverification`: `github` or `clone`) or left for the next `recall` (`deferred`).
 */
function summarize(result: WebhookResult, promotion: PromotionReader | undefined): Record<string, unknown> {
  const summary = summarizeWebhookResult(result);
  const promoted = result.kind === 'outcome' && result.branch.kind === 'promoted';
  return promoted && promotion !== undefined ? { ...summary, reverification: promotion.kind } : summary;
}

function describe(result: WebhookResult, summary: Record<string, unknown>): string {
  const fields = Object.entries(summary)
    .filter(([key]) => key !== 'kind')
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join(',') : String(value)}`)
    .join(' ');
  return `${result.status} ${result.kind}${fields === '' ? '' : ` ${fields}`}`;
}

/** Print a result (stdout, or stderr when refused or failed); returns the exit code. */
function report(result: WebhookResult, io: CliIo, json: boolean, promotion?: PromotionReader): number {
  const failed = result.status >= 400;
  const summarized = summarize(result, promotion);
  const summary = { ok: !failed, outcome: result.kind, status: result.status, ...summarized };
  const stream = failed ? io.stderr : io.stdout;
  stream.write(json ? `${JSON.stringify(summary)}\n` : `${describe(result, summarized)}\n`);
  if (result.status >= 500) return ExitCode.usage;
  return failed ? ExitCode.failed : ExitCode.ok;
}

/** Run `repomem webhook ...`; returns the exit code (0 handled or ignored, 2 refused, 1 failed). */
export async function runWebhookCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const parsed = parseArguments(argv, optionSpecsOf(WEBHOOK));
    if (booleanOption(parsed, 'help')) {
      io.stdout.write(helpText(WEBHOOK));
      return ExitCode.ok;
    }
    if (parsed.positionals.length > 0) throw new CliUsageError(`unexpected argument: ${parsed.positionals[0]}`);
    const secretVariable = stringOption(parsed, 'secret-env') ?? DEFAULT_SECRET_VARIABLE;
    const secret = io.env[secretVariable];
    if (secret === undefined || secret === '') {
      throw new CliUsageError(
        `the webhook secret is missing: set $${secretVariable} (or name another variable with --secret-env)`,
      );
    }
    const delivery = await readDelivery(parsed, io);
    // Nothing is opened (no store, no file created) before the delivery is authentic.
    const verification = await verifyGitHubWebhook(delivery, secret);
    if (verification.kind !== 'verified') return report(verification, io, json);
    const repo = repoOf(delivery, chooseRepo(stringOption(parsed, 'repo'), io));
    const command = stringOption(parsed, 'model-command');
    const selection = { store: stringOption(parsed, 'store'), dir: stringOption(parsed, 'dir') };
    // A closed pull request moves the branch's verified memories with its task records: one open
    // of the store serves both (as the task records were opened: created when missing).
    const set = await cliRegistry.openStoreSet((await chooseStore(selection, io)).resolved, {
      cwd: io.cwd,
      env: io.env,
      repo,
      readOnly: false,
      create: true,
      maxConnections: CLI_MAX_CONNECTIONS,
    });
    let result: WebhookResult;
    let promotion: PromotionReader | undefined;
    try {
      const records = await set.tasks();
      const verified = await set.verified();
      // Promoted memories are re-verified at the merge commit when the repository can be read
      // (only a pull_request delivery promotes: the others open no reader).
      if (deliveryHeaders(delivery).event === 'pull_request') promotion = await openPromotionReader(io, repo);
      result = await handleGitHubWebhook(delivery, {
        secret,
        backend: records,
        verified,
        ...(promotion === undefined || promotion.kind === 'deferred' ? {} : { citations: promotion.reader }),
        ...(command === undefined ? {} : { model: commandModel(command, io) }),
        allowReviewersWithoutWriteAccess: booleanOption(parsed, 'allow-without-write-access'),
        ...(booleanOption(parsed, 'read-reviews') ? { reviewApi: { env: io.env } } : {}),
      });
    } finally {
      await set.close();
    }
    return report(result, io, json, promotion);
  } catch (error) {
    return reportError(error, io, helpText(WEBHOOK), json);
  }
}
