// Why: the work of `repomem sync github` once its arguments are valid: open the chosen store
// (bootstrapping a missing memory tree as Sepo's sync workflow does), run
// the mirror sync (token from $GITHUB_TOKEN, else $GH_TOKEN; endpoints from $GITHUB_API_URL and
// $GITHUB_GRAPHQL_URL) or the legacy migration, and print the outcome. A token without a
// permission, or a missing repository, is a caller-fixable failure (exit 2) naming what to fix.
import { RepomemError, seedMemoryTree } from '@repomem/core';
import { migrateLegacyMirror, parseMirrorRepository, syncGitHubMirror } from '@repomem/github';
import { CliDataError, ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { openChosenStore } from '../open-chosen-store.js';
import { reportError } from '../report-error.js';
import { chooseStore, documentRepoFor } from '../store-selection.js';
import { SYNC } from '../tree/decl/sync.js';
import { helpText } from '../tree/help.js';
import type { SyncRequest } from './sync-args.js';
import { formatMigrationPlan, formatSyncProgress, formatSyncSummary, syncSummaryJson } from './sync-output.js';

/** True when progress lines should be printed: stderr is the process's own and a terminal. */
function progressWanted(io: CliIo, json: boolean): boolean {
  return !json && process.stderr.isTTY === true && io.env.CI === undefined;
}

/** Run a parsed, non-help `repomem sync` request; returns the exit code (never throws). */
export async function runSync(request: Extract<SyncRequest, { help: false }>, io: CliIo): Promise<number> {
  try {
    const repo = parseMirrorRepository(request.repo);
    const chosen = await chooseStore(request, io);
    const store = await openChosenStore(chosen, {
      repo: documentRepoFor(chosen, repo.slug, io),
      readOnly: request.migrateLegacy && !request.apply,
      // Like Sepo's sync workflow, a first sync bootstraps a missing memory directory.
      create: !request.migrateLegacy,
    });
    try {
      if (request.migrateLegacy) {
        const result = await migrateLegacyMirror({ store, repo, apply: request.apply });
        io.stdout.write(formatMigrationPlan(result, request.json));
        return ExitCode.ok;
      }
      // Sepo's bootstrap: the anchor files of the layout, only those missing, before the mirror.
      const seeded = await seedMemoryTree(store, { message: 'chore(memory): initialise memory tree' }, 3);
      const token = io.env.GITHUB_TOKEN || io.env.GH_TOKEN || undefined;
      const showProgress = progressWanted(io, request.json);
      const controller = new AbortController();
      const stop = (): void => controller.abort();
      process.once('SIGINT', stop);
      let result: Awaited<ReturnType<typeof syncGitHubMirror>>;
      try {
        result = await syncGitHubMirror({
          repo: repo.slug,
          store,
          ...(token === undefined ? {} : { token }),
          env: io.env,
          signal: controller.signal,
          ...(request.maxRequests === undefined ? {} : { maxRequests: request.maxRequests }),
          ...(request.since === undefined ? {} : { since: request.since }),
          ...(showProgress
            ? { onProgress: (progress) => io.stderr.write(formatSyncProgress(repo.slug, progress)) }
            : {}),
        });
      } finally {
        process.removeListener('SIGINT', stop);
      }
      if (seeded.created.length > 0) {
        result = { ...result, notices: [`created the memory tree's ${seeded.created.join(', ')}`, ...result.notices] };
      }
      io.stdout.write(request.json ? syncSummaryJson(result) : formatSyncSummary(result));
      // A request cap is a planned stop; a rate limit, an outage or an abort is worth a failed step.
      return result.status === 'complete' || result.reason === 'max_requests' ? ExitCode.ok : ExitCode.failed;
    } finally {
      await store.close();
    }
  } catch (error) {
    return reportError(asCliError(error), io, helpText(SYNC), request.json);
  }
}

/** Access failures (a token without a permission) are the caller's to fix: exit 2 without usage. */
function asCliError(error: unknown): unknown {
  if (
    error instanceof RepomemError &&
    (error.details as { reason?: unknown } | undefined)?.reason === 'access_denied'
  ) {
    return new CliDataError('ACCESS_DENIED', error.message);
  }
  return error;
}
