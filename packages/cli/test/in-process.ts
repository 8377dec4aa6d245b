// Why: shared helpers for tests that run the CLI in-process through `runCli` (fast: no process
// spawn per invocation) against real temp directories, SQLite files and git repositories built
// with the git CLI.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCli } from '../src/index.js';

/** Output of one in-process run. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run `repomem <args>` in-process with `cwd` and exactly `env` (nothing inherited). */
export async function cli(
  args: readonly string[],
  options: { readonly cwd: string; readonly env?: Record<string, string> },
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    cwd: options.cwd,
    env: options.env ?? {},
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
  });
  return { code, stdout, stderr };
}

/** `JSON.parse` of a `--json` run's one object: stdout on success, stderr on failure. */
export function jsonOf(result: CliResult): Record<string, unknown> {
  // Results are on stdout, failures on stderr (stdout then stays empty), in --json mode too.
  if (result.code !== 0 && result.stdout !== '') throw new Error(`failure printed on stdout: ${result.stdout}`);
  return JSON.parse(result.code === 0 ? result.stdout : result.stderr) as Record<string, unknown>;
}

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

/** Run the real git CLI in `cwd`; returns stdout. Throws with git's stderr on failure. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A new git repository at `dir` (branch `main`) with `files` committed as "initial". */
export function makeRepository(dir: string, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  commitFiles(dir, files, 'initial');
}

/** Write `files` into the worktree at `dir` and commit exactly those paths with `message`. */
export function commitFiles(dir: string, files: Record<string, string>, message: string): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(dir, 'add', '--', ...Object.keys(files));
  git(dir, 'commit', '-q', '-m', message);
}
