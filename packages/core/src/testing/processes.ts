// Why: multi-process tests of every store (directory, SQLite, git) start the same few node
// worker scripts at once and need each one's exit status and output; this is that scaffolding,
// once, with no test runner in it.
import { spawn } from 'node:child_process';
import { RepomemError } from '../errors.js';

/** How one worker started by {@link runNodeWorkers} ended. */
export interface NodeWorkerResult {
  /** The worker's index, `0` to `count - 1`. */
  readonly worker: number;
  /** Exit code, or `null` when a signal ended the process. */
  readonly code: number | null;
  /** The signal that ended the process, or `null` when it exited. */
  readonly signal: NodeJS.Signals | null;
  /** Everything written to stdout. */
  readonly stdout: string;
  /** Everything written to stderr. */
  readonly stderr: string;
  /** Stdout and stderr interleaved in arrival order (for assertion messages). */
  readonly output: string;
}

/** Options of {@link runNodeWorkers}. */
export interface NodeWorkersOptions {
  /** Number of worker processes started at once (a positive integer). */
  readonly count: number;
  /** Options for node itself, placed before the script (e.g. `['--no-warnings']`). */
  readonly nodeArgs?: readonly string[];
}

/**
 * Run `count` copies of the node script `script` at the same time with the current node binary
 * and resolve, in worker order, how each ended. `args` are the script's arguments: one list for
 * every worker, or a function of the worker index. Never rejects on a non-zero exit: check
 * {@link NodeWorkerResult.code}; rejects only when a process cannot be started. Throws
 * `RepomemError` `INVALID_ARGUMENT` when `count` is not a positive integer.
 */
export function runNodeWorkers(
  script: string,
  args: readonly string[] | ((worker: number) => readonly string[]),
  options: NodeWorkersOptions,
): Promise<NodeWorkerResult[]> {
  if (!Number.isInteger(options.count) || options.count < 1) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `runNodeWorkers: count must be a positive integer, got ${options.count}`,
    );
  }
  const argsOf = typeof args === 'function' ? args : () => args;
  return Promise.all(
    Array.from({ length: options.count }, (_, worker) =>
      runNodeWorker(worker, [...(options.nodeArgs ?? []), script, ...argsOf(worker)]),
    ),
  );
}

function runNodeWorker(worker: number, argv: readonly string[]): Promise<NodeWorkerResult> {
  const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    output += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    output += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ worker, code, signal, stdout, stderr, output }));
  });
}
