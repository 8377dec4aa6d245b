// Why: the quick start's CLI commands are what a newcomer types first, so they must work exactly
// as written. The README's block is run line by line (as one bash script) in a fresh directory
// that stands in for the clone's root: a git repository holding a copy of the root package.json
// (a command cites its lines) and `node_modules/.bin/repomem` linked to this checkout's launcher.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/repo.js';

const exec = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), 'repomem-quickstart-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The README's ```sh block that starts the CLI tour (`node_modules/.bin/repomem init`). */
function quickStartBlock(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
  const block = blocks.find((text) => text.startsWith('node_modules/.bin/repomem init'));
  if (block === undefined) throw new Error('README.md: no sh block starting with node_modules/.bin/repomem init');
  return block;
}

describe('the README quick start', () => {
  it('runs as written, every command exiting 0', async () => {
    const block = quickStartBlock();
    expect(block).toContain('search --dir ./memory');
    copyFileSync(join(REPO_ROOT, 'package.json'), join(scratch, 'package.json'));
    const git = (...args: string[]) => exec('git', args, { cwd: scratch });
    await git('init', '--quiet', '--initial-branch=main');
    await git('add', 'package.json');
    await git('-c', 'user.name=quickstart', '-c', 'user.email=quickstart@localhost', 'commit', '--quiet', '-m', 'x');
    mkdirSync(join(scratch, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(join(REPO_ROOT, 'packages', 'cli', 'bin', 'repomem.js'), join(scratch, 'node_modules/.bin/repomem'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
    };
    for (const name of ['REPOMEM_STORE', 'MEMORY_DIR', 'MEMORY_QUERY']) delete env[name];
    const result = await exec('bash', ['-euo', 'pipefail', '-x', '-c', block], { cwd: scratch, env }).then(
      ({ stdout }) => ({ ok: true, output: stdout }),
      (error: { stdout?: string; stderr?: string }) => ({ ok: false, output: `${error.stdout}\n${error.stderr}` }),
    );
    expect(result.ok, result.output).toBe(true);
    expect(result.output).toContain('Run pnpm test before pushing');
    expect(existsSync(join(scratch, 'memory', 'MEMORY.md'))).toBe(true);
  });
});
