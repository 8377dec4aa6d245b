// Why: the signed webhook is where a pull request's end reaches repomem (issue 26 item 3): a
// `pull_request` `closed` delivery with `merged: true` promotes what was learned on the head
// branch into the base branch at the merge commit, one with `merged: false` quarantines it. The
// payloads in fixtures/ are in the shape GitHub delivers (trimmed to the fields a handler may
// read), signed as GitHub signs them (@octokit/webhooks-methods); records live in core's
// document backends over the in-memory store.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sign } from '@octokit/webhooks-methods';
import {
  createDocumentRecordBackend,
  createDocumentTaskRecordBackend,
  createInMemoryStore,
  listQuarantinedMemories,
  recordLearnings,
  type VerifiedMemory,
} from '@repomem/core';
import { describe, expect, it } from 'vitest';
import { handleGitHubWebhook, summarizeWebhookResult, type WebhookDelivery } from '../../src/index.js';

const SECRET = 'branch-memories-secret';
const BRANCH_COMMIT = '5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b';

function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8')) as Record<string, unknown>;
}

async function delivery(payload: unknown): Promise<WebhookDelivery> {
  const body = JSON.stringify(payload);
  return {
    headers: {
      'X-GitHub-Event': 'pull_request',
      'X-GitHub-Delivery': randomUUID(),
      'X-Hub-Signature-256': await sign(SECRET, body),
      'Content-Type': 'application/json',
    },
    body,
  };
}

function memory(id: string, ref: string): VerifiedMemory {
  const at = '2026-11-19T12:00:00.000Z';
  return {
    id,
    repo: 'acme/app',
    subject: `Learned on ${ref}`,
    fact: 'Network calls retry three times with backoff.',
    scope: null,
    citations: [{ path: 'src/net.ts', line_start: 1, line_end: 1 }],
    reason: null,
    created_by: null,
    created_at: at,
    refreshed_at: at,
    expires_at: '2026-12-17T12:00:00.000Z',
    status: 'active',
    superseded_by: null,
    supersedes: null,
    invalid_reason: null,
    verification_count: 0,
    revision: 1,
    learned_on: { commit: BRANCH_COMMIT, ref },
  };
}

async function setUp() {
  const verified = createDocumentRecordBackend(createInMemoryStore());
  const tasks = createDocumentTaskRecordBackend(createInMemoryStore());
  const ids = { merged: '00000000-0000-4000-8000-000000000021', closed: '00000000-0000-4000-8000-000000000022' };
  await verified.apply(
    [
      { record: memory(ids.merged, 'feature/retry'), expectedRevision: null },
      { record: memory(ids.closed, 'feature/abandoned'), expectedRevision: null },
    ],
    [],
  );
  await recordLearnings({
    backend: tasks,
    repo: 'acme/app',
    learnings: [{ subject: 'Cache layer', scope: null, fact: 'The cache wraps every read.' }],
    learnedOn: { commit: BRANCH_COMMIT, ref: 'feature/abandoned' },
  });
  return { verified, tasks, ids };
}

describe('pull_request closed deliveries move the branch memories', () => {
  it('merged: promoted into the base branch at the merge commit; redelivered: nothing more changes', async () => {
    const { verified, tasks, ids } = await setUp();
    const payload = fixture('pull-request-closed-merged.json');
    const result = await handleGitHubWebhook(await delivery(payload), { secret: SECRET, backend: tasks, verified });
    expect(result).toMatchObject({
      kind: 'outcome',
      status: 200,
      outcome: 'positive',
      branch: { kind: 'promoted', report: { ref: 'feature/retry', defaultBranch: 'main' } },
    });
    const promoted = await verified.get('acme/app', ids.merged);
    expect(promoted?.learned_on).toEqual({ ref: 'main', commit: '9f1c2d3e4b5a69788796a5b4c3d2e1f0a9b8c7d6' });
    expect(promoted?.promoted_from).toEqual({ ref: 'feature/retry', commit: BRANCH_COMMIT, pull_request: 21 });
    expect((await verified.get('acme/app', ids.closed))?.learned_on?.ref).toBe('feature/abandoned');
    expect(summarizeWebhookResult(result)).toMatchObject({
      branch: { kind: 'promoted', ref: 'feature/retry', into: 'main', records: 1, invalidated: 0 },
    });

    // GitHub redelivers (a new delivery id): promotion is idempotent.
    const again = await handleGitHubWebhook(await delivery(payload), { secret: SECRET, backend: tasks, verified });
    expect(again).toMatchObject({ branch: { kind: 'promoted', report: { promoted: [] } } });
    expect(await verified.get('acme/app', ids.merged)).toEqual(promoted);
  });

  it('closed unmerged: the branch memories and learnings are quarantined, listed, never served', async () => {
    const { verified, tasks, ids } = await setUp();
    const payload = fixture('pull-request-closed-unmerged.json');
    const result = await handleGitHubWebhook(await delivery(payload), { secret: SECRET, backend: tasks, verified });
    expect(result).toMatchObject({
      kind: 'outcome',
      status: 200,
      outcome: 'negative',
      branch: { kind: 'quarantined' },
    });
    const listed = await listQuarantinedMemories({ repo: 'acme/app', verified, tasks });
    expect(listed.map((record) => [record.kind, record.quarantine.ref, record.quarantine.pull_request])).toEqual([
      ['memory', 'feature/abandoned', 22],
      ['knowledge', 'feature/abandoned', 22],
    ]);
    expect(listed[0]?.id).toBe(ids.closed);
    expect((await verified.get('acme/app', ids.merged))?.quarantine).toBeUndefined();
  });

  it('a fork’s branch, a missing merge commit and a branch name repomem refuses move nothing', async () => {
    const { verified, tasks } = await setUp();
    const merged = fixture('pull-request-closed-merged.json');
    const pr = merged.pull_request as Record<string, unknown>;
    const head = pr.head as Record<string, unknown>;
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...pr, head: { ...head, repo: { full_name: 'someone/app' } } }, /fork someone\/app/],
      [{ ...pr, merge_commit_sha: null }, /no merge commit/],
      [{ ...pr, head: { ...head, ref: 'bad..name' } }, /not a branch name/],
    ];
    for (const [changed, reason] of cases) {
      const result = await handleGitHubWebhook(await delivery({ ...merged, pull_request: changed }), {
        secret: SECRET,
        backend: tasks,
        verified,
      });
      expect(result).toMatchObject({ kind: 'outcome', branch: { kind: 'skipped' } });
      if (result.kind === 'outcome' && result.branch.kind === 'skipped') expect(result.branch.reason).toMatch(reason);
    }
  });

  it('a bad signature reaches nothing', async () => {
    const { verified, tasks, ids } = await setUp();
    const signed = await delivery(fixture('pull-request-closed-unmerged.json'));
    const forged = {
      ...signed,
      headers: { ...signed.headers, 'X-Hub-Signature-256': await sign('wrong', String(signed.body)) },
    };
    const result = await handleGitHubWebhook(forged, { secret: SECRET, backend: tasks, verified });
    expect(result.kind).toBe('unauthorized');
    expect((await verified.get('acme/app', ids.closed))?.quarantine).toBeUndefined();
  });
});
