// Why: a GitHub token must reach only the API host it belongs to. These tests pin the rules
// (endpoint from the caller or GITHUB_API_URL, token from the caller or GITHUB_TOKEN, no token over
// plain http except to this machine) and check on the wire, with the real @octokit/core against
// loopback servers, which requests carried the token, including across a redirect.
import { isRepomemError } from '@repomem/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createGitHubCitationReader,
  DEFAULT_GITHUB_API_URL,
  isLoopbackHost,
  resolveGitHubEndpoint,
} from '../src/index.js';
import { type GitHubContentsServer, startGitHubContentsServer } from './support/github-contents-server.js';

const REPO = 'acme/widgets';

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected an exception');
}

describe('resolveGitHubEndpoint', () => {
  it('defaults to api.github.com, anonymous', () => {
    expect(resolveGitHubEndpoint({ env: {} })).toEqual({ baseUrl: DEFAULT_GITHUB_API_URL, token: undefined });
  });

  it('takes GITHUB_API_URL (Actions, Enterprise Server) and GITHUB_TOKEN from the environment', () => {
    const env = { GITHUB_API_URL: 'https://ghe.example.com/api/v3/', GITHUB_TOKEN: 'env-token' };
    expect(resolveGitHubEndpoint({ env })).toEqual({ baseUrl: 'https://ghe.example.com/api/v3', token: 'env-token' });
  });

  it('sends GITHUB_TOKEN to api.github.com when GITHUB_API_URL is not set', () => {
    expect(resolveGitHubEndpoint({ env: { GITHUB_TOKEN: 'env-token' } }).token).toBe('env-token');
  });

  it('a caller token and base URL win over the environment', () => {
    const env = { GITHUB_API_URL: 'https://ghe.example.com/api/v3', GITHUB_TOKEN: 'env-token' };
    expect(resolveGitHubEndpoint({ baseUrl: 'https://other.example.com/api/v3', token: 'mine', env })).toEqual({
      baseUrl: 'https://other.example.com/api/v3',
      token: 'mine',
    });
    expect(resolveGitHubEndpoint({ token: 'mine', env })).toEqual({
      baseUrl: 'https://ghe.example.com/api/v3',
      token: 'mine',
    });
  });

  it('GITHUB_TOKEN is not sent to a caller base URL on another host than the one it belongs to', () => {
    expect(resolveGitHubEndpoint({ baseUrl: 'https://evil.example.com', env: { GITHUB_TOKEN: 'env-token' } })).toEqual({
      baseUrl: 'https://evil.example.com',
      token: undefined,
    });
    const env = { GITHUB_API_URL: 'https://ghe.example.com/api/v3', GITHUB_TOKEN: 'env-token' };
    expect(resolveGitHubEndpoint({ baseUrl: 'https://api.github.com', env }).token).toBeUndefined();
    expect(resolveGitHubEndpoint({ baseUrl: 'https://ghe.example.com:8443/api/v3', env }).token).toBeUndefined();
    // Same origin, the caller only spelled it out: the token belongs there.
    expect(resolveGitHubEndpoint({ baseUrl: 'https://ghe.example.com/api/v3', env }).token).toBe('env-token');
  });

  it('empty strings count as not set', () => {
    expect(resolveGitHubEndpoint({ baseUrl: '', token: '', env: { GITHUB_API_URL: '', GITHUB_TOKEN: '' } })).toEqual({
      baseUrl: DEFAULT_GITHUB_API_URL,
      token: undefined,
    });
  });

  it.each([['http://127.0.0.1:8080'], ['http://localhost:3000/api/v3'], ['http://[::1]:9000']])(
    'a token over plain http to the loopback host %s is allowed',
    (baseUrl) => {
      expect(resolveGitHubEndpoint({ baseUrl, token: 'secret-value', env: {} }).token).toBe('secret-value');
    },
  );

  it('a token over plain http to any other host => INVALID_ARGUMENT that does not show the token', () => {
    const error = thrown(() =>
      resolveGitHubEndpoint({ baseUrl: 'http://ghe.example.com/api/v3', token: 'secret-value', env: {} }),
    );
    expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
    expect((error as Error).message).toContain('refusing to send the token over plain http to ghe.example.com');
    expect((error as Error).message).not.toContain('secret-value');
  });

  it('GITHUB_TOKEN with an http GITHUB_API_URL that is not loopback => INVALID_ARGUMENT naming GITHUB_TOKEN', () => {
    const env = { GITHUB_API_URL: 'http://10.0.0.5/api/v3', GITHUB_TOKEN: 'secret-value' };
    const error = thrown(() => resolveGitHubEndpoint({ env }));
    expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
    expect((error as Error).message).toContain('refusing to send GITHUB_TOKEN over plain http');
  });

  it('plain http without a token is allowed (nothing secret to protect)', () => {
    expect(resolveGitHubEndpoint({ env: { GITHUB_API_URL: 'http://ghe.internal/api/v3' } })).toEqual({
      baseUrl: 'http://ghe.internal/api/v3',
      token: undefined,
    });
  });

  it.each([
    ['not a url', 'is not a URL'],
    ['ftp://ghe.example.com', 'must be an https://'],
    ['https://user:hunter2@ghe.example.com', 'must not hold credentials'],
    ['https://ghe.example.com/api/v3?x=1', 'must not have a query'],
  ])('a bad API URL %j => INVALID_ARGUMENT (%s)', (baseUrl, problem) => {
    const error = thrown(() => resolveGitHubEndpoint({ baseUrl, env: {} }));
    expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
    expect((error as Error).message).toContain(problem);
    expect((error as Error).message).not.toContain('hunter2');
  });

  it('a bad GITHUB_API_URL is named as such', () => {
    const error = thrown(() => resolveGitHubEndpoint({ env: { GITHUB_API_URL: 'api.github.com' } }));
    expect((error as Error).message).toContain('GITHUB_API_URL is not a URL');
  });

  it('a token holding whitespace => INVALID_ARGUMENT that does not show the token', () => {
    const error = thrown(() => resolveGitHubEndpoint({ token: 'secret-value\n', env: {} }));
    expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
    expect((error as Error).message).not.toContain('secret-value');
  });

  it('isLoopbackHost knows exactly 127.0.0.1, localhost and ::1', () => {
    expect(['127.0.0.1', 'localhost', 'LOCALHOST', '[::1]'].map(isLoopbackHost)).toEqual([true, true, true, true]);
    expect(['127.0.0.2', 'localhost.example.com', '0.0.0.0', '::1'].map(isLoopbackHost)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('GitHub citation reader: where the token goes, on the wire', () => {
  let server: GitHubContentsServer;
  let other: GitHubContentsServer;

  beforeAll(async () => {
    server = await startGitHubContentsServer();
    other = await startGitHubContentsServer();
  });

  afterAll(async () => {
    await server.close();
    await other.close();
  });

  beforeEach(() => {
    server.requests.length = 0;
    other.requests.length = 0;
    server.setFiles(REPO, 'main', { 'README.md': '# Widgets\n' });
    server.setFiles('acme/renamed', 'main', { 'README.md': '# Renamed\n' });
    other.setFiles(REPO, 'main', { 'README.md': '# Elsewhere\n' });
  });

  it('GITHUB_TOKEN goes to the GITHUB_API_URL host', async () => {
    const env = { GITHUB_API_URL: server.baseUrl, GITHUB_TOKEN: 'env-token' };
    await createGitHubCitationReader({ env }).read({ repo: REPO, path: 'README.md' });
    expect(server.requests[0]?.authorization).toBe('token env-token');
  });

  it('GITHUB_TOKEN does not go to a base URL the caller points at another host', async () => {
    const env = { GITHUB_API_URL: other.baseUrl, GITHUB_TOKEN: 'env-token' };
    const source = await createGitHubCitationReader({ baseUrl: server.baseUrl, env }).read({
      repo: REPO,
      path: 'README.md',
    });
    expect(source).toMatchObject({ kind: 'text', text: '# Widgets\n' });
    expect(server.requests[0]?.authorization).toBeUndefined();
  });

  it('a redirect to another origin is followed without the token', async () => {
    server.failNext({
      status: 302,
      headers: { location: `${other.baseUrl}/repos/${REPO}/contents/README.md` },
      body: { message: 'Found' },
    });
    const source = await createGitHubCitationReader({ baseUrl: server.baseUrl, token: 'mine', env: {} }).read({
      repo: REPO,
      path: 'README.md',
    });
    expect(source).toMatchObject({ kind: 'text', text: '# Elsewhere\n' });
    expect(server.requests[0]?.authorization).toBe('token mine');
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]?.authorization).toBeUndefined();
  });

  it('a redirect on the same host (a renamed repository) keeps the token', async () => {
    server.failNext({
      status: 301,
      headers: { location: `${server.baseUrl}/repos/acme/renamed/contents/README.md` },
      body: { message: 'Moved Permanently' },
    });
    const source = await createGitHubCitationReader({ baseUrl: server.baseUrl, token: 'mine', env: {} }).read({
      repo: REPO,
      path: 'README.md',
    });
    expect(source).toMatchObject({ kind: 'text', text: '# Renamed\n' });
    expect(server.requests.map((request) => request.authorization)).toEqual(['token mine', 'token mine']);
  });

  it('a token for a plain-http host that is not loopback is refused before any request', () => {
    const error = thrown(() =>
      createGitHubCitationReader({ env: { GITHUB_API_URL: 'http://ghe.example.com/api/v3', GITHUB_TOKEN: 't' } }),
    );
    expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
  });
});
