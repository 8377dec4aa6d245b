// Why: a provider's failure must reach core's retry guard classified the way every other repomem
// failure is (429 and throttling names are retried, 401/403/404 are configuration and are not),
// with the service's reason in the message and never the key.
import { RepomemError } from '@repomem/core';

/** An HTTP failure of an embedding service, as the cause of a `BACKEND_UNAVAILABLE` error. */
export class EmbeddingHttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = status === 429 ? 'TooManyRequests' : 'EmbeddingHttpError';
  }
}

/** The repomem error for a failed embedding request (`cause` keeps what the classifier reads). */
export function embeddingFailure(provider: string, model: string, cause: unknown): RepomemError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new RepomemError(
    'BACKEND_UNAVAILABLE',
    `${provider} embedding with ${model} failed: ${reason.slice(0, 300)}`,
    {
      cause,
      details: { provider, model },
    },
  );
}
