// Why: thread state refs must match Sepo byte for byte and decode back to exactly one key;
// these checks moved here with the ref naming (core keeps the thread key rules themselves).
import { execFileSync } from 'node:child_process';
import { gitRefComponentProblem, isRepomemError, parseThreadKey } from '@repomem/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeThreadKeyFromRef,
  encodeThreadKeyForRef,
  THREAD_STATE_REF_PREFIX,
  threadStateRef,
} from '../src/index.js';

function errorOf(fn: () => unknown): Error & { code?: string } {
  try {
    fn();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a throw');
}

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

  it('round-trips a key holding % as Sepo does (org/%2F:issue:1:r:l)', () => {
    const key = 'org/%2F:issue:1:r:l';
    expect(encodeThreadKeyForRef(key)).toBe('org%2F%252F--issue--1--r--l');
    expect(decodeThreadKeyFromRef('org%2F%252F--issue--1--r--l')).toBe(key);
    expect(decodeThreadKeyFromRef(threadStateRef('a%b/c%25d:pull_request:3:answer:default'))).toBe(
      'a%b/c%25d:pull_request:3:answer:default',
    );
    // A bare % is not Sepo's encoding of anything.
    expect(errorOf(() => decodeThreadKeyFromRef('org%2F%2X--issue--1--r--l')).code).toBe('INVALID_ARGUMENT');
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

describe('git check-ref-format agrees', () => {
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
});
