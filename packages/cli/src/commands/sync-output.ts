// Why: what `repomem sync github` prints, decided apart from the work: a progress line per page
// on a terminal, one summary line otherwise, one JSON object with `--json`, and the legacy
// migration plan.
import type { GitHubMirrorProgress, GitHubMirrorSyncResult, LegacyMigrationResult } from '@repomem/github';

const number = new Intl.NumberFormat('en-US');

function quotaText(quota: GitHubMirrorSyncResult['quota']): string {
  return quota === undefined ? '' : `, quota ${number.format(quota.remaining)}/${number.format(quota.limit)} left`;
}

/** One progress line (terminals). */
export function formatSyncProgress(repo: string, progress: GitHubMirrorProgress): string {
  const { issues, pulls, discussions } = progress.items;
  return `sync ${repo}: ${number.format(issues)} issues, ${number.format(pulls)} pull requests, ${number.format(discussions)} discussions, ${number.format(progress.changed)} files changed, ${number.format(progress.requests)} requests${quotaText(progress.quota)}\n`;
}

/** The summary line of a finished or interrupted sync, then one line per notice and vanished item. */
export function formatSyncSummary(result: GitHubMirrorSyncResult): string {
  const { issues, pulls, discussions } = result.items;
  const head =
    result.status === 'complete'
      ? `synced ${result.repo}`
      : `sync of ${result.repo} interrupted (${result.reason}): ${result.message}; so far`;
  const lines = [
    `${head}: ${number.format(issues + pulls + discussions)} items (${number.format(issues)} issues, ${number.format(pulls)} pull requests, ${number.format(discussions)} discussions), ${number.format(result.changed.length)} files changed in ${result.prefix}, ${number.format(result.requests)} requests${quotaText(result.quota)}`,
    ...result.notices.map((notice) => `note: ${notice}`),
    ...result.vanished.map(
      (item) =>
        `gone: ${item.path} (${item.reason === 'transferred' ? `transferred to ${item.movedTo}` : 'deleted, transferred or no longer visible to the token'}; file kept)`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/** The `--json` summary. */
export function syncSummaryJson(result: GitHubMirrorSyncResult): string {
  return `${JSON.stringify({ ok: result.status === 'complete', ...result })}\n`;
}

/** The legacy migration plan (and whether it was applied). */
export function formatMigrationPlan(result: LegacyMigrationResult, json: boolean): string {
  if (json) return `${JSON.stringify({ ok: true, ...result })}\n`;
  if (result.steps.length === 0) return 'no flat github/<kind>-<n>.json files: nothing to migrate\n';
  const verb = {
    move: 'move',
    'drop-duplicate': 'drop (same file already namespaced)',
    'skip-conflict': 'skip (namespaced file differs)',
  };
  const lines = result.steps.map((step) => `${verb[step.action]}: ${step.from} -> ${step.to}`);
  const acting = result.steps.filter((step) => step.action !== 'skip-conflict').length;
  lines.push(
    result.applied
      ? `migrated ${acting} file${acting === 1 ? '' : 's'}`
      : `dry run: nothing changed; run again with --apply to migrate ${acting} file${acting === 1 ? '' : 's'}`,
  );
  return `${lines.join('\n')}\n`;
}
