// Why: branch scope through the GitHub reader without a clone (issue 26): whether the working
// branch contains the commits memories were learned at comes from the compare API's status, with
// the real @octokit/core against the loopback server: ahead and identical are contained, behind,
// diverged and unknown commits are not, one request per distinct commit; a malformed answer
// fails loudly; the default branch is named once; and recall serves a branch memory accordingly.
import {
  createDocumentRecordBackend,
  createInMemoryStore,
  openVerifiedMemory,
  type VerifiedMemory,
} from '@repomem/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGitHubCitationReader } from '../src/index.js';
import { type GitHubContentsServer, startGitHubContentsServer } from './support/github-contents-server.js';

const REPO = 'acme/widgets';
const ANCESTOR = 'a'.repeat(40);
const SAME = 'b'.repeat(40);
const BEHIND = 'c'.repeat(40);
const DIVERGED = 'd'.repeat(40);
const UNKNOWN = 'e'.repeat(40);
const FILES = { 'src/net.ts': 'export const TIMEOUT_MS = 500;\n' };

let server: GitHubContentsServer;
const reader = () => createGitHubCitationReader({ baseUrl: server.baseUrl, retryDelayMs: 1, env: {} });

beforeAll(async () => {
  server = await startGitHubContentsServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  server.setDefaultBranch(REPO, 'main');
  for (const ref of ['main', 'feature', ANCESTOR, SAME, BEHIND, DIVERGED]) server.setFiles(REPO, ref, FILES);
  server.setCompareStatus(REPO, ANCESTOR, 'main', 'ahead');
  server.setCompareStatus(REPO, SAME, 'main', 'identical');
  server.setCompareStatus(REPO, BEHIND, 'main', 'behind');
  server.setCompareStatus(REPO, DIVERGED, 'main', 'diverged');
});

describe('the GitHub reader answers branch scope through the compare API', () => {
  it('contains ahead and identical commits, not behind, diverged or unknown ones; one request per commit', async () => {
    const answer = await reader().ancestry?.({
      repo: REPO,
      commits: [ANCESTOR, SAME, BEHIND, DIVERGED, UNKNOWN, ANCESTOR, 'not-a-commit'],
    });
    expect(answer).toEqual({ kind: 'known', headCommit: 'main', contained: new Set([ANCESTOR, SAME]) });
    const compares = server.requests.filter((request) => request.url.includes('/compare/'));
    expect(compares.map((request) => request.path).sort()).toEqual(
      [ANCESTOR, SAME, BEHIND, DIVERGED, UNKNOWN].map((commit) => `${commit}...main`).sort(),
    );
    expect(server.requests.filter((request) => request.url === `/repos/${REPO}`)).toHaveLength(1);
  });

  it('names the default branch, and answers unknown for a head that is not a ref', async () => {
    expect(await reader().branches?.(REPO)).toEqual({ defaultBranch: 'main' });
    expect(await reader().ancestry?.({ repo: REPO, head: 'a..b', commits: [ANCESTOR] })).toMatchObject({
      kind: 'unknown',
    });
    await expect(reader().ancestry?.({ repo: 'not a slug', commits: [] })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('fails loudly when GitHub fails or answers a comparison without a known status, deciding nothing', async () => {
    server.failNext({ status: 401 });
    await expect(reader().ancestry?.({ repo: REPO, head: 'main', commits: [ANCESTOR] })).rejects.toMatchObject({
      code: 'BACKEND_UNAVAILABLE',
    });
    server.failNext({ status: 200, body: { status: 'sideways' } });
    await expect(reader().ancestry?.({ repo: REPO, head: 'main', commits: [ANCESTOR] })).rejects.toThrow(
      /unexpected comparison/,
    );
  });

  it('recall on main serves a memory of a branch whose commit main contains, and passes over the others', async () => {
    const backend = createDocumentRecordBackend(createInMemoryStore());
    const service = openVerifiedMemory({ backend, citations: reader() });
    const stored = async (subject: string, commit: string): Promise<VerifiedMemory> => {
      const outcome = await service.store({
        repo: REPO,
        subject,
        fact: `${subject} holds`,
        citations: [{ path: 'src/net.ts', line_start: 1, line_end: 1 }],
      });
      if (outcome.kind !== 'stored') throw new Error(`not stored: ${outcome.kind}`);
      const record = { ...outcome.memory, learned_on: { ref: 'feature', commit }, revision: 2 };
      expect((await backend.apply([{ record, expectedRevision: 1 }], [])).ok).toBe(true);
      return record;
    };
    const merged = await stored('merged fact', ANCESTOR);
    await stored('unmerged fact', DIVERGED);
    const recalled = await service.recall(REPO, { branch: 'main' });
    expect(recalled.memories.map((memory) => memory.id)).toEqual([merged.id]);
    expect(recalled.outOfScope).toBe(1);
    expect(recalled.invalidated).toEqual([]);
  });
});
