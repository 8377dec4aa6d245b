// Why: a webhook delivery reaches us through very different hosts (a Lambda event, a Node
// server request, a file an Action wrote), each with its own header casing and body type. This
// module is the one boundary where they become a validated `WebhookDelivery`.
import { RepomemError } from '@repomem/core';
import { z } from 'zod';

/** Largest body accepted, in bytes (GitHub caps deliveries at 25 MB; review and PR events are far smaller). */
export const MAX_WEBHOOK_BODY_BYTES = 5 * 1024 * 1024;

/** Zod schema of a delivery as a host hands it over: headers (any case) and the raw body. */
export const WebhookDeliverySchema = z.object({
  /** HTTP headers; names in any case, values as strings or string arrays (Node's `IncomingHttpHeaders`). */
  headers: z.record(z.string(), z.union([z.string(), z.array(z.string()), z.undefined()])),
  /** The raw body exactly as received: the signature covers these bytes. */
  body: z.union([z.string(), z.instanceof(Uint8Array)]),
});
/** A GitHub webhook delivery: headers and raw body. */
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

/** The headers of a delivery that matter, read case-insensitively. */
export interface DeliveryHeaders {
  /** `X-GitHub-Event`. */
  readonly event: string | undefined;
  /** `X-GitHub-Delivery` (a GUID, echoed in results and logs). */
  readonly deliveryId: string | undefined;
  /** `X-Hub-Signature-256` (`sha256=<hex>`). */
  readonly signature: string | undefined;
}

function header(headers: WebhookDelivery['headers'], name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/** Read the event, delivery id and signature headers of `delivery`. */
export function deliveryHeaders(delivery: WebhookDelivery): DeliveryHeaders {
  return {
    event: header(delivery.headers, 'x-github-event'),
    deliveryId: header(delivery.headers, 'x-github-delivery'),
    signature: header(delivery.headers, 'x-hub-signature-256'),
  };
}

/**
 * Validate a delivery handed over by a host; throws `INVALID_ARGUMENT` when it is not
 * `{ headers, body }` with a string or byte body.
 */
export function parseWebhookDelivery(value: unknown): WebhookDelivery {
  const parsed = WebhookDeliverySchema.safeParse(value);
  if (!parsed.success) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `a webhook delivery is { headers, body }: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}
