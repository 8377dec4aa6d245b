// Why: hydration reads several memory sources at once, and a hung source (a network store that
// never answers) must cost at most its own timeout, not the task. Each source gets its own
// abort signal, aborted on timeout or when the caller aborts; the call settles either way.

/** Outcome of {@link runWithTimeout}. */
export type TimedOutcome<T> =
  | { readonly ok: true; readonly value: T; readonly ms: number }
  | { readonly ok: false; readonly error: unknown; readonly ms: number };

/**
 * Run `work` with an abort signal that fires after `timeoutMs` or when `parent` aborts, and
 * settle at that moment even if `work` ignores the signal (its late result or error is
 * discarded). The timeout error is a `TimeoutError` `DOMException`; a caller's abort passes its
 * reason through.
 */
export async function runWithTimeout<T>(
  work: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  parent?: AbortSignal,
  clock: () => number = () => performance.now(),
): Promise<TimedOutcome<T>> {
  const started = clock();
  const controller = new AbortController();
  const elapsed = (): number => Math.max(0, clock() - started);
  if (parent?.aborted === true) return { ok: false, error: parent.reason, ms: 0 };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onParentAbort: (() => void) | undefined;
  const stopped = new Promise<TimedOutcome<T>>((resolve) => {
    timer = setTimeout(() => {
      const error = new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError');
      controller.abort(error);
      resolve({ ok: false, error, ms: elapsed() });
    }, timeoutMs);
    onParentAbort = () => {
      controller.abort(parent?.reason);
      resolve({ ok: false, error: parent?.reason, ms: elapsed() });
    };
    parent?.addEventListener('abort', onParentAbort, { once: true });
  });
  let running: Promise<TimedOutcome<T>>;
  try {
    running = work(controller.signal).then(
      (value) => ({ ok: true as const, value, ms: elapsed() }),
      (error: unknown) => ({ ok: false as const, error, ms: elapsed() }),
    );
  } catch (error) {
    running = Promise.resolve({ ok: false as const, error, ms: elapsed() });
  }
  try {
    return await Promise.race([running, stopped]);
  } finally {
    clearTimeout(timer);
    if (onParentAbort !== undefined) parent?.removeEventListener('abort', onParentAbort);
  }
}
