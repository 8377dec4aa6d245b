// Why: the one entry point a webhook host calls (a Lambda, a Node server, `repomem webhook` in
// an Action): verify `X-Hub-Signature-256` over the raw body with GitHub's own library (constant
// time comparison) BEFORE parsing anything, drop a delivery already handled (its id is kept in
// the store), then route the event. Every outcome, refusals
// included, is a value with the HTTP status to answer, never an exception.
import { isDeliveryId, isRepomemError, isRepoSlug, rememberDelivery, wasDelivered } from '@repomem/core';
import type { WebhookDelivery } from './delivery.js';
import { type RouteEventOptions, type RouteEventResult, routeGitHubEvent } from './route-event.js';
import { verifyGitHubWebhook, type WebhookRefusal } from './verify-delivery.js';

export type { WebhookRefusal } from './verify-delivery.js';

/** Options of {@link handleGitHubWebhook}. */
export interface HandleWebhookOptions extends RouteEventOptions {
  /** The webhook secret configured on GitHub (required, non-empty). */
  readonly secret: string;
}

/**
 * A delivery handled before (its `X-GitHub-Delivery` id is kept in the store): acknowledged and
 * not routed again, so a redelivery or a replay of captured bytes changes nothing.
 */
export interface WebhookDuplicate {
  readonly kind: 'duplicate';
  readonly status: 200;
  /** Repository of the delivery. */
  readonly repo: string;
}

/**
 * Routing failed (the model call, the store): answer 5xx so GitHub's redelivery (or the host's
 * retry) can try again. `message` is the error's message, never the review text.
 */
export interface WebhookFailure {
  readonly kind: 'failed';
  /** 503 when the error says a backend is unavailable, else 500. */
  readonly status: 500 | 503;
  /** Error code (`RepomemError` code, else `UNEXPECTED`). */
  readonly code: string;
  /** The error's message. */
  readonly message: string;
}

/** Outcome of {@link handleGitHubWebhook}: a refusal, a failure, a duplicate or a routed event, with the delivery id. */
export type WebhookResult = (WebhookRefusal | WebhookFailure | WebhookDuplicate | RouteEventResult) & {
  readonly deliveryId: string | undefined;
};

/** Events whose handling writes (the ones a replay could repeat). */
const WRITING_EVENTS = new Set(['pull_request', 'pull_request_review', 'pull_request_review_comment']);

/** The repository whose store remembers this delivery, when it is one this host handles. */
function deliveryRepo(event: string, payload: unknown, options: RouteEventOptions): string | undefined {
  if (!WRITING_EVENTS.has(event) || typeof payload !== 'object' || payload === null) return undefined;
  const repository = (payload as { repository?: { full_name?: unknown } }).repository;
  const name = typeof repository === 'object' && repository !== null ? repository.full_name : undefined;
  if (typeof name !== 'string' || !isRepoSlug(name)) return undefined;
  const handled = options.repositories?.some((other) => other.toLowerCase() === name.toLowerCase()) ?? true;
  return handled ? name : undefined;
}

/**
 * Handle one GitHub webhook delivery: check its size, verify `X-Hub-Signature-256` with
 * `@octokit/webhooks-methods`, parse the JSON body ({@link verifyGitHubWebhook}: nothing is read
 * or written before the signature holds), then {@link routeGitHubEvent}. A delivery whose
 * `X-GitHub-Delivery` id the store already holds (a redelivery, a replay) is a `duplicate`,
 * not routed again; a delivery that changed something is remembered there (bounded, see
 * `rememberDelivery`). A failure while routing (the model, the store) is a `failed` result with
 * status 5xx. Throws
 * `INVALID_ARGUMENT` only for misuse (no secret, a delivery that is not `{ headers, body }`).
 *
 * @example
 * ```ts
 * // AWS Lambda behind API Gateway (HTTP API, payload v2)
 * export const handler = async (event) => {
 *   const result = await handleGitHubWebhook(
 *     { headers: event.headers, body: event.isBase64Encoded ? Buffer.from(event.body, 'base64') : event.body },
 *     { secret: process.env.WEBHOOK_SECRET, backend, model },
 *   );
 *   return webhookHttpResponse(result);
 * };
 * ```
 */
export async function handleGitHubWebhook(
  delivery: WebhookDelivery,
  options: HandleWebhookOptions,
): Promise<WebhookResult> {
  const verified = await verifyGitHubWebhook(delivery, options.secret);
  if (verified.kind !== 'verified') return verified;
  const { event, payload, deliveryId } = verified;
  const repo = deliveryRepo(event, payload, options);
  const remembered = repo !== undefined && isDeliveryId(deliveryId) ? { repo, id: deliveryId } : undefined;
  try {
    if (remembered !== undefined && (await wasDelivered(options.backend, remembered.repo, remembered.id))) {
      return { kind: 'duplicate', status: 200, repo: remembered.repo, deliveryId };
    }
    const routed = await routeGitHubEvent(event, payload, options);
    // Only a delivery that changed something is remembered: one answered 202 (no model yet, no
    // episode yet) may be worth redelivering later.
    if (remembered !== undefined && routed.status === 200) {
      await rememberDelivery(options.backend, remembered.repo, remembered.id, options.now);
    }
    return { ...routed, deliveryId };
  } catch (error) {
    const code = isRepomemError(error) ? error.code : 'UNEXPECTED';
    return {
      kind: 'failed',
      status: code === 'BACKEND_UNAVAILABLE' ? 503 : 500,
      code,
      message: error instanceof Error ? error.message : String(error),
      deliveryId,
    };
  }
}
