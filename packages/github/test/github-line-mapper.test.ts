// Why: the GitHub reader's `mapLines` through the compare API, with the real @octokit/core against
// the loopback server (which computes comparisons from the files it serves): a rename, shifted
// lines, changed lines, a deleted file, a missing patch, a diverged base, an unknown revision, the
// default branch, one request per pair of commits, and verification end to end (a renamed file
// is re-anchored, not invalidated).
import { anchoredCitation, type Citation, checkCitation, type LineMapRequest, snippetHash } from '@repomem/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { citationReaderScheme, createGitHubCitationReader } from '../src/index.js';
import { type GitHubContentsServer, startGitHubContentsServer } from './support/github-contents-server.js';

const REPO = 'acme/widgets';
const BASE = 'b'.repeat(40);
const HEAD = 'c'.repeat(40);
const body = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, index) => `${prefix}(${index + 1});`).join('\n');
const NET = `${body(10, 'net')}\n`;
const CONFIG = `${body(10, 'config')}\n`;
const SHIFTED = `// one\n// two\n${CONFIG}`;
const UTIL = `${body(10, 'util')}\n`;
const UTIL_EDITED = UTIL.replace('util(5);', 'util(5, true);');

let server: GitHubContentsServer;

const reader = () => createGitHubCitationReader({ baseUrl: server.baseUrl, retryDelayMs: 1, env: {} });
const request = (path: string, line_start: number, line_end: number, to: string | null = HEAD): LineMapRequest => ({
  repo: REPO,
  from: BASE,
  ...(to === null ? {} : { to }),
  path,
  line_start,
  line_end,
});
const mapLines = (value: LineMapRequest) => {
  const mapper = reader().mapLines;
  if (mapper === undefined) throw new Error('the GitHub reader maps lines');
  return mapper(value);
};

beforeAll(async () => {
  server = await startGitHubContentsServer();
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  server.setPatchLimit(undefined);
  server.setFiles(REPO, BASE, {
    'src/net.ts': NET,
    'src/config.ts': CONFIG,
    'src/util.ts': UTIL,
    'docs/gone.md': '# Gone soon\n',
    'README.md': '# Widgets\n',
  });
  const head = {
    'src/network.ts': NET,
    'src/config.ts': SHIFTED,
    'src/util.ts': UTIL_EDITED,
    'README.md': '# Widgets\n',
  };
  server.setFiles(REPO, HEAD, head);
  server.setFiles(REPO, 'main', head);
});

describe('GitHub reader mapLines (compare API)', () => {
  it('a renamed file maps to its new path, the same lines', async () => {
    expect(await mapLines(request('src/net.ts', 2, 4))).toEqual({
      kind: 'moved',
      path: 'src/network.ts',
      line_start: 2,
      line_end: 4,
    });
  });

  it('lines shifted by an insertion above move; an untouched file is same', async () => {
    expect(await mapLines(request('src/config.ts', 5, 6))).toEqual({
      kind: 'moved',
      path: 'src/config.ts',
      line_start: 7,
      line_end: 8,
    });
    expect(await mapLines(request('README.md', 1, 1))).toEqual({ kind: 'same', file_changed: false });
  });

  it('changed lines are changed (with the added range); lines beside them stay', async () => {
    expect(await mapLines(request('src/util.ts', 4, 6))).toEqual({
      kind: 'changed',
      path: 'src/util.ts',
      line_start: 4,
      line_end: 6,
      added: [{ line_start: 5, line_end: 5 }],
    });
    expect(await mapLines(request('src/util.ts', 1, 2))).toEqual({ kind: 'same', file_changed: true });
  });

  it('a deleted file is deleted', async () => {
    expect(await mapLines(request('docs/gone.md', 1, 1))).toEqual({ kind: 'deleted' });
  });

  it('a missing patch (too large) is unknown; a pure rename needs none', async () => {
    server.setPatchLimit(10);
    expect(await mapLines(request('src/util.ts', 4, 6))).toMatchObject({ kind: 'unknown' });
    expect(await mapLines(request('src/net.ts', 2, 4))).toMatchObject({ kind: 'moved', path: 'src/network.ts' });
  });

  it('a diverged base, an unknown revision and a range-like ref are unknown', async () => {
    server.setCompareStatus(REPO, BASE, HEAD, 'diverged');
    try {
      expect(await mapLines(request('src/net.ts', 1, 1))).toMatchObject({ kind: 'unknown' });
    } finally {
      server.setCompareStatus(REPO, BASE, HEAD, undefined);
    }
    expect(await mapLines({ ...request('src/net.ts', 1, 1), from: 'd'.repeat(40) })).toMatchObject({ kind: 'unknown' });
    expect(await mapLines({ ...request('src/net.ts', 1, 1), to: 'main..other' })).toMatchObject({ kind: 'unknown' });
  });

  it('without a target revision it compares to the default branch', async () => {
    server.setDefaultBranch(REPO, 'main');
    expect(await mapLines(request('src/net.ts', 2, 4, null))).toMatchObject({
      kind: 'moved',
      path: 'src/network.ts',
    });
    expect(server.requests.map((each) => each.url)).toEqual([
      `/repos/${REPO}`,
      `/repos/${REPO}/compare/${BASE}...main`,
    ]);
  });

  it('GitHub failing beyond retries throws BACKEND_UNAVAILABLE (verification then searches the snippet)', async () => {
    server.failNext({ status: 502 }, 3);
    await expect(mapLines(request('src/net.ts', 1, 1))).rejects.toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
  });

  it('one comparison serves every citation of a pair of commits', async () => {
    const shared = reader();
    await Promise.all([
      shared.mapLines?.(request('src/net.ts', 1, 1)),
      shared.mapLines?.(request('src/config.ts', 1, 1)),
    ]);
    await shared.mapLines?.(request('src/util.ts', 1, 1));
    expect(server.requests.filter((each) => each.url.includes('/compare/'))).toHaveLength(1);
  });
});

describe('verification through the GitHub reader follows the code', () => {
  const netCitation = (): Citation => ({
    path: 'src/net.ts',
    line_start: 2,
    line_end: 3,
    snippet_hash: snippetHash('net(2);\nnet(3);'),
    verified_commit: BASE.slice(0, 12),
  });

  it('a renamed file is re-anchored at its new path, not file_missing', async () => {
    const check = await checkCitation(reader(), REPO, netCitation(), HEAD);
    expect(check).toMatchObject({ kind: 'relocated', relocated: { path: 'src/network.ts', line_start: 2 } });
  });

  it('cited lines a commit changed are invalid lines_changed', async () => {
    const citation: Citation = {
      path: 'src/util.ts',
      line_start: 5,
      line_end: 5,
      snippet_hash: snippetHash('util(5);'),
      verified_commit: BASE.slice(0, 12),
    };
    expect(await checkCitation(reader(), REPO, citation, HEAD)).toMatchObject({
      kind: 'invalid',
      reason: 'lines_changed',
    });
  });

  it('a citation re-anchored at a branch drops verified_commit, so a later edit elsewhere is not a change of it', async () => {
    const cited: Citation = {
      path: 'src/config.ts',
      line_start: 5,
      line_end: 6,
      snippet_hash: snippetHash('config(5);\nconfig(6);'),
      verified_commit: BASE.slice(0, 12),
    };
    server.setDefaultBranch(REPO, 'main');
    // Night 1: two lines above the cited ones; re-anchored at the default branch (not a commit id).
    const first = await checkCitation(reader(), REPO, cited);
    expect(first).toMatchObject({ kind: 'relocated', relocated: { line_start: 7, line_end: 8 } });
    if (first.kind !== 'relocated') return;
    const kept = anchoredCitation(first);
    expect(kept.verified_commit).toBeUndefined();
    // Night 2: one more line above, and config(7) (the base's line 7, not cited) edited.
    server.setFiles(REPO, 'main', {
      'README.md': '# Widgets\n',
      'src/config.ts': `// zero\n${SHIFTED.replace('config(7);', 'config(7, true);')}`,
    });
    expect(await checkCitation(reader(), REPO, kept)).toMatchObject({
      kind: 'relocated',
      relocated: { line_start: 8, line_end: 9 },
    });
  });

  it('the github scheme passes mapLines on, bound to the repository and the context ref', async () => {
    server.setDefaultBranch(REPO, 'main');
    const bound = await citationReaderScheme.open(
      {},
      { repo: REPO, env: { GITHUB_API_URL: server.baseUrl }, cwd: process.cwd() },
    );
    expect(bound.mapLines).toBeDefined();
    const check = await checkCitation(bound, REPO, netCitation());
    expect(check).toMatchObject({ kind: 'relocated', relocated: { path: 'src/network.ts' } });
  });
});
