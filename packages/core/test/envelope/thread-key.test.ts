import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeThreadKeyFromRef,
  encodeThreadKeyForRef,
  formatThreadKey,
  gitRefComponentProblem,
  parseThreadKey,
  THREAD_STATE_REF_PREFIX,
  ThreadKeySchema,
  threadStateRef,
  validateThreadKey,
} from '../../src/envelope/index.js';
import { isRepomemError } from '../../src/errors.js';

function errorOf(fn: () => unknown): Error & { code?: string } {
  try {
    fn();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a throw');
}

describe('formatThreadKey / parseThreadKey', () => {
  it('formats repo:target_kind:target_number:route:lane with lane default', () => {
    expect(formatThreadKey({ repo_slug: 'o/r', target_kind: 'issue', target_number: 7, route: 'answer' })).toBe(
      'o/r:issue:7:answer:default',
    );
    expect(
      formatThreadKey({ repo_slug: 'o/r', target_kind: 'repository', target_number: 0, route: 'skill', lane: 'scan' }),
    ).toBe('o/r:repository:0:skill:scan');
  });

  it('treats an empty lane as default', () => {
    expect(
      formatThreadKey({ repo_slug: 'o/r', target_kind: 'issue', target_number: 7, route: 'answer', lane: '' }),
    ).toBe('o/r:issue:7:answer:default');
  });

  it('parses a key back into its fields (the repo slug keeps its slash)', () => {
    expect(parseThreadKey('self-evolving/repo:pull_request:12:review:codex')).toStrictEqual({
      repo_slug: 'self-evolving/repo',
      target_kind: 'pull_request',
      target_number: 12,
      route: 'review',
      lane: 'codex',
    });
  });

  it.each([
    [
      'o/r:issue:7:answer',
      'thread_key: expected "repo:target_kind:target_number:route:lane" (5 fields separated by ":"), got string "o/r:issue:7:answer"',
    ],
    ['o/r:issue:07:answer:default', 'thread_key.target_number: expected an integer, got string "07"'],
    ['o/r:issue:x:answer:default', 'thread_key.target_number: expected an integer, got string "x"'],
    ['o/r:repository:1:answer:default', 'thread_key.target_number: must be 0 when target_kind is "repository", got 1'],
    ['o/r:issue:0:answer:default', 'thread_key.target_number: must be >= 1 when target_kind is "issue", got 0'],
    [
      'o/r:pr:1:answer:default',
      'thread_key.target_kind: expected one of issue, pull_request, discussion, repository, got string "pr"',
    ],
    ['o:issue:1:answer:default', 'thread_key.repo_slug: expected "owner/repo", got string "o"'],
    [
      'o/r:issue:1:Answer:default',
      'thread_key.route: expected a route name matching ^[a-z0-9][a-z0-9._-]*$ (for example "answer"), got string "Answer"',
    ],
    [
      'o/r:issue:1:answer:',
      'thread_key.lane: expected a lane name matching ^[A-Za-z0-9][A-Za-z0-9._-]*$ (for example "default"), got string ""',
    ],
  ])('rejects %s', (key, message) => {
    const error = errorOf(() => parseThreadKey(key));
    expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
    expect(error.message).toBe(`invalid thread key: ${message}`);
  });

  it('validateThreadKey reports non-strings', () => {
    expect(validateThreadKey(5)).toStrictEqual({
      ok: false,
      issues: [{ path: 'thread_key', message: 'thread_key: expected a string, got number 5' }],
    });
  });

  it('ThreadKeySchema accepts valid keys and rejects others', () => {
    expect(ThreadKeySchema.safeParse('o/r:issue:1:answer:default').success).toBe(true);
    expect(ThreadKeySchema.safeParse('o/r:issue:1:answer').success).toBe(false);
  });

  it('formatThreadKey throws INVALID_ARGUMENT naming the field', () => {
    const error = errorOf(() =>
      formatThreadKey({ repo_slug: 'o/r', target_kind: 'issue', target_number: -2, route: 'answer' }),
    );
    expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
    expect(error.message).toContain('thread_key.target_number: expected a non-negative integer, got number -2');
  });
});

describe('ref encoding (Sepo-compatible)', () => {
  it('matches Sepo byte for byte', () => {
    expect(encodeThreadKeyForRef('self-evolving/repo:issue:42:implement:default')).toBe(
      'self-evolving%2Frepo--issue--42--implement--default',
    );
    expect(encodeThreadKeyForRef('org/repo:pull_request:7:fix-pr:claude')).toBe(
      'org%2Frepo--pull_request--7--fix-pr--claude',
    );
    expect(threadStateRef('self-evolving/repo:issue:42:implement:default')).toBe(
      'refs/agent-state/self-evolving%2Frepo--issue--42--implement--default',
    );
  });

  it('accepts parts as well as strings', () => {
    const parts = parseThreadKey('o/r:discussion:3:answer:default');
    expect(threadStateRef(parts)).toBe(`${THREAD_STATE_REF_PREFIX}o%2Fr--discussion--3--answer--default`);
  });

  it('distinguishes slugs that differ only in where the slash is', () => {
    const a = encodeThreadKeyForRef('foo/bar-baz:issue:1:implement:default');
    const b = encodeThreadKeyForRef('foo-bar/baz:issue:1:implement:default');
    expect(a).not.toBe(b);
    expect(decodeThreadKeyFromRef(a)).toBe('foo/bar-baz:issue:1:implement:default');
    expect(decodeThreadKeyFromRef(b)).toBe('foo-bar/baz:issue:1:implement:default');
  });

  it('decodes a full ref as well as a component', () => {
    expect(decodeThreadKeyFromRef('refs/agent-state/o%2Fr--issue--1--answer--default')).toBe(
      'o/r:issue:1:answer:default',
    );
  });

  it('round-trips repository names containing "--" and fields ending in "-" (decoded by field structure)', () => {
    for (const key of [
      'o/a--b:issue:1:answer:default',
      'o/a-:issue:1:answer:default',
      'o/-a-:repository:0:r-:l-',
      'o/a---b:pull_request:9:fix-pr:x',
      'o/issue:issue:1:issue:issue',
      'o/a--issue:issue:2:r:l',
      'o-/r:issue:3:r:l',
    ]) {
      expect(decodeThreadKeyFromRef(encodeThreadKeyForRef(key))).toBe(key);
    }
  });

  it('refuses keys whose encoding would be ambiguous, naming the other reading', () => {
    const route = errorOf(() => encodeThreadKeyForRef('o/r:issue:1:fix--pr:default'));
    expect(isRepomemError(route, 'INVALID_ARGUMENT')).toBe(true);
    expect(route.message).toContain('also reads as "o/r:issue:1:fix:pr--default"');
    const lane = errorOf(() => encodeThreadKeyForRef('o/r:issue:1:answer:a--b'));
    expect(lane.message).toContain('also reads as "o/r:issue:1:answer--a:b"');
    const repo = errorOf(() => encodeThreadKeyForRef('o/x--issue--1--a:issue:2:r:l'));
    expect(repo.message).toContain('"o/x:issue:1:a--issue--2--r:l"');
    // The colliding pair from the analysis: both are refused, so no two refs collide.
    expect(() => encodeThreadKeyForRef('o/x:issue:1:a--issue--2--r:l')).toThrow(/cannot be stored as a git ref/);
  });

  it('refuses keys whose encoding is not a valid git ref component', () => {
    expect(errorOf(() => encodeThreadKeyForRef('o/a..b:issue:1:r:l')).message).toContain('contains ".."');
    expect(errorOf(() => encodeThreadKeyForRef('o/r:issue:1:r:x.lock')).message).toContain('ends with ".lock"');
    expect(errorOf(() => encodeThreadKeyForRef('o/r:issue:1:r:x.')).message).toContain('ends with "."');
    expect(errorOf(() => encodeThreadKeyForRef('o/r:issue:1:a..b:l')).message).toContain('contains ".."');
  });

  it('refuses to decode what is not exactly one valid key', () => {
    for (const bad of [
      '',
      'nothing',
      'o%2Fr--issue--1--answer',
      'o%2Fr--pr--1--a--b',
      'o%2Fr--issue--01--a--b',
      'o%252Fr--issue--1--a--b',
    ]) {
      const error = errorOf(() => decodeThreadKeyFromRef(bad));
      expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
      expect(error.message).toMatch(/not an encoded thread key|not a canonical/);
    }
    const ambiguous = errorOf(() => decodeThreadKeyFromRef('o%2Fr--issue--1--a--b--c'));
    expect(ambiguous.message).toBe(
      'ambiguous encoded thread key "o%2Fr--issue--1--a--b--c": reads as "o/r:issue:1:a:b--c", "o/r:issue:1:a--b:c"',
    );
  });

  it('gitRefComponentProblem implements the check-ref-format rules', () => {
    expect(gitRefComponentProblem('a%2Fb--c')).toBeUndefined();
    expect(gitRefComponentProblem('')).toBe('is empty');
    expect(gitRefComponentProblem('a/b')).toBe('contains "/"');
    expect(gitRefComponentProblem('a b')).toMatch(/space/);
    expect(gitRefComponentProblem('a\u0001')).toMatch(/control/);
    expect(gitRefComponentProblem('a~1')).toMatch(/~/);
    expect(gitRefComponentProblem('a..b')).toBe('contains ".."');
    expect(gitRefComponentProblem('a@{b')).toBe('contains "@{"');
    expect(gitRefComponentProblem('@')).toBe('is "@"');
    expect(gitRefComponentProblem('.a')).toBe('starts with "."');
    expect(gitRefComponentProblem('a.')).toBe('ends with "."');
    expect(gitRefComponentProblem('a.lock')).toBe('ends with ".lock"');
  });
});

// Field generators deliberately rich in "-" and "." so separators and ref rules are exercised.
const owner = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9-]{0,6}$/);
const repoName = fc.stringMatching(/^[A-Za-z0-9._-]{1,10}$/);
const kindAndNumber = fc.oneof(
  fc.record({
    kind: fc.constantFrom('issue', 'pull_request', 'discussion'),
    number: fc.integer({ min: 1, max: 99_999 }),
  }),
  fc.constant({ kind: 'repository', number: 0 }),
);
const routeName = fc.oneof(
  fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,8}$/),
  fc.constantFrom('issue', 'fix-pr', 'a--b', 'r-'),
);
const laneName = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,8}$/),
  fc.constantFrom('default', 'issue--1', 'x-'),
);
const anyKey = fc
  .tuple(owner, repoName, kindAndNumber, routeName, laneName)
  .map(([o, r, kn, route, lane]) => `${o}/${r}:${kn.kind}:${kn.number}:${route}:${lane}`);

describe('ref encoding properties', () => {
  it('every accepted key encodes to a valid ref component that decodes back to it; others are refused with INVALID_ARGUMENT', () => {
    fc.assert(
      fc.property(anyKey, (key) => {
        let encoded: string;
        try {
          encoded = encodeThreadKeyForRef(key);
        } catch (error) {
          expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
          return;
        }
        expect(gitRefComponentProblem(encoded)).toBeUndefined();
        expect(decodeThreadKeyFromRef(encoded)).toBe(key);
      }),
      { numRuns: 2000 },
    );
  });

  it('keys whose fields avoid "--", ".." and a trailing "." or ".lock" are always accepted', () => {
    const plain = fc.stringMatching(/^[a-z0-9](?:[a-z0-9_]|-[a-z0-9_]|\.[a-z0-9_]){0,6}$/);
    const plainKey = fc
      .tuple(owner, plain, kindAndNumber, plain, plain)
      .map(([o, r, kn, route, lane]) => `${o}/${r}:${kn.kind}:${kn.number}:${route}:${lane}`);
    fc.assert(
      fc.property(plainKey, (key) => {
        expect(decodeThreadKeyFromRef(encodeThreadKeyForRef(key))).toBe(key);
      }),
      { numRuns: 1000 },
    );
  });

  it('distinct accepted keys never share a ref', () => {
    fc.assert(
      fc.property(anyKey, anyKey, (a, b) => {
        fc.pre(a !== b);
        let ea: string;
        let eb: string;
        try {
          ea = encodeThreadKeyForRef(a);
          eb = encodeThreadKeyForRef(b);
        } catch {
          return;
        }
        expect(ea).not.toBe(eb);
      }),
      { numRuns: 1000 },
    );
  });
});

function gitAvailable(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!gitAvailable())('git check-ref-format agrees', () => {
  it('accepts the full refs of sample keys', () => {
    const keys = [
      'self-evolving/repo:issue:42:implement:default',
      'o/a--b:pull_request:7:fix-pr:claude',
      'O-/.x_-:repository:0:rubrics.update:Lane_1',
      'o/-a-:discussion:3:r-:l-',
    ];
    for (const key of keys) {
      execFileSync('git', ['check-ref-format', threadStateRef(key)], { stdio: 'ignore' });
    }
  });

  it('rejects what gitRefComponentProblem rejects', () => {
    for (const component of ['a..b', 'a.lock', 'a.', '.a', 'a@{b', 'a b', 'a~b']) {
      expect(gitRefComponentProblem(component)).toBeDefined();
      expect(() =>
        execFileSync('git', ['check-ref-format', `refs/agent-state/${component}`], { stdio: 'ignore' }),
      ).toThrow();
    }
  });
});
