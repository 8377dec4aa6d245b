// Why: the CLI and library users open the GitHub reader by spec through core's registry, which
// loads this package by name on demand. These tests go through a fresh `StoreRegistry` with its
// built-in map (the published package's entry point, not the sources) against the loopback
// contents server, so the spec grammar, the repository and revision defaults, and the
// environment's endpoint and token are checked the way a caller meets them.
import { type CitationReader, isRepomemError, StoreRegistry } from '@repomem/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { citationReaderScheme } from '../src/index.js';
import { type GitHubContentsServer, startGitHubContentsServer } from './support/github-contents-server.js';

const REPO = 'acme/widgets';
const COMMIT = 'c'.repeat(40);

let server: GitHubContentsServer;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { GITHUB_API_URL: server.baseUrl, ...extra };
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
  server.setFiles(REPO, 'main', { 'README.md': '# Widgets\n' });
  server.setFiles(REPO, 'release', { 'README.md': '# Widgets (release)\n' });
  server.setFiles(REPO, COMMIT, { 'README.md': '# Widgets at a commit\n' });
  server.setFiles('acme/other', 'main', { 'README.md': '# Other\n' });
});

describe('github citation-reader scheme through the registry', () => {
  it('the built-in map loads @repomem/github for "github"', async () => {
    const registry = new StoreRegistry();
    expect(registry.citationReaderSchemes()).toContain('github');
    const resolved = await registry.resolveCitationReaderSpec('github', { env: env() });
    expect(resolved.label).toBe('github');
    expect(resolved.scheme.scheme).toBe('github');
  });

  it('"github" reads the context repository with GITHUB_TOKEN at GITHUB_API_URL', async () => {
    server.requireToken('env-token');
    const reader = await new StoreRegistry().openCitationReader('github', {
      repo: REPO,
      env: env({ GITHUB_TOKEN: 'env-token' }),
    });
    expect(reader.name).toBe('github');
    expect(await reader.read({ repo: REPO, path: 'README.md' })).toMatchObject({
      kind: 'text',
      text: '# Widgets\n',
      revision: 'HEAD',
    });
    expect(server.requests[0]).toMatchObject({ url: '/repos/acme/widgets/contents/README.md' });
    expect(server.requests[0]?.authorization).toBe('token env-token');
  });

  it('context.ref applies when a read names no revision; a read that names one keeps it', async () => {
    const reader = await new StoreRegistry().openCitationReader('github', { repo: REPO, ref: 'release', env: env() });
    expect(await reader.read({ repo: REPO, path: 'README.md' })).toMatchObject({
      text: '# Widgets (release)\n',
      revision: 'release',
    });
    expect(await reader.read({ repo: REPO, path: 'README.md', ref: COMMIT })).toMatchObject({
      text: '# Widgets at a commit\n',
      revision: COMMIT,
    });
    expect(server.requests.map((request) => request.ref)).toEqual(['release', COMMIT]);
  });

  it('"github:<owner>/<repo>" reads that repository, whatever repository the memory belongs to', async () => {
    const registry = new StoreRegistry();
    expect((await registry.resolveCitationReaderSpec('github:acme/other', { env: env() })).label).toBe(
      'github:acme/other',
    );
    const reader: CitationReader = await registry.openCitationReader('github:acme/other', { repo: REPO, env: env() });
    expect(await reader.read({ repo: REPO, path: 'README.md' })).toMatchObject({ text: '# Other\n' });
    expect(server.requests[0]?.url).toBe('/repos/acme/other/contents/README.md');
  });

  it('a stale citation is missing; a token GitHub refuses is BACKEND_UNAVAILABLE, never missing', async () => {
    const reader = await new StoreRegistry().openCitationReader('github', { repo: REPO, env: env() });
    expect(await reader.read({ repo: REPO, path: 'gone.md' })).toEqual({ kind: 'missing', revision: 'HEAD' });
    server.requireToken('the-right-token');
    const error = await rejection(reader.read({ repo: REPO, path: 'README.md' }));
    expect(isRepomemError(error, 'BACKEND_UNAVAILABLE')).toBe(true);
  });

  it('a bad repository in the spec => INVALID_ARGUMENT naming the spec and the grammar', async () => {
    const error = await rejection(new StoreRegistry().resolveCitationReaderSpec('github:not-a-slug', { env: env() }));
    expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
    expect((error as Error).message).toContain('github:not-a-slug');
    expect((error as Error).message).toContain('github:<owner>/<repo>');
  });

  it('a bare "github" with no repository in the context => INVALID_ARGUMENT, no request', async () => {
    const error = await rejection(new StoreRegistry().openCitationReader('github', { env: env() }));
    expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
    expect((error as Error).message).toContain('needs a repository');
    expect(server.requests).toHaveLength(0);
  });

  it('GITHUB_TOKEN with a plain-http GITHUB_API_URL that is not loopback => INVALID_ARGUMENT at open', async () => {
    const error = await rejection(
      new StoreRegistry().openCitationReader('github', {
        repo: REPO,
        env: { GITHUB_API_URL: 'http://ghe.example.com/api/v3', GITHUB_TOKEN: 'secret-value' },
      }),
    );
    expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
    expect((error as Error).message).toContain('plain http');
    expect((error as Error).message).not.toContain('secret-value');
  });

  it('the exported scheme can be registered directly (bundlers, registries without built-ins)', async () => {
    const registry = new StoreRegistry({ builtins: false });
    registry.registerCitationReaderScheme(citationReaderScheme);
    const reader = await registry.openCitationReader('github', { repo: REPO, env: env() });
    expect(await reader.read({ repo: REPO, path: 'README.md' })).toMatchObject({ text: '# Widgets\n' });
  });
});
