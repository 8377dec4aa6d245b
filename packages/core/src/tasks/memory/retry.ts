// Why: a memory write at task end must survive a brief outage (seed: retry with exponential
// backoff, up to 3 attempts) but must not hammer a misconfigured store, and must never block the
// task: transient failures are retried, configuration errors and bugs are not.
import { classifyMemoryFailure, type MemoryFailure } from './failure.js';

/** Default attempts of a memory write (the first one included). */
export const DEFAULT_WRITE_ATTEMPTS = 3;
/** Default delay before the second attempt, in milliseconds; doubled for each further attempt. */
export const DEFAULT_WRITE_BACKOFF_MS = 200;

/** Retry options of task-end writes. */
export interface WriteRetryOptions {
  /** Attempts in all (default 3). */
  readonly attempts?: number;
  /** Delay before the second attempt in ms (default 200), doubled each time. */
  readonly backoffMs?: number;
  /** Sleep function (tests pass one that records delays). */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Outcome of {@link withWriteRetries}. */
export type RetriedOutcome<T> =
  | { readonly ok: true; readonly value: T; readonly attempts: number }
  | { readonly ok: false; readonly failure: MemoryFailure; readonly error: unknown; readonly attempts: number };

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Run `action`, retrying failures classified as transient (`warning`: outage, throttled,
 * timeout) with exponential backoff; configuration errors, corrupt data and bugs stop at once.
 * Never throws: the last failure is returned.
 */
export async function withWriteRetries<T>(
  action: () => Promise<T>,
  options: WriteRetryOptions = {},
): Promise<RetriedOutcome<T>> {
  const attempts = Math.max(1, Math.floor(options.attempts ?? DEFAULT_WRITE_ATTEMPTS));
  const backoff = options.backoffMs ?? DEFAULT_WRITE_BACKOFF_MS;
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return { ok: true, value: await action(), attempts: attempt };
    } catch (error) {
      const failure = classifyMemoryFailure(error);
      if (failure.severity === 'error' || attempt >= attempts) return { ok: false, failure, error, attempts: attempt };
      await sleep(backoff * 2 ** (attempt - 1));
    }
  }
}
