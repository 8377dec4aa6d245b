// Why: one place for timing and statistics, so every benchmark reports the same figures
// (n, p50, p95, mean, min, max in milliseconds) computed the same way, with no bench library.
import { spawnSync } from 'node:child_process';

/** Milliseconds elapsed since `start` (a `process.hrtime.bigint()` reading). */
export function elapsedMs(start) {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Nearest-rank percentile of an ascending array (q in 0..1). */
function percentile(sorted, q) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1];
}

/** Summary statistics of a list of samples in milliseconds. */
export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / (sorted.length || 1);
  return {
    n: sorted.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    mean,
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/**
 * Paired comparison of two commands run in turn (A B A B ...): the ratio A/B of each pair, then
 * the summary of those ratios. Pairing keeps the ratio meaningful when the machine's speed drifts
 * during a run, which a ratio of two separately taken medians does not.
 */
export function summarizeRatios(aSamples, bSamples) {
  if (aSamples.length !== bSamples.length) throw new Error('paired samples must have the same length');
  return summarize(aSamples.map((a, i) => a / bSamples[i]));
}

/**
 * Time `work(i)` (sync or async) `iterations` times after `warmup` untimed calls; `i` counts from
 * 0 across warmup and timed calls, so rotating inputs keep rotating. Returns the timed samples.
 */
export async function timeRepeated(work, { iterations, warmup = 0 }) {
  const samples = [];
  for (let i = 0; i < warmup + iterations; i++) {
    const start = process.hrtime.bigint();
    await work(i);
    const ms = elapsedMs(start);
    if (i >= warmup) samples.push(ms);
  }
  return samples;
}

/**
 * Wall time of a child process from spawn to exit (spawnSync, so the parent's event loop adds
 * nothing). Throws with the child's stderr when it exits non-zero, so a broken command never
 * produces a plausible-looking figure.
 */
export function timeProcess(command, args, { cwd, env } = {}) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, {
    cwd,
    env: env ?? process.env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 180_000,
  });
  const ms = elapsedMs(start);
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(
      `${[command, ...args].join(' ')} exited ${result.status ?? result.signal}: ${(result.stderr ?? '').trim()}`,
    );
  }
  return { ms, stdout: result.stdout };
}
