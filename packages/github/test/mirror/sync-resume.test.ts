// Why: the two promises a start-time cursor and a one-shot run cannot keep. An item updated while
// a sync runs (before or after its page was read) is in the next sync; a sync stopped by its
// request cap or an abort resumes from the page after the last one written, refetching nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GitHubMirrorSyncResult, SYNC_STATE_KEY, syncGitHubMirror } from '../../src/index.js';
import {
  generateRepository,
  type LoopbackGitHub,
  type LoopbackRequest,
  startLoopbackGitHub,
} from '../../src/testing/index.js';
import { STORE_KINDS, syncOptions, tempDir } from './support/mirror-env.js';

const REPO = { owner: 'acme', name: 'app' };
const decoder = new TextDecoder();

function variablesOf(request: LoopbackRequest): Record<string, unknown> {
  return ((request.body as { variables?: Record<string, unknown> } | undefined)?.variables ?? {}) as Record<
    string,
    unknown
  >;
}

describe.each(STORE_KINDS.filter((kind) => kind.name !== 'sqlite'))('resuming on the $name store', (kind) => {
  let github: LoopbackGitHub;
  let dir: string;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    github = await startLoopbackGitHub();
    // 250 issues: three pages of issues; pull requests and discussions fit in one page each.
    github.data.addRepository(
      generateRepository({ ...REPO, issues: 250, pullRequests: 20, commentsPerItem: 1, seed: 3 }),
    );
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(async () => {
    github.onRequest(undefined);
    await github.close();
    await cleanup();
  });

  it('fetches in the next sync an item updated while a sync ran, whether its page was read or not', async () => {
    const store = await kind.open(dir);
    try {
      const issues = [...(github.data.repository('acme', 'app')?.issues ?? [])].sort((a, b) =>
        b.updatedAt.localeCompare(a.updatedAt),
      );
      const alreadyRead = issues[3]?.number ?? 0; // on the first page (newest first)
      const notYetRead = issues[240]?.number ?? 0; // on the last page
      let graphql = 0;
      github.onRequest((request) => {
        if (request.kind !== 'graphql') return;
        graphql += 1;
        if (graphql === 2) {
          github.data.updateItem({ ...REPO, kind: 'issue', number: alreadyRead }, { title: 'changed after its page' });
          github.data.updateItem({ ...REPO, kind: 'issue', number: notYetRead }, { title: 'changed before its page' });
        }
      });
      const first = await syncGitHubMirror(syncOptions(github, store));
      expect(first.status).toBe('complete');
      github.onRequest(undefined);
      const title = async (number: number) =>
        JSON.parse(decoder.decode((await store.get(`github/acme/app/issue-${number}.json`))?.content)).title;
      expect(await title(alreadyRead)).not.toBe('changed after its page');

      const second = await syncGitHubMirror(syncOptions(github, store));
      expect(second.status).toBe('complete');
      expect(await title(alreadyRead)).toBe('changed after its page');
      expect(await title(notYetRead)).toBe('changed before its page');
      expect(second.changed).toContain(`github/acme/app/issue-${alreadyRead}.json`);
    } finally {
      await store.close();
    }
  });

  it('resumes a sync stopped by its request cap without refetching the pages it wrote', async () => {
    const store = await kind.open(dir);
    try {
      const seen: Record<string, unknown>[] = [];
      github.onRequest((request) => {
        if (request.kind === 'graphql') seen.push(variablesOf(request));
      });
      const stopped = await syncGitHubMirror(syncOptions(github, store, 'acme/app', { maxRequests: 1 }));
      expect(stopped.status).toBe('interrupted');
      expect(stopped.status === 'interrupted' ? stopped.reason : '').toBe('max_requests');
      expect(stopped.items).toEqual({ issues: 100, pulls: 20, discussions: 0 });
      expect(stopped.requests).toBe(1);
      const state = (await store.state.get(SYNC_STATE_KEY))?.value as {
        cursors: Record<string, string>;
        repomem_mirror: { resume: Record<string, { after: string }> };
      };
      // Pull requests finished (cursor set); issues stopped after their first page (resume point, no cursor).
      expect(state.cursors.pulls).not.toBe('');
      expect(state.cursors.issues).toBe('');
      const resumeAt = state.repomem_mirror.resume.issues?.after;
      expect(resumeAt).toBeTypeOf('string');

      seen.length = 0;
      const resumed = await syncGitHubMirror(syncOptions(github, store));
      expect(resumed.status).toBe('complete');
      // The first request continues the issues after the last page written; nothing is fetched twice.
      expect(seen[0]?.issuesAfter).toBe(resumeAt);
      // 150 new files; at most the newest item of each lane is read again (the cursor is inclusive: an item
      // updated in the same second as the last one written must not be missed).
      expect(resumed.changed.filter((path) => path.includes('/issue-'))).toHaveLength(150);
      expect(resumed.unchanged).toBeLessThanOrEqual(2); // the newest issue and the newest pull request
      expect(resumed.items.pulls).toBeLessThanOrEqual(1);
      expect(await store.list('github/acme/app/issue-')).toHaveLength(250);
      const after = (await store.state.get(SYNC_STATE_KEY))?.value as {
        cursors: Record<string, string>;
        repomem_mirror: { resume: Record<string, unknown> };
      };
      expect(after.cursors.issues).not.toBe('');
      expect(after.repomem_mirror.resume).toEqual({});
    } finally {
      await store.close();
    }
  });

  it('stops at once when aborted during a request, without retrying it', async () => {
    const store = await kind.open(dir);
    try {
      const controller = new AbortController();
      github.onRequest((request) => {
        if (request.kind === 'graphql' && request.index === 0) controller.abort();
      });
      const stopped = await syncGitHubMirror(syncOptions(github, store, 'acme/app', { signal: controller.signal }));
      expect(stopped.status === 'interrupted' ? stopped.reason : stopped.status).toBe('aborted');
      expect(stopped.requests).toBe(1);
      expect(stopped.changed).toEqual([]);
      github.onRequest(undefined);
      const resumed = await syncGitHubMirror(syncOptions(github, store));
      expect(resumed.status).toBe('complete');
      expect(resumed.items.issues).toBe(250);
    } finally {
      await store.close();
    }
  });

  it('resumes a sync stopped by an abort after the page being written', async () => {
    const store = await kind.open(dir);
    try {
      const controller = new AbortController();
      const stopped: GitHubMirrorSyncResult = await syncGitHubMirror(
        syncOptions(github, store, 'acme/app', { signal: controller.signal, onProgress: () => controller.abort() }),
      );
      expect(stopped.status === 'interrupted' ? stopped.reason : stopped.status).toBe('aborted');
      expect(stopped.items.issues).toBe(100);
      const resumed = await syncGitHubMirror(syncOptions(github, store));
      expect(resumed.status).toBe('complete');
      expect(resumed.changed.filter((path) => path.includes('/issue-'))).toHaveLength(150);
      expect(await store.list('github/acme/app/issue-')).toHaveLength(250);
    } finally {
      await store.close();
    }
  });
});
