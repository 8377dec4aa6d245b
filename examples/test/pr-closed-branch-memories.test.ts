// Why: the step of agent-memory-pr-closed.yml that moves a branch's memories runs for real here:
// its `run:` script, taken from the workflow as written, in a clone whose origin is git's own
// smart-HTTP backend on 127.0.0.1, with the built CLI on PATH and the environment a recorded
// `pull_request` `closed` event gives it (merged, then closed unmerged). The GitHub API is
// unreachable (a closed port), so promotion keeps memories unverified rather than invalidating
// them, exactly as when the API is down in Actions.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createBareRepository, type GitHttpServer, startGitHttpServer } from '@repomem/store-git/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const examplesDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(examplesDir, '..');
const cliBin = join(repoRoot, 'packages/cli/bin/repomem.js');
const workflow = readFileSync(join(examplesDir, 'github-actions/agent-memory-pr-closed.yml'), 'utf8');
const run = promisify(execFile);
const TOKEN = 'pr-closed-token';
const REPO = 'acme/app';

/** The `run:` script of the step named `name`, dedented. */
function stepScript(name: string): string {
  const start = workflow.indexOf(`- name: ${name}\n`);
  if (start < 0) throw new Error(`no step ${name}`);
  const rest = workflow.slice(start);
  const body = /\n {8}run: \|\n((?: {10}.*\n|\n)+)/.exec(rest);
  if (body === null) throw new Error(`no run script in step ${name}`);
  return (body[1] ?? '')
    .split('\n')
    .map((line) => line.slice(10))
    .join('\n');
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=ci', '-c', 'user.email=ci@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();
}

describe('agent-memory-pr-closed.yml: promote or quarantine the branch memories, for real', () => {
  let dir: string;
  let clone: string;
  let bin: string;
  let server: GitHttpServer;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'repomem-pr-closed-'));
    const root = join(dir, 'served');
    mkdirSync(root);
    createBareRepository(root, 'app.git');
    server = await startGitHttpServer({ root, token: TOKEN });
    clone = join(dir, 'app');
    mkdirSync(clone);
    git(clone, 'init', '-q', '-b', 'main');
    writeFileSync(join(clone, 'README.md'), '# app\n');
    git(clone, 'add', '-A');
    git(clone, 'commit', '-q', '-m', 'initial');
    git(clone, 'remote', 'add', 'origin', server.url('app.git'));
    bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'repomem'), `#!/bin/sh\nexec "${process.execPath}" "${cliBin}" "$@"\n`);
    chmodSync(join(bin, 'repomem'), 0o755);
  });
  afterEach(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const env = (event: Record<string, string>) => ({
    ...process.env,
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    GITHUB_REPOSITORY: REPO,
    GITHUB_TOKEN: TOKEN,
    // The token goes only to the GitHub server it belongs to: here the loopback git server.
    GITHUB_SERVER_URL: server.baseUrl,
    GITHUB_API_URL: 'http://127.0.0.1:9',
    MEMORY_BRANCH: 'agent/memory',
    ...event,
  });
  const repomem = (args: string[], extra: Record<string, string> = {}) =>
    run(process.execPath, [cliBin, ...args, '--repo', REPO, '--store', 'git:.#agent/memory'], {
      cwd: clone,
      env: { ...process.env, GITHUB_TOKEN: TOKEN, ...extra },
    });
  const step = (event: Record<string, string>) =>
    run('bash', ['-e', '-c', stepScript("Promote or quarantine the branch's memories")], {
      cwd: clone,
      env: env(event),
    });

  async function learnOn(branch: string, file: string): Promise<string> {
    git(clone, 'checkout', '-q', '-b', branch);
    writeFileSync(join(clone, file), 'export const TIMEOUT_MS = 500;\n');
    git(clone, 'add', '-A');
    git(clone, 'commit', '-q', '-m', `add ${file}`);
    await repomem(['init']);
    const stored = await repomem([
      'memories',
      'store',
      '--subject',
      `timeout in ${file}`,
      '--fact',
      'The client times out after 500 ms.',
      '--cite',
      `${file}:1`,
      '--json',
    ]);
    const memory = JSON.parse(stored.stdout).memory as { id: string; learned_on: { ref: string } };
    expect(memory.learned_on.ref).toBe(branch);
    git(clone, 'checkout', '-q', 'main');
    return memory.id;
  }

  it('merged: promotes into the base branch at the merge commit and pushes the memory branch', async () => {
    const id = await learnOn('feature', 'net.ts');
    git(clone, 'merge', '-q', '--no-ff', '-m', 'Merge pull request #7 from feature', 'feature');
    const merge = git(clone, 'rev-parse', 'HEAD');
    const result = await step({
      HEAD_REF: 'feature',
      BASE_REF: 'main',
      MERGE_COMMIT: merge,
      PR_NUMBER: '7',
      PR_MERGED: 'true',
    });
    expect(result.stdout).toContain(`promoted 1 record from feature into main at ${merge} (pull request #7)`);
    const got = JSON.parse((await repomem(['memories', 'get', '--id', id, '--json'])).stdout) as {
      memory: { learned_on: unknown; promoted_from: unknown };
    };
    expect(got.memory.learned_on).toEqual({ ref: 'main', commit: merge });
    expect(got.memory.promoted_from).toEqual({ ref: 'feature', commit: expect.any(String), pull_request: 7 });
    // Pushed: origin's memory branch is the local one.
    const served = join(dir, 'served', 'app.git');
    expect(git(served, 'rev-parse', 'refs/heads/agent/memory')).toBe(git(clone, 'rev-parse', 'agent/memory'));
    // Run again (a re-run of the workflow): nothing more changes.
    const again = await step({
      HEAD_REF: 'feature',
      BASE_REF: 'main',
      MERGE_COMMIT: merge,
      PR_NUMBER: '7',
      PR_MERGED: 'true',
    });
    expect(again.stdout).toContain('promoted 0 records from feature into main');
  }, 60_000);

  it('closed unmerged: quarantines the branch memories and pushes; they are listed for review', async () => {
    const id = await learnOn('abandoned', 'cache.ts');
    const result = await step({
      HEAD_REF: 'abandoned',
      BASE_REF: 'main',
      MERGE_COMMIT: '',
      PR_NUMBER: '8',
      PR_MERGED: 'false',
    });
    expect(result.stdout).toContain('quarantined 1 record learned on abandoned (pull request #8)');
    const listed = JSON.parse((await repomem(['memories', 'quarantined', '--json'])).stdout) as {
      records: { id: string }[];
    };
    expect(listed.records.map((record) => record.id)).toEqual([id]);
  }, 60_000);
});
