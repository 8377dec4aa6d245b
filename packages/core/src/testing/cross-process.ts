// Why: every store must keep compare-and-swap across processes, and each store package used to
// carry its own copy of the same multi-process test and worker. This is that test once: N node
// processes open the same store from a spec (through core's registry) and append numbered lines
// to one document, or to one state value, with a retry loop; the report says which lines were
// lost, duplicated or reordered, so the caller asserts with its own test runner.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../registry/registry.js';
import { type NodeWorkerResult, runNodeWorkers } from './processes.js';

/** Options of {@link runCrossProcessCompareAndSwap}. */
export interface CrossProcessCompareAndSwapOptions {
  /** Store spec every worker opens (`sqlite:/tmp/x.db`, `dir:/tmp/m`, `git:/tmp/r`...). */
  readonly spec: string;
  /** Repository scope for multi-repository stores (default `local/default`). */
  readonly repo?: string;
  /** Working directory for relative specs (default: the current one). */
  readonly cwd?: string;
  /** Processes started at once (default 4). */
  readonly workers?: number;
  /** Appends per process (default 25). */
  readonly operations?: number;
  /** Append to a document (default) or to a state value. */
  readonly target?: 'document' | 'state';
  /** Document path (default `MEMORY.md`). */
  readonly path?: string;
  /** State key (default `cross-process/lines`). */
  readonly key?: string;
}

/** What {@link runCrossProcessCompareAndSwap} found. */
export interface CrossProcessCompareAndSwapReport {
  /** How each worker ended. */
  readonly results: readonly NodeWorkerResult[];
  /** Workers that did not exit with code 0 (their output says why). */
  readonly failedWorkers: readonly NodeWorkerResult[];
  /** Every line the workers committed. */
  readonly expected: readonly string[];
  /** The lines found in the store afterwards, in stored order. */
  readonly found: readonly string[];
  /** Committed lines that are not in the store (lost updates). */
  readonly missing: readonly string[];
  /** Lines stored more than once. */
  readonly duplicated: readonly string[];
  /** Workers whose own lines are not in the order they committed them. */
  readonly reordered: readonly number[];
  /** Conflicts the workers met and retried (evidence that they really raced). */
  readonly conflicts: number;
}

/** The worker script shipped with the package (plain JavaScript, next to `dist/` and `src/`). */
function workerScript(): string {
  return join(
    fileURLToPath(new URL('.', import.meta.url)),
    '..',
    '..',
    'testing-workers',
    'compare-and-swap-worker.mjs',
  );
}

/**
 * Run the cross-process compare-and-swap check against the store `spec` names. The store must be
 * reachable by every process (a file, a directory, a repository, a server) and its package
 * resolvable from `@repomem/core` (installed beside it).
 *
 * @example
 * ```ts
 * const report = await runCrossProcessCompareAndSwap({ spec: `sqlite:${file}`, workers: 4 });
 * expect(report.failedWorkers).toEqual([]);
 * expect(report.missing).toEqual([]);
 * ```
 */
export async function runCrossProcessCompareAndSwap(
  options: CrossProcessCompareAndSwapOptions,
): Promise<CrossProcessCompareAndSwapReport> {
  const workers = options.workers ?? 4;
  const operations = options.operations ?? 25;
  const target = options.target ?? 'document';
  const path = options.path ?? 'MEMORY.md';
  const key = options.key ?? 'cross-process/lines';
  const results = await runNodeWorkers(
    workerScript(),
    (worker) => [
      JSON.stringify({
        spec: options.spec,
        repo: options.repo,
        cwd: options.cwd,
        worker,
        operations,
        target,
        path,
        key,
      }),
    ],
    { count: workers, nodeArgs: ['--no-warnings'] },
  );
  const failedWorkers = results.filter((result) => result.code !== 0);
  let conflicts = 0;
  for (const result of results) {
    try {
      conflicts +=
        (JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as { conflicts?: number }).conflicts ?? 0;
    } catch {
      // A failed worker printed no report; it is listed in failedWorkers.
    }
  }
  const expected = Array.from({ length: workers }, (_, worker) =>
    Array.from({ length: operations }, (_, index) => `- worker ${worker} line ${index}`),
  ).flat();
  const store = await openStore(options.spec, { repo: options.repo, cwd: options.cwd, readOnly: true });
  let found: string[];
  try {
    if (target === 'state') {
      const value = (await store.state.get(key))?.value;
      found = Array.isArray(value) ? value.filter((line): line is string => typeof line === 'string') : [];
    } else {
      const document = await store.get(path);
      const text = document === undefined ? '' : new TextDecoder().decode(document.content);
      found = text.split('\n').filter((line) => line.startsWith('- '));
    }
  } finally {
    await store.close();
  }
  const counts = new Map<string, number>();
  for (const line of found) counts.set(line, (counts.get(line) ?? 0) + 1);
  const reordered: number[] = [];
  for (let worker = 0; worker < workers; worker++) {
    const own = found.filter((line) => line.startsWith(`- worker ${worker} `));
    const want = expected.filter((line) => line.startsWith(`- worker ${worker} `));
    if (own.join('\n') !== want.join('\n')) reordered.push(worker);
  }
  return {
    results,
    failedWorkers,
    expected,
    found,
    missing: expected.filter((line) => !counts.has(line)),
    duplicated: [...counts].filter(([, count]) => count > 1).map(([line]) => line),
    reordered,
    conflicts,
  };
}
