import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canRead,
  canWrite,
  MEMORY_MODES,
  type MemoryMode,
  parseMemoryPolicy,
  resolveMemoryMode,
} from '../../src/policy/index.js';

describe('resolveMemoryMode: defaults and valid policies', () => {
  it.each([undefined, null, '', '   \n'])('empty policy %j means enabled', (policy) => {
    expect(resolveMemoryMode({ policy, route: 'answer' })).toStrictEqual({
      mode: 'enabled',
      source: 'default',
      diagnostics: [],
    });
  });

  it('applies route overrides, then default_mode', () => {
    const policy = '{"default_mode":"read-only","route_overrides":{"review":"disabled","answer":"enabled"}}';
    expect(resolveMemoryMode({ policy, route: 'review' })).toStrictEqual({
      mode: 'disabled',
      source: 'route_override',
      diagnostics: [],
    });
    expect(resolveMemoryMode({ policy, route: 'answer' })).toStrictEqual({
      mode: 'enabled',
      source: 'route_override',
      diagnostics: [],
    });
    expect(resolveMemoryMode({ policy, route: 'implement' })).toStrictEqual({
      mode: 'read-only',
      source: 'default_mode',
      diagnostics: [],
    });
  });

  it('accepts the documented examples', () => {
    expect(resolveMemoryMode({ policy: '{"route_overrides": {"review": "read-only"}}', route: 'review' }).mode).toBe(
      'read-only',
    );
    expect(resolveMemoryMode({ policy: '{"route_overrides": {"review": "read-only"}}', route: 'answer' }).mode).toBe(
      'enabled',
    );
    expect(resolveMemoryMode({ policy: '{"default_mode": "read-only"}', route: 'answer' }).mode).toBe('read-only');
    expect(resolveMemoryMode({ policy: '{"default_mode": "disabled"}', route: 'answer' }).mode).toBe('disabled');
    expect(resolveMemoryMode({ policy: '{}', route: 'answer' }).source).toBe('default');
  });

  it('accepts an already-parsed policy object', () => {
    expect(resolveMemoryMode({ policy: { route_overrides: { dispatch: 'disabled' } }, route: 'dispatch' }).mode).toBe(
      'disabled',
    );
  });

  it('does not treat inherited object properties as route overrides', () => {
    expect(resolveMemoryMode({ policy: '{"default_mode":"read-only"}', route: 'constructor' })).toStrictEqual({
      mode: 'read-only',
      source: 'default_mode',
      diagnostics: [],
    });
  });
});

describe('resolveMemoryMode: override', () => {
  it('a valid override bypasses the policy', () => {
    expect(
      resolveMemoryMode({ policy: '{"default_mode":"disabled"}', route: 'skill', override: 'enabled' }),
    ).toStrictEqual({
      mode: 'enabled',
      source: 'override',
      diagnostics: [],
    });
    expect(resolveMemoryMode({ route: 'review', override: ' read-only ' }).mode).toBe('read-only');
  });

  it('a blank override is no override', () => {
    expect(resolveMemoryMode({ policy: '{"default_mode":"read-only"}', route: 'answer', override: '' }).source).toBe(
      'default_mode',
    );
    expect(resolveMemoryMode({ route: 'answer', override: null }).source).toBe('default');
  });

  it('still reports an invalid policy when an override applies', () => {
    const result = resolveMemoryMode({ policy: '{nope', route: 'answer', override: 'enabled' });
    expect(result.mode).toBe('enabled');
    expect(result.diagnostics[0]).toMatch(
      /^AGENT_MEMORY_POLICY: invalid JSON .*\(ignored: memory_mode_override applies\)$/,
    );
  });
});

describe('resolveMemoryMode: case as Sepo reads it', () => {
  it('lower-cases route keys, modes, the route and the override', () => {
    const policy = '{"route_overrides":{"REVIEW":"disabled"}}';
    expect(resolveMemoryMode({ policy, route: 'review' }).mode).toBe('disabled');
    expect(resolveMemoryMode({ policy, route: 'answer' })).toEqual({
      mode: 'enabled',
      source: 'default',
      diagnostics: [],
    });
    expect(resolveMemoryMode({ policy: '{"default_mode":" Read-Only "}', route: 'answer' }).mode).toBe('read-only');
    expect(resolveMemoryMode({ policy: '{"route_overrides":{"review":"DISABLED"}}', route: 'Review' }).mode).toBe(
      'disabled',
    );
    expect(resolveMemoryMode({ route: 'answer', override: 'ENABLED' })).toMatchObject({
      mode: 'enabled',
      source: 'override',
    });
  });

  it('refuses keys that differ only in case and disagree (fail closed)', () => {
    const result = resolveMemoryMode({
      policy: '{"route_overrides":{"Review":"enabled","review":"disabled"}}',
      route: 'answer',
    });
    expect(result.mode).toBe('disabled');
    expect(result.diagnostics[0]).toMatch(/"review" is given twice/);
  });

  it("keeps Sepo's error phrases", () => {
    const diagnostic = (policy: string) => resolveMemoryMode({ policy, route: 'answer' }).diagnostics[0];
    expect(diagnostic('{"default_mode":"rw"}')).toContain('default_mode must be one of');
    expect(diagnostic('{"route_overrides":[]}')).toContain('route_overrides must be an object');
    expect(diagnostic('{"route_overrides":{"-x":"disabled"}}')).toContain('Invalid route override key');
  });
});

describe('resolveMemoryMode: fails closed', () => {
  const cases: Array<[string, Parameters<typeof resolveMemoryMode>[0], RegExp]> = [
    ['malformed JSON', { policy: '{"default_mode":', route: 'answer' }, /^AGENT_MEMORY_POLICY: invalid JSON \(/],
    ['JSON array', { policy: '["enabled"]', route: 'answer' }, /^AGENT_MEMORY_POLICY must be an object \(got array\)/],
    [
      'JSON string',
      { policy: '"enabled"', route: 'answer' },
      /^AGENT_MEMORY_POLICY must be an object \(got string "enabled"\)/,
    ],
    ['number value', { policy: 5, route: 'answer' }, /^AGENT_MEMORY_POLICY must be an object \(got number 5\)/],
    [
      'invalid default_mode',
      { policy: '{"default_mode":"Enable"}', route: 'answer' },
      /^AGENT_MEMORY_POLICY\.default_mode must be one of enabled, read-only, disabled \(got string "enable"\)/,
    ],
    [
      'invalid route override mode',
      { policy: '{"route_overrides":{"review":"rw"}}', route: 'answer' },
      /^AGENT_MEMORY_POLICY\.route_overrides\.review must be one of enabled, read-only, disabled \(got string "rw"\)/,
    ],
    [
      'route_overrides not an object',
      { policy: '{"route_overrides":["review"]}', route: 'answer' },
      /^AGENT_MEMORY_POLICY\.route_overrides must be an object \(got array\)/,
    ],
    [
      'invalid route key',
      { policy: '{"route_overrides":{"Re view":"read-only"}}', route: 'answer' },
      /^AGENT_MEMORY_POLICY\.route_overrides.*Invalid route override key in memory policy: re view \(expected a route key matching/,
    ],
    [
      'unknown top-level key (typo)',
      { policy: '{"route_override":{"review":"disabled"}}', route: 'review' },
      /^AGENT_MEMORY_POLICY\.route_override: unknown field/,
    ],
    ['invalid route', { route: 'Bad Route' }, /^route: expected a route name matching .*, got string "Bad Route"/],
    [
      'invalid override (Sepo fell back to enabled)',
      { route: 'answer', override: 'enabeld' },
      /^memory_mode_override: expected one of "enabled", "read-only", "disabled", got string "enabeld"; memory disabled \(fail closed\)$/,
    ],
    [
      'override of the wrong type',
      { route: 'answer', override: true },
      /^memory_mode_override: expected .*got boolean true/,
    ],
  ];
  it.each(cases)('%s resolves to disabled with a diagnostic', (_name, input, diagnostic) => {
    const result = resolveMemoryMode(input);
    expect(result.mode).toBe('disabled');
    expect(result.source).toBe('invalid');
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatch(diagnostic);
    expect(canWrite(result.mode)).toBe(false);
    expect(canRead(result.mode)).toBe(false);
  });

  it('never grants write access from invalid input (property)', () => {
    const junk = fc.oneof(fc.string(), fc.json(), fc.anything());
    fc.assert(
      fc.property(junk, junk, fc.string(), (policy, override, route) => {
        const result = resolveMemoryMode({ policy, override, route });
        if (result.source === 'invalid') expect(result.mode).toBe('disabled');
        if (canWrite(result.mode)) {
          // Write access only from a valid input that says so.
          const overridden = typeof override === 'string' && override.trim() !== '';
          if (overridden) expect(override.trim()).toBe('enabled');
          else expect(parseMemoryPolicy(policy).ok).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('canRead / canWrite', () => {
  it.each<[MemoryMode, boolean, boolean]>([
    ['enabled', true, true],
    ['read-only', true, false],
    ['disabled', false, false],
  ])('%s: read %s write %s', (mode, read, write) => {
    expect(canRead(mode)).toBe(read);
    expect(canWrite(mode)).toBe(write);
  });

  it('junk modes get nothing', () => {
    expect(canRead('ENABLED' as MemoryMode)).toBe(false);
    expect(canWrite('' as MemoryMode)).toBe(false);
  });

  it('MEMORY_MODES lists the three modes', () => {
    expect(MEMORY_MODES).toStrictEqual(['enabled', 'read-only', 'disabled']);
  });
});
