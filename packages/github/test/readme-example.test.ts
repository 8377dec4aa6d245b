// Why: the README's example is the first code a user copies, so it is run as written: the first
// `ts` block is executed by a separate Node process against the built package (imported by its
// name), with GITHUB_API_URL pointing at the loopback contents server instead of api.github.com.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitHubContentsServer, gitBlobSha, startGitHubContentsServer } from './support/github-contents-server.js';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const README_TEXT = 'Hello World!\n';

let server: GitHubContentsServer;

beforeAll(async () => {
  server = await startGitHubContentsServer();
  server.setFiles('octocat/Hello-World', 'main', { README: README_TEXT });
});

afterAll(async () => {
  await server.close();
});

describe('README example', () => {
  it('runs unchanged and prints the blob id and "valid"', async () => {
    const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
    const code = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(code).toBeDefined();
    // The example's types are all inferred, so it is valid JavaScript as written. The child runs
    // asynchronously: the server answering it lives in this process.
    const run = await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', code ?? ''], {
      cwd: packageRoot,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', GITHUB_API_URL: server.baseUrl, GITHUB_TOKEN: 'example-token' },
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toEqual([`text ${gitBlobSha(Buffer.from(README_TEXT))}`, 'valid']);
    expect(server.requests.every((request) => request.authorization === 'token example-token')).toBe(true);
  });
});
