// Why: the GitHub citation reader against the real @octokit/core and a loopback server shaped like
// GitHub's contents API: every outcome (text, missing, directory, binary, too large) and every
// failure (auth, 5xx, rate limit, unreachable) plus both caches (by commit sha, by ETag).
import { createServer } from 'node:net';
import { Octokit } from '@octokit/core';
import { type CitationReader, isRepomemError } from '@repomem/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGitHubCitationReader } from '../src/index.js';
import { type GitHubContentsServer, gitBlobSha, startGitHubContentsServer } from './support/github-contents-server.js';

const REPO = 'acme/widgets';
const SHA_OLD = 'a'.repeat(40);
const README = '# Widgets\n\nLine three\n';
const UNICODE_PATH = 'docs/my notes/café ü.md';

let server: GitHubContentsServer;

function reader(options: Parameters<typeof createGitHubCitationReader>[0] = {}): CitationReader {
  return createGitHubCitationReader({ baseUrl: server.baseUrl, retryDelayMs: 1, env: {}, ...options });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** A port nothing listens on (bound, read, then released). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  server = await startGitHubContentsServer();
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  server.requireToken(undefined);
  server.setInlineLimit(1024 * 1024);
  server.setFiles(REPO, 'main', {
    'README.md': README,
    'src/index.ts': 'export const answer = 42;\n',
    'assets/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
    'data/latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]),
    'big.txt': 'x'.repeat(4000),
    [UNICODE_PATH]: 'unicode path\n',
  });
  server.setFiles(REPO, SHA_OLD, { 'README.md': '# Old widgets\n' });
  server.setFiles(REPO, 'v1.0.0', { 'README.md': '# Tagged\n' });
});

describe('GitHub citation reader: outcomes', () => {
  it('reads a text file at the default branch, with its blob sha and revision HEAD', async () => {
    const source = await reader().read({ repo: REPO, path: 'README.md' });
    expect(source).toEqual({ kind: 'text', text: README, blobSha: gitBlobSha(Buffer.from(README)), revision: 'HEAD' });
    expect(server.requests[0]?.url).toBe('/repos/acme/widgets/contents/README.md');
  });

  it('reads at a branch, a tag and a commit; the revision is the ref asked for', async () => {
    const github = reader();
    expect(await github.read({ repo: REPO, path: 'README.md', ref: SHA_OLD })).toMatchObject({
      kind: 'text',
      text: '# Old widgets\n',
      revision: SHA_OLD,
    });
    expect(await github.read({ repo: REPO, path: 'README.md', ref: 'v1.0.0' })).toMatchObject({
      text: '# Tagged\n',
      revision: 'v1.0.0',
    });
    expect(await github.read({ repo: REPO, path: 'README.md', ref: 'main' })).toMatchObject({ revision: 'main' });
    expect(server.requests.map((request) => request.ref)).toEqual([SHA_OLD, 'v1.0.0', 'main']);
  });

  it('a file that does not exist is missing', async () => {
    expect(await reader().read({ repo: REPO, path: 'src/gone.ts' })).toEqual({ kind: 'missing', revision: 'HEAD' });
  });

  it('an unknown repository answers 404 and is missing', async () => {
    expect(await reader().read({ repo: 'acme/nothing', path: 'README.md' })).toEqual({
      kind: 'missing',
      revision: 'HEAD',
    });
  });

  it('a directory (array response) is missing', async () => {
    expect(await reader().read({ repo: REPO, path: 'src' })).toEqual({ kind: 'missing', revision: 'HEAD' });
  });

  it('a file with NUL bytes or invalid UTF-8 is binary', async () => {
    const github = reader();
    expect(await github.read({ repo: REPO, path: 'assets/logo.png' })).toEqual({ kind: 'binary', revision: 'HEAD' });
    expect(await github.read({ repo: REPO, path: 'data/latin1.txt' })).toEqual({ kind: 'binary', revision: 'HEAD' });
  });

  it('a file over maxBytes is too_large with its size', async () => {
    expect(await reader({ maxBytes: 1000 }).read({ repo: REPO, path: 'big.txt' })).toEqual({
      kind: 'too_large',
      revision: 'HEAD',
      bytes: 4000,
    });
  });

  it('a file GitHub does not inline (encoding "none", empty content) is too_large', async () => {
    server.setInlineLimit(100);
    expect(await reader().read({ repo: REPO, path: 'big.txt' })).toEqual({
      kind: 'too_large',
      revision: 'HEAD',
      bytes: 4000,
    });
  });

  it('encodes a path with spaces and unicode per segment', async () => {
    const source = await reader().read({ repo: REPO, path: UNICODE_PATH });
    expect(source).toMatchObject({ kind: 'text', text: 'unicode path\n' });
    expect(server.requests[0]?.url).toBe('/repos/acme/widgets/contents/docs/my%20notes/caf%C3%A9%20%C3%BC.md');
  });

  it('sends the token and reads when it is accepted', async () => {
    server.requireToken('good-token');
    const source = await reader({ token: 'good-token' }).read({ repo: REPO, path: 'README.md' });
    expect(source.kind).toBe('text');
    expect(server.requests[0]?.authorization).toBe('token good-token');
  });

  it('uses a caller-supplied Octokit as is', async () => {
    const octokit = new Octokit({ baseUrl: server.baseUrl });
    const source = await createGitHubCitationReader({ octokit }).read({ repo: REPO, path: 'src/index.ts' });
    expect(source).toMatchObject({ kind: 'text', text: 'export const answer = 42;\n' });
  });
});

describe('GitHub citation reader: failures', () => {
  it('bad credentials (401) => BACKEND_UNAVAILABLE "GitHub authentication failed", not retried', async () => {
    server.requireToken('good-token');
    const error = await rejection(reader({ token: 'wrong' }).read({ repo: REPO, path: 'README.md' }));
    expect(isRepomemError(error, 'BACKEND_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toContain('GitHub authentication failed');
    expect((error as Error).message).toContain('Bad credentials');
    expect(server.requests).toHaveLength(1);
  });

  it('a 403 without rate limit headers is an authentication failure too', async () => {
    server.failNext({ status: 403 });
    const error = await rejection(reader().read({ repo: REPO, path: 'README.md' }));
    expect(isRepomemError(error, 'BACKEND_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toContain('GitHub authentication failed');
  });

  it('500 then 200: retried and read', async () => {
    server.failNext({ status: 500 }, 2);
    const source = await reader({ retries: 2 }).read({ repo: REPO, path: 'README.md' });
    expect(source.kind).toBe('text');
    expect(server.requests.map((request) => request.status)).toEqual([500, 500, 200]);
  });

  it('5xx beyond the retry budget => BACKEND_UNAVAILABLE after retries + 1 attempts', async () => {
    server.failNext({ status: 503, body: { message: 'Service Unavailable' } }, 2);
    const error = await rejection(reader({ retries: 1 }).read({ repo: REPO, path: 'README.md' }));
    expect(isRepomemError(error, 'BACKEND_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toMatch(/after 2 attempt/);
    expect(server.requests).toHaveLength(2);
  });

  it('a short rate limit (429 retry-after: 0) is waited out and retried', async () => {
    server.failNext({ status: 429, headers: { 'retry-after': '0' } });
    const source = await reader().read({ repo: REPO, path: 'README.md' });
    expect(source.kind).toBe('text');
    expect(server.requests.map((request) => request.status)).toEqual([429, 200]);
  });

  it('a rate limit longer than the cap => BACKEND_UNAVAILABLE naming the wait, without waiting', async () => {
    const reset = String(Math.floor(Date.now() / 1000) + 3600);
    server.failNext({
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
      body: { message: 'API rate limit exceeded for 127.0.0.1.' },
    });
    const error = await rejection(reader().read({ repo: REPO, path: 'README.md' }));
    expect(isRepomemError(error, 'BACKEND_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toContain('rate limit');
    expect(server.requests).toHaveLength(1);
  });

  it('an unreachable server (closed port) => BACKEND_UNAVAILABLE', async () => {
    const port = await closedPort();
    const github = createGitHubCitationReader({
      baseUrl: `http://127.0.0.1:${port}`,
      retries: 1,
      retryDelayMs: 1,
      env: {},
    });
    const error = await rejection(github.read({ repo: REPO, path: 'README.md' }));
    expect(isRepomemError(error, 'BACKEND_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toMatch(/unreachable/);
  });

  it('an unknown ref => NOT_FOUND naming the ref', async () => {
    const error = await rejection(reader().read({ repo: REPO, path: 'README.md', ref: 'no-such-branch' }));
    expect(isRepomemError(error, 'NOT_FOUND')).toBe(true);
    expect((error as Error).message).toContain('no-such-branch');
  });

  it('a response that is not a contents object => BACKEND_UNAVAILABLE naming the problem', async () => {
    server.failNext({ status: 200, body: { type: 'file', size: -1 } });
    const error = await rejection(reader().read({ repo: REPO, path: 'README.md' }));
    expect(isRepomemError(error, 'BACKEND_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toContain('unexpected contents response');
  });

  it.each([['not-a-slug'], ['a/b/c'], ['-owner/repo'], ['owner/..']])(
    'bad slug %j => INVALID_ARGUMENT, no request',
    async (repo) => {
      const error = await rejection(reader().read({ repo, path: 'README.md' }));
      expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
      expect((error as Error).message).toContain('invalid repository slug');
      expect(server.requests).toHaveLength(0);
    },
  );

  it.each([['../etc/passwd'], ['/abs.md'], ['']])('bad path %j => INVALID_PATH, no request', async (path) => {
    const error = await rejection(reader().read({ repo: REPO, path }));
    expect(isRepomemError(error, 'INVALID_PATH')).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('bad options => INVALID_ARGUMENT', () => {
    expect(() => createGitHubCitationReader({ maxBytes: 0, env: {} })).toThrow(/maxBytes/);
    expect(() => createGitHubCitationReader({ retries: -1, env: {} })).toThrow(/retries/);
  });
});

describe('GitHub citation reader: caching', () => {
  it('a read pinned to a full commit sha is served from the cache (one request)', async () => {
    const github = reader();
    const first = await github.read({ repo: REPO, path: 'README.md', ref: SHA_OLD });
    const second = await github.read({ repo: REPO, path: 'README.md', ref: SHA_OLD });
    expect(second).toEqual(first);
    expect(server.requests).toHaveLength(1);
    // A missing file at a commit is immutable too.
    await github.read({ repo: REPO, path: 'nope.md', ref: SHA_OLD });
    await github.read({ repo: REPO, path: 'nope.md', ref: SHA_OLD });
    expect(server.requests).toHaveLength(2);
  });

  it('cache keys include the path and the repository', async () => {
    server.setFiles('acme/other', SHA_OLD, { 'README.md': '# Other\n' });
    const github = reader();
    await github.read({ repo: REPO, path: 'README.md', ref: SHA_OLD });
    expect(await github.read({ repo: 'acme/other', path: 'README.md', ref: SHA_OLD })).toMatchObject({
      text: '# Other\n',
    });
    expect(server.requests).toHaveLength(2);
  });

  it('a branch read is revalidated with If-None-Match; 304 serves the cached copy', async () => {
    const github = reader();
    const first = await github.read({ repo: REPO, path: 'README.md' });
    const second = await github.read({ repo: REPO, path: 'README.md' });
    expect(second).toEqual(first);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]?.ifNoneMatch).toBeUndefined();
    expect(server.requests[1]?.ifNoneMatch).toMatch(/^W\/"/);
    expect(server.requests[1]?.status).toBe(304);
  });

  it('a branch that moved is read again (ETag no longer matches)', async () => {
    const github = reader();
    await github.read({ repo: REPO, path: 'README.md', ref: 'main' });
    server.setFiles(REPO, 'main', { 'README.md': '# Widgets v2\n' });
    expect(await github.read({ repo: REPO, path: 'README.md', ref: 'main' })).toMatchObject({
      text: '# Widgets v2\n',
    });
    expect(server.requests.map((request) => request.status)).toEqual([200, 200]);
  });
});
