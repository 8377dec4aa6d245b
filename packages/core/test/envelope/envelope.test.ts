// biome-ignore-all lint/suspicious/noTemplateCurlyInString: prompt templates and request texts contain literal ${VAR} placeholders.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildEnvelope,
  type EnvelopeInput,
  type EnvelopeOptions,
  envelopeVariables,
  KNOWN_ROUTES,
  KNOWN_SOURCE_KINDS,
  parseEnvelope,
  type RuntimeEnvelope,
  validateEnvelope,
} from '../../src/envelope/index.js';
import { isRepomemError } from '../../src/errors.js';

const INPUT: EnvelopeInput = {
  repo_slug: 'self-evolving/repo',
  route: 'answer',
  source_kind: 'issue_comment',
  target_kind: 'issue',
  target_number: 42,
  target_url: 'https://github.com/self-evolving/repo/issues/42',
  request_text: 'please explain ${REPO_SLUG}',
  requested_by: 'octocat',
  workflow: 'agent-answer.yml',
};

function valid(): RuntimeEnvelope {
  return buildEnvelope(INPUT);
}

function messagesFor(value: unknown, options: EnvelopeOptions = {}): string[] {
  const result = validateEnvelope(value, options);
  if (result.ok) throw new Error('expected validation to fail');
  return result.issues.map((issue) => issue.message);
}

describe('buildEnvelope', () => {
  it('fills schema_version, lane default and the derived thread key', () => {
    const envelope = valid();
    expect(envelope).toStrictEqual({
      schema_version: 1,
      repo_slug: 'self-evolving/repo',
      route: 'answer',
      source_kind: 'issue_comment',
      target_kind: 'issue',
      target_number: 42,
      target_url: 'https://github.com/self-evolving/repo/issues/42',
      request_text: 'please explain ${REPO_SLUG}',
      requested_by: 'octocat',
      approval_comment_url: null,
      workflow: 'agent-answer.yml',
      lane: 'default',
      thread_key: 'self-evolving/repo:issue:42:answer:default',
    });
  });

  it('defaults request_text and workflow to empty strings and keeps an explicit lane', () => {
    const { request_text: _r, workflow: _w, ...rest } = INPUT;
    const envelope = buildEnvelope({ ...rest, lane: 'claude-review', route: 'review' });
    expect(envelope.request_text).toBe('');
    expect(envelope.workflow).toBe('');
    expect(envelope.thread_key).toBe('self-evolving/repo:issue:42:review:claude-review');
  });

  it('treats an empty lane (an unset workflow input) as default', () => {
    expect(buildEnvelope({ ...INPUT, lane: '' }).lane).toBe('default');
  });

  it('builds repo-scoped envelopes with target_kind repository and number 0', () => {
    const envelope = buildEnvelope({
      ...INPUT,
      route: 'skill',
      source_kind: 'schedule',
      target_kind: 'repository',
      target_number: 0,
      target_url: 'https://github.com/self-evolving/repo',
      workflow: 'agent-memory-scan.yml',
    });
    expect(envelope.thread_key).toBe('self-evolving/repo:repository:0:skill:default');
  });

  it('accepts every documented route and source kind, and custom ones only when named in the options', () => {
    for (const route of KNOWN_ROUTES) expect(buildEnvelope({ ...INPUT, route }).route).toBe(route);
    for (const kind of KNOWN_SOURCE_KINDS)
      expect(buildEnvelope({ ...INPUT, source_kind: kind }).source_kind).toBe(kind);
    const customRoutes = ['review-synthesize', 'orchestrator', 'v2.answer'];
    for (const route of customRoutes) {
      expect(() => buildEnvelope({ ...INPUT, route })).toThrow(/route: expected one of answer, implement/);
      expect(buildEnvelope({ ...INPUT, route }, { customRoutes }).route).toBe(route);
    }
    expect(() => buildEnvelope({ ...INPUT, source_kind: 'webhook' })).toThrow(/source_kind: expected one of issue,/);
    expect(buildEnvelope({ ...INPUT, source_kind: 'webhook' }, { customSourceKinds: ['webhook'] }).source_kind).toBe(
      'webhook',
    );
  });

  it('rejects deploy and webhook by default, both reported at once', () => {
    const envelope = {
      ...valid(),
      route: 'deploy',
      source_kind: 'webhook',
      thread_key: 'self-evolving/repo:issue:42:deploy:default',
    };
    expect(messagesFor(envelope).map((message) => message.split(':')[0])).toStrictEqual(['route', 'source_kind']);
  });

  it('keeps approval_comment_url when given and sets it to null otherwise (always present, as in Sepo)', () => {
    const url = 'https://github.com/self-evolving/repo/issues/42#issuecomment-1';
    expect(buildEnvelope({ ...INPUT, approval_comment_url: url }).approval_comment_url).toBe(url);
    expect(buildEnvelope({ ...INPUT, approval_comment_url: null }).approval_comment_url).toBeNull();
    expect(valid().approval_comment_url).toBeNull();
    expect(JSON.parse(JSON.stringify(valid()))).toHaveProperty('approval_comment_url', null);
  });

  it('throws INVALID_ENVELOPE naming each invalid field', () => {
    try {
      buildEnvelope({ ...INPUT, target_number: 1.5, route: 'Bad Route' });
      expect.unreachable();
    } catch (error) {
      expect(isRepomemError(error, 'INVALID_ENVELOPE')).toBe(true);
      const message = (error as Error).message;
      expect(message).toContain('route: expected a route name matching');
      expect(message).toContain('target_number: expected an integer, got number 1.5');
      expect((error as { details?: { issues?: unknown[] } }).details?.issues).toHaveLength(2);
    }
  });
});

describe('parseEnvelope round trip', () => {
  it('parse(JSON.stringify(build(x))) deep-equals build(x)', () => {
    const built = buildEnvelope({ ...INPUT, approval_comment_url: 'https://github.com/o/r/pull/1#issuecomment-9' });
    expect(parseEnvelope(JSON.stringify(built))).toStrictEqual(built);
    expect(parseEnvelope(built)).toStrictEqual(built);
  });

  it('round-trips arbitrary valid envelopes', () => {
    const input = fc.record({
      owner: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9-]{0,10}$/),
      repo: fc.stringMatching(/^[A-Za-z0-9_-][A-Za-z0-9_-]{0,10}$/),
      route: fc.constantFrom(...KNOWN_ROUTES),
      lane: fc.option(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_]{0,12}$/), { nil: undefined }),
      kind: fc.constantFrom('issue', 'pull_request', 'discussion', 'repository'),
      number: fc.integer({ min: 1, max: 1_000_000 }),
      text: fc.string({ maxLength: 40 }),
      approval: fc.option(fc.constant('https://example.com/c/1'), { nil: undefined }),
    });
    fc.assert(
      fc.property(input, (x) => {
        const kind = x.kind as EnvelopeInput['target_kind'];
        const built = buildEnvelope({
          repo_slug: `${x.owner}/${x.repo}`,
          route: x.route,
          source_kind: 'workflow_dispatch',
          target_kind: kind,
          target_number: kind === 'repository' ? 0 : x.number,
          target_url: `https://github.com/${x.owner}/${x.repo}`,
          request_text: x.text,
          requested_by: 'octocat',
          approval_comment_url: x.approval,
          lane: x.lane,
        });
        expect(parseEnvelope(JSON.stringify(built))).toStrictEqual(built);
      }),
      { numRuns: 200 },
    );
  });

  it('reads a Sepo envelope (approval_comment_url null, lane default)', () => {
    const sepo = {
      schema_version: 1,
      repo_slug: 'self-evolving/repo',
      route: 'implement',
      source_kind: 'issue_comment',
      target_kind: 'issue',
      target_number: 21,
      target_url: 'https://github.com/self-evolving/repo/issues/21',
      request_text: '/implement',
      requested_by: 'octocat',
      approval_comment_url: null,
      workflow: 'agent-implement.yml',
      lane: 'default',
      thread_key: 'self-evolving/repo:issue:21:implement:default',
    };
    const envelope = parseEnvelope(JSON.stringify(sepo));
    expect(envelope.approval_comment_url).toBeNull();
    expect(envelope.thread_key).toBe(sepo.thread_key);
  });

  it('applies defaults for missing lane, request_text and workflow', () => {
    const { lane: _l, request_text: _r, workflow: _w, ...rest } = valid();
    const envelope = parseEnvelope(rest);
    expect(envelope.lane).toBe('default');
    expect(envelope.request_text).toBe('');
    expect(envelope.workflow).toBe('');
  });

  it('throws INVALID_ENVELOPE with the issues in details', () => {
    try {
      parseEnvelope({ ...valid(), target_number: '3' });
      expect.unreachable();
    } catch (error) {
      expect(isRepomemError(error, 'INVALID_ENVELOPE')).toBe(true);
      expect((error as Error).message).toBe('invalid envelope: target_number: expected an integer, got string "3"');
      expect((error as { details?: unknown }).details).toStrictEqual({
        issues: [{ path: 'target_number', message: 'target_number: expected an integer, got string "3"' }],
      });
    }
  });
});

describe('validateEnvelope messages', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['schema_version as string', { schema_version: '1' }, 'schema_version: expected schema_version 1, got string "1"'],
    ['schema_version 2', { schema_version: 2 }, 'schema_version: expected schema_version 1, got number 2'],
    ['repo_slug as number', { repo_slug: 5 }, 'repo_slug: expected a string "owner/repo", got number 5'],
    ['repo_slug without slash', { repo_slug: 'repo' }, 'repo_slug: expected "owner/repo", got string "repo"'],
    ['repo_slug with two slashes', { repo_slug: 'a/b/c' }, 'repo_slug: expected "owner/repo", got string "a/b/c"'],
    [
      'owner with underscore',
      { repo_slug: 'my_org/repo' },
      'repo_slug: owner "my_org" must be 1-39 letters, digits or hyphens, not starting with a hyphen',
    ],
    [
      'owner too long',
      { repo_slug: `${'a'.repeat(40)}/repo` },
      `repo_slug: owner "${'a'.repeat(40)}" must be 1-39 letters, digits or hyphens, not starting with a hyphen`,
    ],
    [
      'repo name with a space',
      { repo_slug: 'o/a b' },
      'repo_slug: repository name "a b" must be 1-100 letters, digits, ".", "_" or "-"',
    ],
    ['repo name ..', { repo_slug: 'o/..' }, 'repo_slug: repository name ".." is reserved'],
    [
      'route upper case',
      { route: 'Answer' },
      'route: expected a route name matching ^[a-z0-9][a-z0-9._-]*$ (for example "answer"), got string "Answer"',
    ],
    ['route as number', { route: 7 }, 'route: expected a route name such as "answer", got number 7'],
    [
      'source_kind with space',
      { source_kind: 'issue comment' },
      'source_kind: expected a snake_case source kind such as "issue_comment", got string "issue comment"',
    ],
    [
      'target_kind unknown',
      { target_kind: 'pr' },
      'target_kind: expected one of issue, pull_request, discussion, repository, got string "pr"',
    ],
    ['target_number as string', { target_number: '3' }, 'target_number: expected an integer, got string "3"'],
    ['target_number fractional', { target_number: 3.5 }, 'target_number: expected an integer, got number 3.5'],
    ['target_number negative', { target_number: -1 }, 'target_number: expected a non-negative integer, got number -1'],
    ['target_number null', { target_number: null }, 'target_number: expected an integer, got null'],
    [
      'target_url not a URL',
      { target_url: 'issues/42' },
      'target_url: expected an absolute http(s) URL, got string "issues/42"',
    ],
    [
      'target_url ftp',
      { target_url: 'ftp://x/y' },
      'target_url: expected an absolute http(s) URL, got string "ftp://x/y"',
    ],
    ['request_text as number', { request_text: 5 }, 'request_text: expected a string, got number 5'],
    [
      'requested_by empty',
      { requested_by: '' },
      'requested_by: expected a GitHub login (1-39 letters, digits or hyphens, optionally ending in "[bot]"), got string ""',
    ],
    ['requested_by as array', { requested_by: ['a'] }, 'requested_by: expected a GitHub login, got array'],
    [
      'approval_comment_url as number',
      { approval_comment_url: 5 },
      'approval_comment_url: expected an absolute http(s) URL, got number 5',
    ],
    ['workflow as boolean', { workflow: true }, 'workflow: expected a workflow file name, got boolean true'],
    [
      'workflow with newline',
      { workflow: 'a\nb' },
      'workflow: expected a workflow file name without control characters, got string "a\\nb"',
    ],
    [
      'lane empty',
      { lane: '' },
      'lane: expected a lane name matching ^[A-Za-z0-9][A-Za-z0-9._-]*$ (for example "default"), got string ""',
    ],
    ['lane as object', { lane: {} }, 'lane: expected a lane name such as "default", got object'],
    ['thread_key as number', { thread_key: 1 }, 'thread_key: expected a thread key string, got number 1'],
    [
      'thread_key mismatch',
      { thread_key: 'self-evolving/repo:issue:42:answer:other' },
      'thread_key: expected "self-evolving/repo:issue:42:answer:default" (derived from repo_slug, target_kind, target_number, route and lane), got string "self-evolving/repo:issue:42:answer:other"',
    ],
    ['unknown field', { lanes: 'x' }, 'lanes: unknown field (not part of the envelope schema)'],
  ];
  it.each(cases)('%s', (_name, patch, message) => {
    expect(messagesFor({ ...valid(), ...patch })).toStrictEqual([message]);
  });

  it('reports a missing required field', () => {
    const { requested_by: _r, ...rest } = valid();
    expect(messagesFor(rest)).toStrictEqual(['requested_by: required field is missing']);
  });

  it('repository target with a non-zero number', () => {
    const envelope = buildEnvelope({
      ...INPUT,
      target_kind: 'repository',
      target_number: 0,
      target_url: 'https://github.com/o/r',
    });
    expect(messagesFor({ ...envelope, target_number: 5 })).toStrictEqual([
      'target_number: must be 0 when target_kind is "repository", got 5',
      'thread_key: expected "self-evolving/repo:repository:5:answer:default" (derived from repo_slug, target_kind, target_number, route and lane), got string "self-evolving/repo:repository:0:answer:default"',
    ]);
  });

  it('reports a bad target number together with the thread key it breaks', () => {
    expect(messagesFor({ ...valid(), target_number: 0 })).toStrictEqual([
      'target_number: must be >= 1 when target_kind is "issue", got 0',
      'thread_key: expected "self-evolving/repo:issue:0:answer:default" (derived from repo_slug, target_kind, target_number, route and lane), got string "self-evolving/repo:issue:42:answer:default"',
    ]);
  });

  it('reports every problem at once', () => {
    expect(messagesFor({ ...valid(), target_number: '3', lane: 5, extra: 1 })).toHaveLength(3);
  });

  it('rejects non-objects and bad JSON with a message', () => {
    expect(messagesFor(null)).toStrictEqual(['envelope: expected an object, got null']);
    expect(messagesFor([])).toStrictEqual(['envelope: expected an object, got array']);
    expect(messagesFor('{"schema_version":')[0]).toMatch(/^envelope: invalid JSON \(/);
  });

  it('rejects a thread key that cannot be stored as a git ref', () => {
    const patch = { route: 'fix--pr', thread_key: 'self-evolving/repo:issue:42:fix--pr:default' };
    const [message] = messagesFor({ ...valid(), ...patch }, { customRoutes: ['fix--pr'] });
    expect(message).toContain(
      'thread_key: "self-evolving/repo:issue:42:fix--pr:default" cannot be stored as a git ref',
    );
    expect(message).toContain('also reads as "self-evolving/repo:issue:42:fix:pr--default"');
  });

  it('returns the envelope on success', () => {
    const result = validateEnvelope(JSON.stringify(valid()));
    expect(result).toStrictEqual({ ok: true, envelope: valid() });
  });
});

describe('envelopeVariables', () => {
  it('maps envelope fields to prompt variables with Sepo aliases', () => {
    expect(envelopeVariables(valid())).toStrictEqual({
      REPO_SLUG: 'self-evolving/repo',
      ROUTE: 'answer',
      SOURCE_KIND: 'issue_comment',
      TARGET_KIND: 'issue',
      TARGET_NUMBER: '42',
      TARGET_URL: 'https://github.com/self-evolving/repo/issues/42',
      REQUEST_TEXT: 'please explain ${REPO_SLUG}',
      MENTION_BODY: 'please explain ${REPO_SLUG}',
      REQUESTED_BY: 'octocat',
      APPROVAL_COMMENT_URL: '',
      WORKFLOW: 'agent-answer.yml',
      LANE: 'default',
      THREAD_KEY: 'self-evolving/repo:issue:42:answer:default',
      PR_NUMBER: '42',
      GITHUB_REPOSITORY: 'self-evolving/repo',
    });
  });
});
