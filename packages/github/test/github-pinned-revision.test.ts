// Why: a citation verified through the GitHub reader at a branch must record the commit it was
// read at (`verified_commit`), or the next verification cannot follow its lines. These tests
// verify at `main` through the loopback contents API, whose `main` points at a commit, then move
// the branch to a commit that shifts the cited lines and verify again, with the real @octokit/core.
import { Octokit } from '@octokit/core';
import { anchoredCitation, type Citation, checkCitation, StoreRegistry, snippetHash } from '@repomem/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGitHubCommitResolver } from '../src/citations/github-commit-ref.js';
import { createGitHubGet } from '../src/citations/github-get.js';
import { createGitHubCitationReader } from '../src/index.js';
import { type GitHubContentsServer, startGitHubContentsServer } from './support/github-contents-server.js';

const REPO = 'acme/widgets';
const FIRST = 'a1'.repeat(20);
const SECOND = 'b2'.repeat(20);
const CONFIG_V1 = 'export const API_VERSION = 3;\nexport const TIMEOUT_MS = 500;\n';
const CONFIG_V2 = `// header added later\n// second line\n\n${CONFIG_V1}`;

let server: GitHubContentsServer;

const apiLine = (): Citation => ({
  path: 'src/config.ts',
  line_start: 1,
  line_end: 1,
  snippet_hash: snippetHash('export const API_VERSION = 3;'),
});

const reader = () => createGitHubCitationReader({ baseUrl: server.baseUrl, retryDelayMs: 1, env: {} });

beforeAll(async () => {
  server = await startGitHubContentsServer();
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  server.setFiles(REPO, FIRST, { 'src/config.ts': CONFIG_V1 });
  server.setFiles(REPO, SECOND, { 'src/config.ts': CONFIG_V2 });
  server.pointBranch(REPO, 'main', FIRST);
});

describe('GitHub citation reader: the commit behind a branch', () => {
  it('verified at main, the citation records the commit main names', async () => {
    const check = await checkCitation(reader(), REPO, apiLine(), 'main');
    expect(check).toMatchObject({ kind: 'valid', revision: FIRST });
    if (check.kind !== 'valid') throw new Error('expected valid');
    expect(anchoredCitation(check).verified_commit).toBe(FIRST.slice(0, 12));
    expect(server.requests.map((request) => `${request.status} ${request.url}`)).toEqual([
      `200 /repos/acme/widgets/commits/main`,
      `200 /repos/acme/widgets/contents/src/config.ts?ref=${FIRST}`,
    ]);
  });

  it('after a commit moves the cited lines, the next verification re-anchors them through the comparison', async () => {
    const first = await checkCitation(reader(), REPO, apiLine(), 'main');
    if (first.kind !== 'valid') throw new Error('expected valid');
    const recorded = anchoredCitation(first);

    server.pointBranch(REPO, 'main', SECOND);
    server.requests.length = 0;
    const second = await checkCitation(reader(), REPO, recorded, 'main');
    expect(second).toMatchObject({ kind: 'relocated', revision: SECOND, relocated: { line_start: 4, line_end: 4 } });
    if (second.kind !== 'relocated') throw new Error('expected relocated');
    expect(anchoredCitation(second)).toMatchObject({
      line_start: 4,
      line_end: 4,
      verified_commit: SECOND.slice(0, 12),
    });
    // Mapped from the recorded commit to the commit read, not to the moving branch name.
    expect(server.requests.map((request) => request.path)).toContain(`${FIRST.slice(0, 12)}...${SECOND}`);
  });

  it('one resolution per reader and ref; a full commit id and an unknown branch are not resolved into anything', async () => {
    const github = reader();
    await checkCitation(github, REPO, apiLine(), 'main');
    await checkCitation(github, REPO, { ...apiLine(), path: 'src/config.ts' }, 'main');
    expect(server.requests.filter((request) => request.url.includes('/commits/'))).toHaveLength(1);

    server.requests.length = 0;
    expect(await checkCitation(github, REPO, apiLine(), FIRST)).toMatchObject({ kind: 'valid', revision: FIRST });
    expect(server.requests.filter((request) => request.url.includes('/commits/'))).toHaveLength(0);

    expect(await github.resolveRevision?.({ repo: REPO, ref: 'no-such-branch' })).toBeUndefined();
  });

  it('with no ref, the default branch is resolved', async () => {
    const check = await checkCitation(reader(), REPO, apiLine());
    expect(check).toMatchObject({ kind: 'valid', revision: FIRST });
  });

  it('GitHub failing while resolving => unavailable, never invalid', async () => {
    server.failNext({ status: 502 }, 3);
    expect(await checkCitation(reader(), REPO, apiLine(), 'main')).toMatchObject({ kind: 'unavailable' });
  });

  it('the "github" scheme resolves the context ref', async () => {
    const github = await new StoreRegistry().openCitationReader('github', {
      repo: REPO,
      ref: 'main',
      env: { GITHUB_API_URL: server.baseUrl },
    });
    expect(await checkCitation(github, REPO, apiLine())).toMatchObject({ kind: 'valid', revision: FIRST });
  });
});

describe('GitHub commit resolver', () => {
  it('trusts an answer for the TTL, then revalidates it with its ETag and sees the branch move', async () => {
    let clock = 0;
    const get = createGitHubGet(new Octokit({ baseUrl: server.baseUrl }), 0, 1);
    const resolve = createGitHubCommitResolver(get, 1000, () => clock);
    expect(await resolve('acme', 'widgets', 'main')).toBe(FIRST);
    clock = 500;
    expect(await resolve('acme', 'widgets', 'main')).toBe(FIRST);
    clock = 1500;
    expect(await resolve('acme', 'widgets', 'main')).toBe(FIRST);
    server.pointBranch(REPO, 'main', SECOND);
    clock = 3000;
    expect(await resolve('acme', 'widgets', 'main')).toBe(SECOND);
    expect(server.requests.map((request) => request.status)).toEqual([200, 304, 200]);
    expect(server.requests[1]?.ifNoneMatch).toBe(`"${FIRST}"`);
  });
});
