// Why: what happens around the items themselves: a repository without discussions is skipped with
// a notice, deleted and transferred items are reported once (their files kept), minimized comments
// stay in the file as gh keeps them, secondary rate limits and 502s are waited out, and a flat
// legacy mirror is moved into the namespace only when asked.
import { shouldRunScan } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateLegacyMirror, parseMirrorRepository, syncGitHubMirror } from '../../src/index.js';
import { generateRepository, type LoopbackGitHub, startLoopbackGitHub } from '../../src/testing/index.js';
import { STORE_KINDS, syncOptions, tempDir } from './support/mirror-env.js';

const REPO = { owner: 'acme', name: 'app' };
const decoder = new TextDecoder();
const encoder = new TextEncoder();
const sqlite = STORE_KINDS.find((kind) => kind.name === 'sqlite')!;
const git = STORE_KINDS.find((kind) => kind.name === 'git')!;

let github: LoopbackGitHub | undefined;
let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  await github?.close();
  github = undefined;
  await cleanup();
});

async function serve(options: Parameters<typeof startLoopbackGitHub>[0] = {}): Promise<LoopbackGitHub> {
  github = await startLoopbackGitHub(options);
  return github;
}

describe('around the items', () => {
  it('stops with rate_limited when the quota runs out, keeping what it wrote for the next run', async () => {
    const api = await serve({ rateLimit: { limit: 5000, remaining: 10 } });
    api.data.addRepository(generateRepository({ ...REPO, issues: 400, pullRequests: 5, seed: 10 }));
    const store = await sqlite.open(dir);
    try {
      const result = await syncGitHubMirror(syncOptions(api, store, 'acme/app', { maxRateLimitWaitSeconds: 1 }));
      expect(result.status === 'interrupted' ? result.reason : result.status).toBe('rate_limited');
      expect(result.items.issues).toBeGreaterThan(0);
      expect(result.items.issues).toBeLessThan(400);
      const state = (await store.state.get('sync'))?.value as { repomem_mirror: { resume: Record<string, unknown> } };
      expect(state.repomem_mirror.resume.issues).toBeDefined();
    } finally {
      await store.close();
    }
  });

  it('continues with smaller pages when GitHub keeps failing on full ones', async () => {
    // A page of 100 issues always times out (GitHub's 502), as a too heavy page can on GitHub.
    const api = await serve({
      faults: {
        inject: (request) =>
          JSON.stringify(request.body ?? '').includes('issues(first: 100,') ? 'bad-gateway' : undefined,
      },
    });
    api.data.addRepository(generateRepository({ ...REPO, issues: 120, pullRequests: 3, seed: 12 }));
    const store = await sqlite.open(dir);
    try {
      const result = await syncGitHubMirror(syncOptions(api, store, 'acme/app', { retries: 1 }));
      expect(result.status).toBe('complete');
      expect(result.items).toEqual({ issues: 120, pulls: 3, discussions: 0 });
      expect(result.notices.join('\n')).toMatch(/pages of 50% size/);
    } finally {
      await store.close();
    }
  });

  it('moves last_activity_at only when a file changed, so the scan gate skips quiet syncs', async () => {
    const api = await serve();
    api.data.addRepository(generateRepository({ ...REPO, issues: 5, pullRequests: 2, seed: 11 }));
    const store = await sqlite.open(dir);
    let now = Date.parse('2030-01-01T00:00:00Z');
    const clock = () => new Date(now);
    const gate = async (lastScanAt: string) =>
      shouldRunScan({
        event: 'schedule',
        currentRepo: 'acme/app',
        syncState: (await store.state.get('sync'))?.value,
        scanState: { schema_version: 1, repo_slug: 'acme/app', last_scan_at: lastScanAt },
      }).run;
    try {
      await syncGitHubMirror(syncOptions(api, store, 'acme/app', { clock }));
      now += 60_000;
      const scannedAt = new Date(now).toISOString();
      expect(await gate(scannedAt)).toBe(false);
      now += 60_000;
      await syncGitHubMirror(syncOptions(api, store, 'acme/app', { clock }));
      expect(await gate(scannedAt)).toBe(false);
      const number = api.data.repository('acme', 'app')?.issues[0]?.number ?? 0;
      api.data.updateItem({ ...REPO, kind: 'issue', number }, { body: 'new activity' });
      now += 60_000;
      await syncGitHubMirror(syncOptions(api, store, 'acme/app', { clock }));
      expect(await gate(scannedAt)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('skips discussions with a notice when the repository has them disabled', async () => {
    const api = await serve();
    api.data.addRepository(generateRepository({ ...REPO, issues: 3, pullRequests: 1, hasDiscussions: false }));
    const store = await sqlite.open(dir);
    try {
      const result = await syncGitHubMirror(syncOptions(api, store));
      expect(result.status).toBe('complete');
      expect(result.notices).toContain('acme/app has discussions disabled: discussions skipped');
      expect(result.items).toEqual({ issues: 3, pulls: 1, discussions: 0 });
    } finally {
      await store.close();
    }
  });

  it('reports deleted and transferred items once and keeps their files', async () => {
    const api = await serve();
    api.data.addRepository(generateRepository({ ...REPO, issues: 6, pullRequests: 2, discussions: 2, seed: 4 }));
    api.data.addRepository(generateRepository({ owner: 'acme', name: 'other', issues: 1, pullRequests: 0 }));
    const store = await sqlite.open(dir);
    try {
      await syncGitHubMirror(syncOptions(api, store));
      const [first, second] = api.data.repository('acme', 'app')?.issues ?? [];
      const discussion = api.data.repository('acme', 'app')?.discussions[0];
      api.data.deleteItem({ ...REPO, kind: 'issue', number: first?.number ?? 0 });
      api.data.transferIssue({ ...REPO, kind: 'issue', number: second?.number ?? 0 }, { owner: 'acme', name: 'other' });
      api.data.deleteItem({ ...REPO, kind: 'discussion', number: discussion?.number ?? 0 });
      const result = await syncGitHubMirror(syncOptions(api, store));
      expect(result.status).toBe('complete');
      expect(result.vanished.map((item) => item.path).sort()).toEqual(
        [
          `github/acme/app/issue-${first?.number}.json`,
          `github/acme/app/issue-${second?.number}.json`,
          `github/acme/app/discussion-${discussion?.number}.json`,
        ].sort(),
      );
      expect(result.vanished.find((item) => item.number === second?.number)).toMatchObject({
        reason: 'transferred',
        movedTo: 'acme/other',
      });
      expect(await store.get(`github/acme/app/issue-${first?.number}.json`)).toBeDefined();
      const again = await syncGitHubMirror(syncOptions(api, store));
      expect(again.vanished).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('follows only the nested connections that overflow their page, until each is complete', async () => {
    const api = await serve();
    api.data.addRepository(
      generateRepository({
        ...REPO,
        issues: 3,
        pullRequests: 2,
        discussions: 2,
        commentsPerItem: 130,
        reviewsPerPull: 25,
        filesPerPull: 120,
        seed: 8,
      }),
    );
    // 25 replies to one discussion comment: more than the 10 a page of replies holds.
    const target = api.data.repository('acme', 'app')?.discussions[0];
    for (let index = 0; index < 25; index += 1) {
      api.data.addComment(
        { ...REPO, kind: 'discussion', number: target?.number ?? 0 },
        { author: 'octocat', body: `reply ${index}`, replyTo: target?.comments[7]?.id ?? '' },
      );
    }
    const store = await sqlite.open(dir);
    try {
      const result = await syncGitHubMirror(syncOptions(api, store));
      expect(result.status).toBe('complete');
      const data = api.data.repository('acme', 'app');
      for (const pull of data?.pullRequests ?? []) {
        const file = JSON.parse(decoder.decode((await store.get(`github/acme/app/pull-${pull.number}.json`))?.content));
        expect(file.comments.map((entry: { id: string }) => entry.id)).toEqual(pull.comments.map((entry) => entry.id));
        expect(file.reviews).toHaveLength(25);
        expect(file.files).toHaveLength(120);
      }
      for (const discussion of data?.discussions ?? []) {
        const file = JSON.parse(
          decoder.decode((await store.get(`github/acme/app/discussion-${discussion.number}.json`))?.content),
        );
        const replies = file.comments.nodes.flatMap((entry: { replies: { nodes: unknown[] } }) => entry.replies.nodes);
        expect(file.comments.nodes).toHaveLength(discussion.comments.length);
        if (discussion.number === target?.number)
          expect(file.comments.nodes[7].replies.nodes.length).toBeGreaterThanOrEqual(25);
        expect(replies).toHaveLength(discussion.comments.reduce((sum, entry) => sum + entry.replies.length, 0));
      }
      // One page request, then one follow-up round per 100 entries still missing (batched across items).
      expect(result.requests).toBeLessThanOrEqual(6);
    } finally {
      await store.close();
    }
  });

  it('mirrors only items updated since a given time with `since`', async () => {
    const api = await serve();
    api.data.addRepository(generateRepository({ ...REPO, issues: 40, pullRequests: 20, seed: 9 }));
    const data = api.data.repository('acme', 'app');
    const times = [...(data?.issues ?? []), ...(data?.pullRequests ?? [])].map((item) => item.updatedAt).sort();
    const since = times[Math.floor(times.length / 2)] ?? '';
    const expected = {
      issues: data?.issues.filter((item) => item.updatedAt >= since).length,
      pulls: data?.pullRequests.filter((item) => item.updatedAt >= since).length,
      discussions: 0,
    };
    const store = await sqlite.open(dir);
    try {
      const result = await syncGitHubMirror(syncOptions(api, store, 'acme/app', { since }));
      expect(result.status).toBe('complete');
      expect(result.items).toEqual(expected);
    } finally {
      await store.close();
    }
  });

  it('keeps a minimized comment with its body, flag and reason, as gh does', async () => {
    const api = await serve();
    api.data.addRepository(generateRepository({ ...REPO, issues: 2, pullRequests: 0, commentsPerItem: 2, seed: 2 }));
    const store = await sqlite.open(dir);
    try {
      await syncGitHubMirror(syncOptions(api, store));
      const issue = api.data.repository('acme', 'app')?.issues[0];
      const comment = issue?.comments[1];
      api.data.minimizeComment(comment?.id ?? '', 'outdated');
      const result = await syncGitHubMirror(syncOptions(api, store));
      expect(result.changed).toEqual([`github/acme/app/issue-${issue?.number}.json`]);
      const file = JSON.parse(decoder.decode((await store.get(result.changed[0] ?? ''))?.content));
      expect(file.comments[1]).toMatchObject({
        id: comment?.id,
        body: comment?.body,
        isMinimized: true,
        minimizedReason: 'outdated',
      });
    } finally {
      await store.close();
    }
  });

  it('waits out secondary rate limits and 502s and reports the remaining quota', async () => {
    const api = await serve({ faults: { secondaryRateLimitEvery: 2, badGatewayRate: 0.3, seed: 5 } });
    api.data.addRepository(generateRepository({ ...REPO, issues: 230, pullRequests: 10, seed: 6 }));
    const store = await sqlite.open(dir);
    try {
      const result = await syncGitHubMirror(syncOptions(api, store));
      expect(result.status).toBe('complete');
      expect(result.items.issues).toBe(230);
      expect(result.rateLimitWaits).toBeGreaterThan(0);
      expect(api.stats().rejected).toBeGreaterThan(0);
      expect(result.quota?.limit).toBe(5000);
      expect(result.quota?.remaining).toBeLessThan(5000);
    } finally {
      await store.close();
    }
  });
});

describe('legacy flat layout', () => {
  it('plans the moves in a dry run and applies them in one commit when asked', async () => {
    const store = await git.open(dir);
    const repo = parseMirrorRepository('acme/app');
    try {
      await store.write([
        { kind: 'put', path: 'github/issue-1.json', content: encoder.encode('{"number": 1}\n') },
        { kind: 'put', path: 'github/pull-2.json', content: encoder.encode('{"number": 2}\n') },
        { kind: 'put', path: 'github/discussion-3.json', content: encoder.encode('{"old": true}\n') },
        { kind: 'put', path: 'github/acme/app/discussion-3.json', content: encoder.encode('{"new": true}\n') },
        { kind: 'put', path: 'github/notes.md', content: encoder.encode('not a mirror file\n') },
      ]);
      const plan = await migrateLegacyMirror({ store, repo });
      expect(plan.applied).toBe(false);
      expect(plan.steps).toEqual([
        { from: 'github/discussion-3.json', to: 'github/acme/app/discussion-3.json', action: 'skip-conflict' },
        { from: 'github/issue-1.json', to: 'github/acme/app/issue-1.json', action: 'move' },
        { from: 'github/pull-2.json', to: 'github/acme/app/pull-2.json', action: 'move' },
      ]);
      expect(await store.get('github/issue-1.json')).toBeDefined();

      const applied = await migrateLegacyMirror({ store, repo, apply: true });
      expect(applied.applied).toBe(true);
      expect((await store.list('github/')).map((entry) => entry.path)).toEqual([
        'github/acme/app/discussion-3.json',
        'github/acme/app/issue-1.json',
        'github/acme/app/pull-2.json',
        'github/discussion-3.json',
        'github/notes.md',
      ]);
    } finally {
      await store.close();
    }
  });
});
