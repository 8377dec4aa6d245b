// Why: `./dev` is the first thing a newcomer runs; with no arguments or a typo it must print a
// usage text (not its own source lines) before fetching anything, and exit 0 when asked for help,
// 1 for an unknown command.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/repo.js';

const exec = promisify(execFile);
const dev = join(REPO_ROOT, 'dev');

async function runDev(...args: string[]) {
  return exec('bash', [dev, ...args], { cwd: REPO_ROOT, encoding: 'utf8' }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
}

describe('./dev', () => {
  it.each([[], ['help'], ['--help']])('%j prints the usage on stdout and exits 0', async (...args) => {
    const { code, stdout, stderr } = await runDev(...(args as string[]));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^Usage: \.\/dev <command>/);
    for (const command of ['demo', 'test', 'pack', 'bench', 'pnpm'])
      expect(stdout).toMatch(new RegExp(`\\n  ${command}\\b`));
    expect(stdout).not.toMatch(/set -euo|REPOMEM_ROOT|^#/m);
  });

  it('refuses an unknown command with the usage on stderr and exit code 1', async () => {
    const { code, stdout, stderr } = await runDev('dmeo');
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toMatch(/^\.\/dev: unknown command 'dmeo'\nUsage: \.\/dev <command>/);
  });
});
