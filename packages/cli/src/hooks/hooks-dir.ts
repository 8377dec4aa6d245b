// Why: hooks do not always live in `.git/hooks`: `core.hooksPath` (husky, shared hook
// directories), worktrees and submodules move them. Git itself answers where they are.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { CliDataError } from '../errors.js';

const run = promisify(execFile);

/**
 * The absolute hooks directory of the repository containing `cwd`, as git resolves it
 * (`git rev-parse --git-path hooks`, which honours `core.hooksPath`). Throws
 * {@link CliDataError} `NOT_FOUND` when `cwd` is not in a git repository or git is missing.
 */
export async function hooksDirectory(cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<string> {
  try {
    const { stdout } = await run('git', ['rev-parse', '--git-path', 'hooks'], { cwd, env: { ...env } });
    return resolve(cwd, stdout.replace(/\r?\n$/, ''));
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new CliDataError('NOT_FOUND', `not in a git repository (or git is not installed): ${cwd} (${detail})`);
  }
}
