// Why: a forged delivery must cost nothing: no store opened, no file created, no record read.
// This is the whole check a delivery passes before anything else happens (size, signature with
// GitHub's own library in constant time, event header, JSON), kept apart from routing so a host
// (`repomem webhook`) can run it before it opens its store.
import { RepomemError } from '@repomem/core';
import { deliveryHeaders, MAX_WEBHOOK_BODY_BYTES, parseWebhookDelivery } from './delivery.js';

/** A delivery refused before routing. */
export type WebhookRefusal =
  | { readonly kind: 'unauthorized'; readonly status: 401; readonly reason: 'missing_signature' | 'bad_signature' }
  | { readonly kind: 'too_large'; readonly status: 413; readonly bytes: number }
  | {
      readonly kind: 'bad_request';
      readonly status: 400;
      readonly reason: 'missing_event' | 'malformed_json' | 'not_utf8';
    };

/** An authentic delivery, parsed. */
export interface VerifiedWebhookDelivery {
  readonly kind: 'verified';
  /** `X-GitHub-Event`. */
  readonly event: string;
  /** The parsed JSON body. */
  readonly payload: unknown;
}

/** Outcome of {@link verifyGitHubWebhook}, with the delivery id (`X-GitHub-Delivery`). */
export type WebhookVerification = (WebhookRefusal | VerifiedWebhookDelivery) & {
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
 * Check a delivery without touching any store: its size, `X-Hub-Signature-256` over the raw
 * body (`@octokit/webhooks-methods`), the event header, then the JSON body. Throws
 * `INVALID_ARGUMENT` only for misuse (no secret, a delivery that is not `{ headers, body }`).
 */
export async function verifyGitHubWebhook(delivery: unknown, secret: string): Promise<WebhookVerification> {
  if (typeof secret !== 'string' || secret === '') {
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
    authentic = await verify(secret, body.text, headers.signature);
  } catch {
    authentic = false; // A signature of the wrong length or format.
  }
  if (!authentic) return { kind: 'unauthorized', status: 401, reason: 'bad_signature', deliveryId };
  if (headers.event === undefined || headers.event === '') {
    return { kind: 'bad_request', status: 400, reason: 'missing_event', deliveryId };
  }
  try {
    return { kind: 'verified', event: headers.event, payload: JSON.parse(body.text), deliveryId };
  } catch {
    return { kind: 'bad_request', status: 400, reason: 'malformed_json', deliveryId };
  }
}
