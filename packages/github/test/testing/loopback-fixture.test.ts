// Why: the fixture tree's 165 mirror files (real `gh --json` output) load into the loopback API,
// and querying it through Octokit gives back every issue, pull request and discussion with exactly
// the files' keys and values: the model holds everything a sync must write. Skipped when the
// fixture tree is absent (it lives beside the project, not in it).
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Octokit } from '@octokit/core';
import { paginateGraphQL } from '@octokit/plugin-paginate-graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackGitHub, loadFixtureRepository, startLoopbackGitHub } from '../../src/testing/index.js';
import { DISCUSSIONS_QUERY, ghDiscussion, ghIssue, ghPull, ISSUES_QUERY, PULLS_QUERY } from './support/gh-json.js';

const fixtureTree =
  process.env.REPOMEM_FIXTURE_TREE ?? resolve(__dirname, '../../../../../shared/fixtures/sepo-memory-tree');
const hasFixture = existsSync(join(fixtureTree, 'github'));
const GraphQLOctokit = Octokit.plugin(paginateGraphQL);
const REPO = { owner: 'self-evolving', name: 'repo' };

async function fixtureFiles(prefix: string): Promise<Map<number, unknown>> {
  const dir = join(fixtureTree, 'github');
  const files = new Map<number, unknown>();
  for (const name of await readdir(dir)) {
    const match = new RegExp(`^${prefix}-(\\d+)\\.json$`).exec(name);
    if (match) files.set(Number(match[1]), JSON.parse(await readFile(join(dir, name), 'utf8')));
  }
  return files;
}

describe.skipIf(!hasFixture)('the fixture tree through the loopback API', () => {
  let server: LoopbackGitHub;
  let octokit: InstanceType<typeof GraphQLOctokit>;

  beforeAll(async () => {
    // The fixture was written with the Sepo app's token: its comments have viewerDidAuthor true.
    server = await startLoopbackGitHub({ viewer: 'sepo-agent-app' });
    server.data.addRepository(await loadFixtureRepository(fixtureTree, REPO));
    octokit = new GraphQLOctokit({ auth: 'loopback-token', baseUrl: server.url });
  });

  afterAll(async () => {
    await server.close();
  });

  it('serves every issue exactly as gh wrote it', async () => {
    const expected = await fixtureFiles('issue');
    const result = await octokit.graphql.paginate<{ repository: { issues: { nodes: Record<string, unknown>[] } } }>(
      ISSUES_QUERY,
      REPO,
    );
    const served = result.repository.issues.nodes;
    expect(served).toHaveLength(expected.size);
    for (const node of served) expect(ghIssue(node)).toEqual(expected.get(node.number as number));
  });

  it('serves every pull request with its reviews and files exactly as gh wrote it', async () => {
    const expected = await fixtureFiles('pull');
    const result = await octokit.graphql.paginate<{
      repository: { pullRequests: { nodes: Record<string, unknown>[] } };
    }>(PULLS_QUERY, REPO);
    const served = result.repository.pullRequests.nodes;
    expect(served).toHaveLength(expected.size);
    for (const node of served) expect(ghPull(node)).toEqual(expected.get(node.number as number));
  });

  it('serves every discussion with its comments and replies as the fixture stores it', async () => {
    const expected = await fixtureFiles('discussion');
    const result = await octokit.graphql.paginate<{
      repository: { hasDiscussionsEnabled: boolean; discussions: { nodes: Record<string, unknown>[] } };
    }>(DISCUSSIONS_QUERY, REPO);
    const served = result.repository.discussions.nodes;
    expect(served).toHaveLength(expected.size);
    for (const node of served) expect(ghDiscussion(node)).toEqual(expected.get(node.number as number));
  });
});
