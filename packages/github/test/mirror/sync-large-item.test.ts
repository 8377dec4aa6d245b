// Why: one item larger than a store document (GitHub allows an issue with 300 comments of 65,000
// characters: 19.6 MB as gh writes it) must never stop the mirror: it is cut to fit with a marker
// in each cut body, keeping gh's shape, the other items are written, the cursor moves, the summary
// says so, and the next run is quiet. Real stores and the loopback GitHub API.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIRROR_TRUNCATION_MARKER, syncGitHubMirror } from '../../src/index.js';
import { generateRepository, type LoopbackGitHub, startLoopbackGitHub } from '../../src/testing/index.js';
import { STORE_KINDS, syncOptions, tempDir } from './support/mirror-env.js';

const decoder = new TextDecoder();

let github: LoopbackGitHub;
let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  github = await startLoopbackGitHub();
  github.data.addRepository(generateRepository({ owner: 'acme', name: 'app', issues: 20, pullRequests: 2, seed: 3 }));
});
afterEach(async () => {
  await github.close();
  await cleanup();
});

/** An issue of `comments` comments of `chars` characters each; returns its number. */
function addLargeIssue(comments: number, chars: number): number {
  const issue = github.data.addItem('acme', 'app', 'issue', { title: 'A very long thread', author: 'octocat' });
  const ref = { owner: 'acme', name: 'app', kind: 'issue' as const, number: issue.number };
  for (let index = 0; index < comments; index += 1) {
    const text = `comment ${index} ${'lorem ipsum dolor sit amet '.repeat(Math.ceil(chars / 27))}`.slice(0, chars);
    github.data.addComment(ref, { author: 'hubot', body: text });
  }
  return issue.number;
}

describe('an item larger than the store takes', () => {
  it('an issue of 300 comments of 65,000 characters is cut to fit; the others are written and the cursor moves', async () => {
    const number = addLargeIssue(300, 65_000);
    const kind = STORE_KINDS.find((candidate) => candidate.name === 'directory')!;
    const store = await kind.open(dir);
    try {
      const limit = store.capabilities.maxDocumentBytes;
      const result = await syncGitHubMirror(syncOptions(github, store));
      expect(result.status).toBe('complete');
      expect(result.items.issues).toBe(21);
      expect(result.changed).toHaveLength(23);
      expect(result.cursors.issues).not.toBe('');
      const notice = result.notices.find((text) => text.startsWith(`truncated github/acme/app/issue-${number}.json`));
      expect(notice).toContain('19.6 MB as gh writes it');
      const file = await store.get(`github/acme/app/issue-${number}.json`);
      expect(file?.content.byteLength).toBeLessThanOrEqual(limit);
      const json = JSON.parse(decoder.decode(file?.content)) as { comments: { body: string }[]; title: string };
      expect(json.title).toBe('A very long thread');
      expect(json.comments).toHaveLength(300);
      expect(json.comments[299]?.body).toContain(MIRROR_TRUNCATION_MARKER);
      expect(json.comments[0]?.body.startsWith('comment 0 lorem ipsum')).toBe(true);
      // The next run fetches nothing new and rewrites nothing.
      const again = await syncGitHubMirror(syncOptions(github, store));
      expect(again).toMatchObject({ status: 'complete', changed: [] });
      expect(again.notices.some((text) => text.startsWith('truncated'))).toBe(false);
    } finally {
      await store.close();
    }
  });

  it.each(STORE_KINDS.map((kind) => [kind.name, kind] as const))(
    'on %s: cut to a smaller limit, or skipped and reported when even that cannot fit',
    async (_name, kind) => {
      const number = addLargeIssue(30, 6_500);
      const store = await kind.open(dir);
      try {
        const cut = await syncGitHubMirror(syncOptions(github, store, 'acme/app', { maxFileBytes: 60_000 }));
        expect(cut.status).toBe('complete');
        expect(cut.changed).toHaveLength(23);
        expect(cut.notices.filter((text) => text.startsWith('truncated'))).toHaveLength(1);
        const file = await store.get(`github/acme/app/issue-${number}.json`);
        expect(file?.content.byteLength).toBeLessThanOrEqual(60_000);
        // Too small for even the comments' authors and dates: skipped once, the others unchanged.
        github.data.updateItem({ owner: 'acme', name: 'app', kind: 'issue', number }, { title: 'Renamed' });
        const skipped = await syncGitHubMirror(syncOptions(github, store, 'acme/app', { maxFileBytes: 4_000 }));
        expect(skipped.status).toBe('complete');
        expect(
          skipped.notices.filter((text) => text.startsWith(`skipped github/acme/app/issue-${number}.json`)),
        ).toHaveLength(1);
        expect(skipped.cursors.issues > cut.cursors.issues).toBe(true);
        const quiet = await syncGitHubMirror(syncOptions(github, store, 'acme/app', { maxFileBytes: 4_000 }));
        expect(quiet.notices.filter((text) => text.startsWith('skipped'))).toEqual([]);
      } finally {
        await store.close();
      }
    },
  );
});
