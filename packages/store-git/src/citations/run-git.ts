// Why: the citation reader asks the git CLI what it does best (rename detection, history walks),
// always the same safe way: no pager, no prompt, no external diff, no lazy fetch of a partial
// clone's objects, and output read whole up to a bound.
import { execFile } from 'node:child_process';

/** Largest output read, in bytes (a diff or history bigger than this fails). */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/** Run `git args...` in `dir`; resolves with stdout, rejects naming the subcommand and git's message. */
export function runGit(dir: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      {
        cwd: dir,
        encoding: 'utf8',
        maxBuffer: MAX_OUTPUT_BYTES,
        windowsHide: true,
        // No pager, no prompts, no external diff, and no lazy fetch of a partial clone's missing objects.
        env: {
          ...process.env,
          GIT_PAGER: 'cat',
          GIT_TERMINAL_PROMPT: '0',
          GIT_EXTERNAL_DIFF: '',
          GIT_NO_LAZY_FETCH: '1',
        },
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${args[0] ?? ''} failed: ${String(stderr || error.message).trim()}`));
        else resolve(stdout);
      },
    );
  });
}
