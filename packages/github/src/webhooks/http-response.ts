// Why: every host answers GitHub the same way: a status code and a short JSON body that says
// what happened (shown in the repository's webhook delivery log), never the review text.
import type { WebhookResult } from './handle-webhook.js';

/** An HTTP answer in the shape Lambda, Node's `http` and most frameworks accept. */
export interface WebhookHttpResponse {
  /** Status code. */
  readonly statusCode: number;
  /** Response headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** JSON body. */
  readonly body: string;
}

/** A short, JSON-safe summary of a result (counts and ids, never review or rule text). */
export function summarizeWebhookResult(result: WebhookResult): Record<string, unknown> {
  const base = { kind: result.kind, delivery: result.deliveryId ?? null };
  switch (result.kind) {
    case 'unauthorized':
    case 'bad_request':
      return { ...base, reason: result.reason };
    case 'too_large':
      return { ...base, bytes: result.bytes };
    case 'failed':
      return { ...base, code: result.code, message: result.message };
    case 'ignored':
      return { ...base, event: result.event, reason: result.reason };
    case 'invalid_payload':
      return { ...base, event: result.event };
    case 'duplicate':
      return { ...base, repo: result.repo };
    case 'outcome':
      return {
        ...base,
        repo: result.repo,
        pr: result.pr,
        outcome: result.outcome,
        episodes: result.episodes,
        ...(result.stale.length === 0 ? {} : { stale: result.stale }),
        branch:
          result.branch.kind === 'promoted'
            ? {
                kind: 'promoted',
                ref: result.branch.report.ref,
                into: result.branch.report.defaultBranch,
                records: result.branch.report.promoted.length,
                invalidated: result.branch.report.promoted.filter((r) => r.verification === 'invalidated').length,
              }
            : result.branch.kind === 'quarantined'
              ? { kind: 'quarantined', ref: result.branch.report.ref, records: result.branch.report.quarantined.length }
              : { kind: 'skipped', reason: result.branch.reason },
      };
    case 'rules': {
      const inner = result.result;
      if (inner.kind === 'skipped') return { ...base, repo: result.repo, pr: result.pr, skipped: inner.reason };
      return {
        ...base,
        repo: result.repo,
        pr: result.pr,
        prompt_version: inner.promptVersion,
        accepted: inner.parsed.accepted.length,
        pending: inner.parsed.pending.length,
        rejected: inner.parsed.rejected.length,
        stored: inner.saved?.outcomes.filter((o) => o.kind !== 'refused').length ?? 0,
        superseded: inner.saved?.superseded.length ?? 0,
      };
    }
    default:
      return base;
  }
}

/** The HTTP answer for a result: its status and {@link summarizeWebhookResult} as JSON. */
export function webhookHttpResponse(result: WebhookResult): WebhookHttpResponse {
  return {
    statusCode: result.status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: `${JSON.stringify(summarizeWebhookResult(result))}\n`,
  };
}
