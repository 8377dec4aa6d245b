// Why: the envelope built from a GitHub Actions event must match what Sepo builds from the same
// event (target, request text, requester, thread key) for every event a Sepo workflow starts
// from; recorded payloads (events/*.json) stand in for GITHUB_EVENT_PATH.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type EventEnvironment, envelopeFromEvent, workflowFileOf } from '../../src/envelope/index.js';

function payload(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./events/${name}.json`, import.meta.url), 'utf8'));
}

function env(eventName: string): EventEnvironment {
  return {
    GITHUB_EVENT_NAME: eventName,
    GITHUB_REPOSITORY: 'self-evolving/repo',
    GITHUB_ACTOR: 'octocat',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_WORKFLOW_REF: 'self-evolving/repo/.github/workflows/agent-answer.yml@refs/heads/main',
  };
}

function build(file: string, eventName: string, route = 'answer', lane?: string) {
  const result = envelopeFromEvent({ payload: payload(file), env: env(eventName), route, lane });
  if (!result.ok) throw new Error(result.issues.map((issue) => issue.message).join('; '));
  return result.envelope;
}

describe('envelopeFromEvent on recorded payloads', () => {
  it('issue_comment on an issue', () => {
    expect(build('issue_comment', 'issue_comment')).toStrictEqual({
      schema_version: 1,
      repo_slug: 'self-evolving/repo',
      route: 'answer',
      source_kind: 'issue_comment',
      target_kind: 'issue',
      target_number: 42,
      target_url: 'https://github.com/self-evolving/repo/issues/42',
      request_text: '@sepo-agent why does this fail on CI only?',
      requested_by: 'hubot',
      approval_comment_url: null,
      workflow: 'agent-answer.yml',
      lane: 'default',
      thread_key: 'self-evolving/repo:issue:42:answer:default',
    });
  });

  it('issue_comment on a pull request targets the pull request', () => {
    const envelope = build('issue_comment_on_pull', 'issue_comment', 'fix-pr');
    expect(envelope).toMatchObject({ target_kind: 'pull_request', target_number: 57, requested_by: 'octocat' });
    expect(envelope.thread_key).toBe('self-evolving/repo:pull_request:57:fix-pr:default');
  });

  it('pull_request_review: the review body and its author, with a lane', () => {
    const envelope = build('pull_request_review', 'pull_request_review', 'review', 'claude-review');
    expect(envelope).toMatchObject({
      source_kind: 'pull_request_review',
      target_kind: 'pull_request',
      target_number: 57,
      target_url: 'https://github.com/self-evolving/repo/pull/57',
      request_text: '@sepo-agent please address the naming comments',
      requested_by: 'reviewer-1',
      thread_key: 'self-evolving/repo:pull_request:57:review:claude-review',
    });
  });

  it('discussion and discussion_comment share the discussion thread', () => {
    const opened = build('discussion', 'discussion');
    const comment = build('discussion_comment', 'discussion_comment');
    expect(opened).toMatchObject({ source_kind: 'discussion', requested_by: 'newcomer', target_number: 88 });
    expect(comment).toMatchObject({
      source_kind: 'discussion_comment',
      request_text: '@sepo-agent and how is it searched?',
      requested_by: 'hubot',
    });
    expect(comment.thread_key).toBe(opened.thread_key);
    expect(opened.thread_key).toBe('self-evolving/repo:discussion:88:answer:default');
  });

  it('workflow_dispatch is repository-scoped, its request an input', () => {
    expect(build('workflow_dispatch', 'workflow_dispatch', 'skill')).toMatchObject({
      source_kind: 'workflow_dispatch',
      target_kind: 'repository',
      target_number: 0,
      target_url: 'https://github.com/self-evolving/repo',
      request_text: 'refresh the memory index',
      requested_by: 'octocat',
      thread_key: 'self-evolving/repo:repository:0:skill:default',
    });
  });

  it('schedule is repository-scoped; the actor requests it and the URL comes from the server', () => {
    const result = envelopeFromEvent({
      payload: payload('schedule'),
      env: { ...env('schedule'), GITHUB_SERVER_URL: 'https://ghe.example.com/' },
      route: 'skill',
      workflow: 'agent-memory-scan.yml',
    });
    expect(result.ok && result.envelope).toMatchObject({
      source_kind: 'schedule',
      target_kind: 'repository',
      target_number: 0,
      target_url: 'https://ghe.example.com/self-evolving/repo',
      request_text: '',
      requested_by: 'octocat',
      workflow: 'agent-memory-scan.yml',
    });
  });
});

describe('envelopeFromEvent failures', () => {
  it('names missing payload fields under event, and a missing repository', () => {
    const broken = payload('issue_comment') as { comment: Record<string, unknown> };
    delete broken.comment.user;
    const result = envelopeFromEvent({
      payload: broken,
      env: { ...env('issue_comment'), GITHUB_REPOSITORY: undefined },
      route: 'answer',
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues.map((issue) => issue.message)).toStrictEqual([
      'GITHUB_REPOSITORY: required value is missing',
      'event.comment.user: required field is missing',
    ]);
  });

  it('refuses an unsupported event, an unknown route and a missing event name', () => {
    const push = envelopeFromEvent({ payload: {}, env: env('push'), route: 'answer' });
    expect(!push.ok && push.issues[0]?.message).toMatch(/^GITHUB_EVENT_NAME: expected one of issue_comment, /);
    const route = envelopeFromEvent({ payload: payload('issue_comment'), env: env('issue_comment'), route: 'deploy' });
    expect(!route.ok && route.issues.map((issue) => issue.path)).toStrictEqual(['route']);
    const custom = envelopeFromEvent(
      { payload: payload('issue_comment'), env: env('issue_comment'), route: 'deploy' },
      { customRoutes: ['deploy'] },
    );
    expect(custom.ok).toBe(true);
    const none = envelopeFromEvent({ payload: {}, env: {}, route: 'answer' });
    expect(!none.ok && none.issues.map((issue) => issue.path)).toStrictEqual([
      'GITHUB_REPOSITORY',
      'GITHUB_EVENT_NAME',
    ]);
  });

  it('reads the workflow file name from GITHUB_WORKFLOW_REF', () => {
    expect(workflowFileOf('o/r/.github/workflows/agent-review.yml@refs/pull/3/merge')).toBe('agent-review.yml');
    expect(workflowFileOf(undefined)).toBe('');
  });
});
