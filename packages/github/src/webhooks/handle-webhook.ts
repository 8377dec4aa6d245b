// Why: the one entry point a webhook host calls (a Lambda, a Node server, `repomem webhook` in
// an Action): verify `X-Hub-Signature-256` over the raw body with GitHub's own library (constant
// time comparison) BEFORE parsing anything, then route the event. Every outcome, refusals
// included, is a value with the HTTP status to answer, never an exception.
import { isRepomemError, RepomemError } from '@repomem/core';
import { deliveryHeaders, MAX_WEBHOOK_BODY_BYTES, parseWebhookDelivery, type WebhookDelivery } from './delivery.js';
import { type RouteEventOptions, type RouteEventResult, routeGitHubEvent } from './route-event.js';

/** Options of {@link handleGitHubWebhook}. */
export interface HandleWebhookOptions extends RouteEventOptions {
  /** The webhook secret configured on GitHub (required, non-empty). */
  readonly secret: string;
}

/** A delivery refused before routing. */
export type WebhookRefusal =
  | { readonly kind: 'unauthorized'; readonly status: 401; readonly reason: 'missing_signature' | 'bad_signature' }
  | { readonly kind: 'too_large'; readonly status: 413; readonly bytes: number }
  | {
      readonly kind: 'bad_request';
      readonly status: 400;
      readonly reason: 'missing_event' | 'malformed_json' | 'not_utf8';
    };

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

/** Outcome of {@link handleGitHubWebhook}: a refusal, a failure or a routed event, with the delivery id. */
export type WebhookResult = (WebhookRefusal | WebhookFailure | RouteEventResult) & {
  readonly deliveryId: string | undefined;
};

const encoder = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function bodyText(body: string | Uint8Array): { bytes: number; text: string | undefined } {
  if (typeof body === 'string') return { bytes: encoder.encode(body).length, text: body };
  try {
    return { bytes: body.length, text: strictUtf8.decode(body) };
  } catch {
    return { bytes: body.length, text: undefined };
  }
}

/**
 * Handle one GitHub webhook delivery: check its size, verify `X-Hub-Signature-256` with
 * `@octokit/webhooks-methods`, parse the JSON body, then {@link routeGitHubEvent}. A failure
 * while routing (the model, the store) is a `failed` result with status 5xx. Throws
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
  if (typeof options.secret !== 'string' || options.secret === '') {
    throw new RepomemError('INVALID_ARGUMENT', 'handleGitHubWebhook needs the webhook secret (a non-empty string)');
  }
  const checked = parseWebhookDelivery(delivery);
  const headers = deliveryHeaders(checked);
  const deliveryId = headers.deliveryId;
  const body = bodyText(checked.body);
  if (body.bytes > MAX_WEBHOOK_BODY_BYTES) return { kind: 'too_large', status: 413, bytes: body.bytes, deliveryId };
  if (headers.signature === undefined || headers.signature === '') {
    return { kind: 'unauthorized', status: 401, reason: 'missing_signature', deliveryId };
  }
  if (body.text === undefined) return { kind: 'bad_request', status: 400, reason: 'not_utf8', deliveryId };
  let authentic = false;
  try {
    // Loaded when a delivery arrives: the package is ES-module only (no `require` entry), and the
    // CommonJS build of this package must still load for callers that never handle webhooks.
    const { verify } = await import('@octokit/webhooks-methods');
    authentic = await verify(options.secret, body.text, headers.signature);
  } catch {
    authentic = false; // A signature of the wrong length or format.
  }
  if (!authentic) return { kind: 'unauthorized', status: 401, reason: 'bad_signature', deliveryId };
  if (headers.event === undefined || headers.event === '') {
    return { kind: 'bad_request', status: 400, reason: 'missing_event', deliveryId };
  }
  let payload: unknown;
  try {
    payload = JSON.parse(body.text);
  } catch {
    return { kind: 'bad_request', status: 400, reason: 'malformed_json', deliveryId };
  }
  try {
    const routed = await routeGitHubEvent(headers.event, payload, options);
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
