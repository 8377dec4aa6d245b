// Why: shared helpers for the CLI tests that spawn the built binary: locating it (with a clear
// failure when it was not built), running it with a clean environment, and temp directories.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built binary and library entry. */
export const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
export const LIBRARY = fileURLToPath(new URL('../dist/index.js', import.meta.url));

/** Throw a clear error when the CLI has not been built (tests run the built files, not sources). */
export function assertBuilt(): void {
  for (const file of [BIN, LIBRARY]) {
    if (!existsSync(file)) {
      throw new Error(`${file} is missing: build the CLI first (pnpm build, or pnpm --filter @repomem/cli build)`);
    }
  }
}

/** Result of one process run. */
export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Environment variables the CLI reads; tests never inherit them from the parent. */
const CLI_VARIABLES: ReadonlySet<string> = new Set([
  'MEMORY_DIR',
  'MEMORY_QUERY',
  'REPOMEM_STORE',
  'GITHUB_REPOSITORY',
  'GITHUB_TOKEN',
]);

/** The parent environment without the variables the CLI reads, plus `extra`. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !CLI_VARIABLES.has(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

/** Spawn `node <args...>` and collect its output. */
export function runNode(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env ?? cleanEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Run the built `repomem` binary. */
export function repomem(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<RunResult> {
  return runNode([BIN, ...args], options);
}

/** A fresh temp directory; call the returned `remove` in `afterEach`/`afterAll`. */
export function makeTempDir(prefix: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Today's UTC date `YYYY-MM-DD`. */
export function utcToday(): string {
  return new Date().toISOString().slice(0, 10);
}
