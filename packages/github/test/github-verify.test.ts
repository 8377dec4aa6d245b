// Why: verification end to end through the GitHub reader: the same history as the git reader's
// test (lines moved by a later commit, a file deleted, a file renamed) served by the loopback
// contents API, checked with core's checkCitation / verifyCitations and the real @octokit/core.
import { type Citation, checkCitation, snippetHash, verifyCitations } from '@repomem/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubCitationReader } from '../src/index.js';
import { type GitHubContentsServer, startGitHubContentsServer } from './support/github-contents-server.js';

const REPO = 'acme/widgets';
const FIRST = '1'.repeat(40);
const LATEST = '3'.repeat(40);
const CONFIG_V1 = 'export const API_VERSION = 3;\nexport const TIMEOUT_MS = 500;\n';
const CONFIG_V2 = `// header added later\n// second line\n\n${CONFIG_V1}`;
const RENAMED = 'export function legacy() {\n  return 1;\n}\n';

let server: GitHubContentsServer;

const apiLine = (): Citation => ({
  path: 'src/config.ts',
  line_start: 1,
  line_end: 1,
  sha: FIRST,
  snippet_hash: snippetHash('export const API_VERSION = 3;'),
});

const reader = () => createGitHubCitationReader({ baseUrl: server.baseUrl, retryDelayMs: 1, env: {} });

beforeAll(async () => {
  server = await startGitHubContentsServer();
  server.setFiles(REPO, FIRST, {
    'src/config.ts': CONFIG_V1,
    'src/old-name.ts': RENAMED,
    'docs/removed.md': '# Soon gone\n',
  });
  const latest = { 'src/config.ts': CONFIG_V2, 'src/new-name.ts': RENAMED };
  server.setFiles(REPO, LATEST, latest);
  server.setFiles(REPO, 'main', latest);
});

afterAll(async () => {
  await server.close();
});

describe('GitHub citation reader: verification end to end', () => {
  it('lines moved => relocated; at the default branch the commit pin is dropped', async () => {
    const check = await checkCitation(reader(), REPO, apiLine());
    expect(check).toMatchObject({ kind: 'relocated', relocated: { line_start: 4, line_end: 4 } });
    expect(check.kind === 'relocated' && check.relocated.sha).toBeUndefined();
  });

  it('lines moved, read at a commit => relocated and pinned to that commit', async () => {
    const check = await checkCitation(reader(), REPO, apiLine(), LATEST);
    expect(check).toMatchObject({ kind: 'relocated', relocated: { line_start: 4, line_end: 4, sha: LATEST } });
  });

  it('at the commit it was made, the citation is valid', async () => {
    expect(await checkCitation(reader(), REPO, apiLine(), FIRST)).toMatchObject({ kind: 'valid' });
  });

  it('deleted and renamed files => invalid file_missing; the memory is not valid', async () => {
    const citations: Citation[] = [
      apiLine(),
      { path: 'docs/removed.md', line_start: 1, line_end: 1 },
      { path: 'src/old-name.ts', line_start: 1, line_end: 3, snippet_hash: snippetHash(RENAMED.trimEnd()) },
    ];
    const result = await verifyCitations(reader(), REPO, citations);
    expect(result).toMatchObject({ valid: false, valid_count: 1, invalid_count: 2, unavailable_count: 0 });
    expect(result.citations.map((check) => (check.kind === 'invalid' ? check.reason : check.kind))).toEqual([
      'relocated',
      'file_missing',
      'file_missing',
    ]);
  });

  it('GitHub failing (5xx beyond retries) => unavailable, never invalid', async () => {
    server.failNext({ status: 502 }, 3);
    const check = await checkCitation(reader(), REPO, apiLine());
    expect(check.kind).toBe('unavailable');
  });
});
