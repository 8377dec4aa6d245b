import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  formatThreadKey,
  gitRefComponentProblem,
  parseThreadKey,
  ThreadKeySchema,
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

describe('keys Sepo round-trips', () => {
  it('accepts a % in the repository part (org/%2F:issue:1:r:l)', () => {
    expect(parseThreadKey('org/%2F:issue:1:r:l')).toEqual({
      repo_slug: 'org/%2F',
      target_kind: 'issue',
      target_number: 1,
      route: 'r',
      lane: 'l',
    });
    expect(validateThreadKey('org/a b:issue:1:r:l').ok).toBe(false);
  });
});

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

describe('git ref components', () => {
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

function gitAvailable(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!gitAvailable())('git check-ref-format agrees', () => {
  it('rejects what gitRefComponentProblem rejects', () => {
    for (const component of ['a..b', 'a.lock', 'a.', '.a', 'a@{b', 'a b', 'a~b']) {
      expect(gitRefComponentProblem(component)).toBeDefined();
      expect(() =>
        execFileSync('git', ['check-ref-format', `refs/agent-state/${component}`], { stdio: 'ignore' }),
      ).toThrow();
    }
  });
});
