// Why: two ways a policy was bypassed without a word: a `__proto__` override key (dropped by the
// record validation, so the override silently did nothing) and an event named `Schedule` in
// another case (read as "not a cron tick", so the schedule policy did not apply).
import { describe, expect, it } from 'vitest';
import { resolveMemoryMode } from '../../src/policy/memory-policy.js';
import { parseSchedulePolicy, resolveScheduleMode } from '../../src/policy/schedule-policy.js';

describe('override keys JavaScript reserves', () => {
  it.each(['__proto__', '__PROTO__', ' __proto__ '])(
    'a route override %j is refused (memory disabled), not dropped',
    (key) => {
      const policy = JSON.stringify({ route_overrides: { [key]: 'enabled' }, default_mode: 'read-only' });
      const resolved = resolveMemoryMode({ policy, route: 'review' });
      expect(resolved).toMatchObject({ mode: 'disabled', source: 'invalid' });
      expect(resolved.diagnostics.join('\n')).toContain('is not an allowed key');
    },
  );

  it('a workflow override __proto__ is refused, not dropped', () => {
    const parsed = parseSchedulePolicy('{"workflow_overrides":{"__proto__":"disabled"}}');
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.diagnostic).toContain('"__proto__" is not an allowed key');
  });

  it.each(['constructor', 'tostring', 'hasownproperty'])('%j is an ordinary route key', (route) => {
    const policy = JSON.stringify({ route_overrides: { [route]: 'read-only' } });
    expect(resolveMemoryMode({ policy, route })).toMatchObject({ mode: 'read-only', source: 'route_override' });
    expect(resolveMemoryMode({ policy: '{}', route })).toMatchObject({ mode: 'enabled', source: 'default' });
  });

  it('constructor.yml is an ordinary workflow key', () => {
    const parsed = parseSchedulePolicy('{"workflow_overrides":{"constructor.yml":"disabled"}}');
    expect(parsed.ok && parsed.policy.workflow_overrides['constructor.yml']).toBe('disabled');
  });
});

describe('event names are compared as Sepo compares policy words', () => {
  it.each(['Schedule', 'SCHEDULE', ' schedule '])('%j is a cron tick: the schedule policy applies', (event) => {
    const decision = resolveScheduleMode({
      policy: '{"default_mode":"disabled"}',
      workflow: 'agent-memory-scan.yml',
      event,
    });
    expect(decision.run).toBe(false);
  });

  it('Workflow_Dispatch is a manual run (the policy does not apply)', () => {
    const decision = resolveScheduleMode({
      policy: '{"default_mode":"disabled"}',
      workflow: 'agent-memory-scan.yml',
      event: 'Workflow_Dispatch',
    });
    expect(decision).toMatchObject({ run: true, reason: 'not_scheduled' });
  });
});
