// Why: reading a submitted review back through the REST API (its inline comments are not in the
// webhook payload), against a GitHub-shaped API served on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDocumentTaskRecordBackend, createInMemoryStore, listActiveRules } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fetchReviewFeedback, routeGitHubEvent } from '../../src/index.js';

let server: Server;
let baseUrl: string;
const seen: { url: string; authorization: string | undefined }[] = [];
let failing = false;

const REVIEW = {
  id: 80,
  user: { login: 'octocat' },
  body: '',
  state: 'CHANGES_REQUESTED',
  author_association: 'MEMBER',
  submitted_at: '2026-01-02T03:04:05Z',
};
const COMMENTS = [
  { id: 1, body: 'Handlers under src/api must validate bodies with zod.', path: 'src/api/users.ts', line: 12 },
  { id: 2, body: 'Use the shared logger, not console.log.', path: 'src/api/orders.ts', line: 3 },
];

beforeEach(async () => {
  seen.length = 0;
  failing = false;
  server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', authorization: request.headers.authorization });
    response.setHeader('content-type', 'application/json');
    if (failing) {
      response.statusCode = 404;
      response.end('{"message":"Not Found"}');
      return;
    }
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/repos/acme/app/pulls/12/reviews/80') response.end(JSON.stringify(REVIEW));
    else if (path === '/repos/acme/app/pulls/12/reviews/80/comments') response.end(JSON.stringify(COMMENTS));
    else {
      response.statusCode = 404;
      response.end('{"message":"Not Found"}');
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
});

const reviewEvent = {
  action: 'submitted',
  review: { ...REVIEW, state: 'changes_requested', body: null },
  pull_request: { number: 12, html_url: 'https://github.com/acme/app/pull/12' },
  repository: { full_name: 'acme/app' },
};

describe('fetchReviewFeedback', () => {
  it('reads the review and its inline comments with the token', async () => {
    const feedback = await fetchReviewFeedback(
      { repo: 'acme/app', pr: 12, reviewId: 80 },
      { baseUrl, token: 'secret-token' },
    );
    expect(feedback).toMatchObject({
      reviewer: 'octocat',
      association: 'MEMBER',
      reviewId: 80,
      state: 'changes_requested',
    });
    expect(feedback.comments.map((comment) => comment.path)).toEqual(['src/api/users.ts', 'src/api/orders.ts']);
    expect(seen.every((request) => request.authorization === 'token secret-token')).toBe(true);
  });

  it('reports GitHub errors as BACKEND_UNAVAILABLE', async () => {
    failing = true;
    await expect(
      fetchReviewFeedback({ repo: 'acme/app', pr: 12, reviewId: 80 }, { baseUrl, token: 't' }),
    ).rejects.toMatchObject({
      code: 'BACKEND_UNAVAILABLE',
    });
  });
});

describe('routeGitHubEvent with reviewApi', () => {
  it('sends the whole review to the model once, and skips the comment events it covers', async () => {
    const backend = createDocumentTaskRecordBackend(createInMemoryStore());
    const prompts: string[] = [];
    const options = {
      backend,
      reviewApi: { baseUrl, token: 't' },
      model: async (prompt: string) => {
        prompts.push(prompt);
        return 'RULE: [src/api] Validate request bodies with zod\nRULE: Use the shared logger instead of console.log';
      },
    };
    const result = await routeGitHubEvent('pull_request_review', reviewEvent, options);
    expect(result).toMatchObject({ kind: 'rules', status: 200 });
    expect(prompts[0]).toContain('on src/api/users.ts:12');
    expect(prompts[0]).toContain('Use the shared logger, not console.log.');
    expect(await listActiveRules(backend, 'acme/app')).toHaveLength(2);
    const comment = await routeGitHubEvent(
      'pull_request_review_comment',
      {
        action: 'created',
        comment: {
          ...COMMENTS[0],
          user: { login: 'octocat' },
          author_association: 'MEMBER',
          pull_request_review_id: 80,
        },
        pull_request: { number: 12 },
        repository: { full_name: 'acme/app' },
      },
      options,
    );
    expect(comment).toMatchObject({ kind: 'ignored', reason: expect.stringContaining('review 80') });
    expect(prompts).toHaveLength(1);
  });

  it('fetches nothing for a reviewer without write access', async () => {
    const outsider = { ...reviewEvent, review: { ...reviewEvent.review, author_association: 'NONE', body: 'x' } };
    const result = await routeGitHubEvent('pull_request_review', outsider, {
      backend: createDocumentTaskRecordBackend(createInMemoryStore()),
      reviewApi: { baseUrl, token: 't' },
      model: async () => '',
    });
    expect(result).toMatchObject({ result: { kind: 'skipped', reason: 'reviewer_without_write_access' } });
    expect(seen).toEqual([]);
  });
});
