// Why: each client window runs its own server process, so several processes may write one memory
// file at once. Core re-runs a bullet edit on a compare-and-swap conflict with pauses of a few
// milliseconds, which a slow store (a git commit under load takes tens of milliseconds) can
// exhaust; the server then re-runs the whole edit with longer randomised pauses, so a write
// gives up only after seconds of contention instead of losing to faster writers.
import { isRepomemError } from '@repomem/core';

/** Whole-edit re-runs after core's own retries gave up with `CONFLICT`. */
export const CONFLICT_RERUNS = 8;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Run `edit`, re-running it after a randomised pause (up to ~1 s) when it ends in `CONFLICT`. */
export async function withConflictRetry<T>(edit: () => Promise<T>): Promise<T> {
  for (let rerun = 0; ; rerun += 1) {
    try {
      return await edit();
    } catch (error) {
      if (!isRepomemError(error, 'CONFLICT') || rerun >= CONFLICT_RERUNS) throw error;
      await pause(Math.random() * Math.min(1000, 25 * 2 ** rerun));
    }
  }
}
