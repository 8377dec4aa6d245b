// Why: GitHub review webhook payloads shaped like real deliveries (trimmed to the fields GitHub
// always sends that extraction reads, plus a few it ignores), shared by the rule tests.

/** A `pull_request_review` "submitted" payload. */
export function reviewPayload(
  overrides: { body?: string | null; association?: string; action?: string; login?: string } = {},
) {
  return {
    action: overrides.action ?? 'submitted',
    review: {
      id: 80,
      node_id: 'PRR_kwDOA',
      user: { login: overrides.login ?? 'octocat', id: 1, type: 'User' },
      body:
        overrides.body === undefined ? 'Please never use `any` here; we always use explicit types.' : overrides.body,
      commit_id: 'ecdd80bb57125d7ba9641ffaa4d7d2c19d3f3091',
      submitted_at: '2026-01-02T03:04:05Z',
      state: 'changes_requested',
      html_url: 'https://github.com/acme/app/pull/12#pullrequestreview-80',
      author_association: overrides.association ?? 'OWNER',
    },
    pull_request: {
      number: 12,
      html_url: 'https://github.com/acme/app/pull/12',
      state: 'open',
      merged: false,
      head: { ref: 'agent/task-1' },
      base: { ref: 'main' },
    },
    repository: { id: 1296269, full_name: 'acme/app', private: false },
    sender: { login: overrides.login ?? 'octocat' },
  };
}

/** A `pull_request_review_comment` "created" payload. */
export function reviewCommentPayload(overrides: { body?: string; association?: string; action?: string } = {}) {
  return {
    action: overrides.action ?? 'created',
    comment: {
      id: 2001,
      pull_request_review_id: 80,
      path: 'src/api/users.ts',
      line: 42,
      original_line: 40,
      diff_hunk: '@@ -1,3 +1,4 @@',
      user: { login: 'hubot', id: 2 },
      body: overrides.body ?? 'Validate request bodies with zod in every handler under src/api.',
      created_at: '2026-01-02T03:05:00Z',
      author_association: overrides.association ?? 'MEMBER',
    },
    pull_request: { number: 12, html_url: 'https://github.com/acme/app/pull/12' },
    repository: { full_name: 'acme/app' },
  };
}
