// Why: `repomem webhook` promotes a merged branch's memories; when the delivery's repository can
// be read (a GitHub token, or a clone of it as the working directory) they are re-verified at the
// merge commit, else the summary says re-verification was deferred to the next `recall`. The
// delivery is the recorded `pull_request` `closed` payload of @repomem/github's webhook tests,
// signed as GitHub signs it; the GitHub API is a loopback server answering the contents API.
import { execFileSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, cli, jsonOf } from './in-process.js';
import { makeTempDir } from './support.js';

const SECRET = 'webhook promotion secret';
const BRANCH_COMMIT = '5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b';
const NET = 'export const RETRIES = 3;\nexport const BACKOFF_MS = 200;\n';
const RECORDED = join(import.meta.dirname, '../../github/test/webhooks/fixtures/pull-request-closed-merged.json');

let temp: { path: string; remove: () => void };
beforeEach(() => {
  temp = makeTempDir('repomem-webhook-promotion-');
  mkdirSync(join(temp.path, 'src'));
  writeFileSync(join(temp.path, 'src/net.ts'), NET);
});
afterEach(() => temp.remove());

/** The recorded merged delivery (merge commit `mergeCommit` when given), signed, in a file. */
function writeDelivery(mergeCommit?: string, id = 'delivery-1'): { file: string; mergeCommit: string } {
  const payload = JSON.parse(readFileSync(RECORDED, 'utf8')) as { pull_request: Record<string, unknown> };
  if (mergeCommit !== undefined) payload.pull_request.merge_commit_sha = mergeCommit;
  const body = JSON.stringify(payload);
  const headers = {
    'X-GitHub-Event': 'pull_request',
    'X-GitHub-Delivery': id,
    'X-Hub-Signature-256': `sha256=${createHmac('sha256', SECRET).update(body, 'utf8').digest('hex')}`,
  };
  const file = join(temp.path, `${id}.json`);
  writeFileSync(file, JSON.stringify({ headers, body }));
  return { file, mergeCommit: payload.pull_request.merge_commit_sha as string };
}

/** A memory learned on `feature/retry` citing line 1 of src/net.ts (checked in the directory). */
async function storeBranchMemory(db: string): Promise<void> {
  const stored = await cli(
    [
      'memories',
      'store',
      '--repo',
      'acme/app',
      '--store',
      `sqlite:${db}`,
      '--source',
      'dir:.',
      '--commit',
      BRANCH_COMMIT,
      '--subject',
      'Retries',
      '--fact',
      'Network calls retry three times.',
      '--cite',
      'src/net.ts:1',
      '--json',
    ],
    { cwd: temp.path, env: { GITHUB_HEAD_REF: 'feature/retry' } },
  );
  expect(stored.code, stored.stderr).toBe(0);
}

function webhook(file: string, db: string, env: Record<string, string>, cwd = temp.path): Promise<CliResult> {
  return cli(['webhook', '--delivery', file, '--store', `sqlite:${db}`, '--json'], {
    cwd,
    env: { REPOMEM_WEBHOOK_SECRET: SECRET, ...env },
  });
}

/** A loopback GitHub API serving src/net.ts of acme/app at any ref with `text`, recording requests. */
async function contentsApi(text: string) {
  const seen: { url: string; auth: string | undefined }[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    seen.push({ url: request.url ?? '', auth: request.headers.authorization });
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/repos/acme/app/contents/src/net.ts') {
      const bytes = Buffer.from(text);
      const sha = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
      response.writeHead(200, { 'content-type': 'application/json', etag: `"${sha}"` });
      response.end(
        JSON.stringify({
          type: 'file',
          size: bytes.length,
          name: 'net.ts',
          path: 'src/net.ts',
          sha,
          encoding: 'base64',
          content: bytes.toString('base64'),
        }),
      );
      return;
    }
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message: 'Not Found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    seen,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('repomem webhook: promotion re-verifies at the merge commit when it can read the repository', () => {
  it('with a GitHub token: read at the merge commit through the API; code changed there => invalidated', async () => {
    const db = join(temp.path, 'memories.db');
    await storeBranchMemory(db);
    const { file, mergeCommit } = writeDelivery();
    const api = await contentsApi('export const RETRIES = 5;\nexport const BACKOFF_MS = 200;\n');
    try {
      const result = await webhook(file, db, { GH_TOKEN: 'hook-token', GITHUB_API_URL: api.url });
      expect(result.code, result.stderr).toBe(0);
      expect(jsonOf(result)).toMatchObject({
        outcome: 'positive',
        reverification: 'github',
        branch: { kind: 'promoted', ref: 'feature/retry', into: 'main', records: 1, invalidated: 1 },
      });
      expect(api.seen).toEqual([
        { url: `/repos/acme/app/contents/src/net.ts?ref=${mergeCommit}`, auth: 'token hook-token' },
      ]);
    } finally {
      await api.close();
    }
  });

  it('the same code at the merge commit => promoted valid, nothing invalidated', async () => {
    const db = join(temp.path, 'memories.db');
    await storeBranchMemory(db);
    const { file } = writeDelivery();
    const api = await contentsApi(NET);
    try {
      const result = await webhook(file, db, { GITHUB_TOKEN: 'hook-token', GITHUB_API_URL: api.url });
      expect(jsonOf(result)).toMatchObject({
        reverification: 'github',
        branch: { kind: 'promoted', records: 1, invalidated: 0 },
      });
      expect(api.seen).toHaveLength(1);
    } finally {
      await api.close();
    }
  });

  it('in a clone of the repository: read at the merge commit from git', async () => {
    const db = join(temp.path, 'memories.db');
    await storeBranchMemory(db);
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: temp.path,
        encoding: 'utf8',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@example.com',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@example.com',
        },
      }).trim();
    git('init', '-q', '-b', 'main');
    git('remote', 'add', 'origin', 'https://github.com/acme/app.git');
    writeFileSync(join(temp.path, 'src/net.ts'), 'export const RETRIES = 4;\n');
    git('add', 'src/net.ts');
    git('commit', '-q', '-m', 'merge');
    const { file } = writeDelivery(git('rev-parse', 'HEAD'));
    const result = await webhook(file, db, {});
    expect(result.code, result.stderr).toBe(0);
    expect(jsonOf(result)).toMatchObject({
      reverification: 'clone',
      branch: { kind: 'promoted', records: 1, invalidated: 1 },
    });
  });

  it('neither a token nor a clone: promoted as before, and the summary says re-verification was deferred', async () => {
    const db = join(temp.path, 'memories.db');
    await storeBranchMemory(db);
    const { file } = writeDelivery();
    const result = await webhook(file, db, {});
    expect(result.code, result.stderr).toBe(0);
    expect(jsonOf(result)).toMatchObject({
      reverification: 'deferred',
      branch: { kind: 'promoted', records: 1, invalidated: 0 },
    });
    // Text output, on a second branch memory (a new delivery id: the first one is a duplicate now).
    await storeBranchMemory(db);
    const again = writeDelivery(undefined, 'delivery-2');
    const text = await cli(['webhook', '--delivery', again.file, '--store', `sqlite:${db}`], {
      cwd: temp.path,
      env: { REPOMEM_WEBHOOK_SECRET: SECRET },
    });
    expect(text.stdout).toContain('reverification=deferred');
  });
});
