import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SCHEDULE_WORKFLOW_OVERRIDES,
  parseSchedulePolicy,
  resolveScheduleMode,
} from '../../src/policy/index.js';

describe('resolveScheduleMode defaults (scheduled runs)', () => {
  it('skip_no_updates by default: runs its activity detector', () => {
    expect(resolveScheduleMode({ workflow: 'agent-memory-scan.yml', event: 'schedule' })).toStrictEqual({
      mode: 'skip_no_updates',
      source: 'default',
      run: true,
      checkActivity: true,
      reason: 'check_activity',
      message: 'skip_no_updates: runs only if its activity detector finds work',
      diagnostics: [],
    });
  });

  it('agent-daily-summary.yml is disabled and agent-memory-sync.yml always runs', () => {
    const summary = resolveScheduleMode({ workflow: 'agent-daily-summary.yml' });
    expect([summary.mode, summary.source, summary.run, summary.reason]).toStrictEqual([
      'disabled',
      'default_workflow_override',
      false,
      'schedule_disabled',
    ]);
    const sync = resolveScheduleMode({ workflow: 'agent-memory-sync.yml' });
    expect([sync.mode, sync.source, sync.run, sync.checkActivity]).toStrictEqual([
      'always_run',
      'default_workflow_override',
      true,
      false,
    ]);
  });

  it('treats an absent or blank event as schedule', () => {
    expect(resolveScheduleMode({ workflow: 'agent-daily-summary.yml', event: '' }).run).toBe(false);
  });
});

describe('custom policy merges over the defaults (Sepo weakness 8)', () => {
  it('keeps the sync workflow always_run when a custom policy overrides another workflow', () => {
    const policy = '{"workflow_overrides":{"agent-memory-scan.yml":"disabled"}}';
    expect(resolveScheduleMode({ policy, workflow: 'agent-memory-sync.yml' }).mode).toBe('always_run');
    expect(resolveScheduleMode({ policy, workflow: 'agent-daily-summary.yml' }).mode).toBe('disabled');
    const scan = resolveScheduleMode({ policy, workflow: 'agent-memory-scan.yml' });
    expect([scan.mode, scan.source, scan.run]).toStrictEqual(['disabled', 'workflow_override', false]);
  });

  it('a custom default_mode applies to workflows without an override, not to the default overrides', () => {
    const policy = { default_mode: 'always_run' };
    const scan = resolveScheduleMode({ policy, workflow: 'agent-memory-scan.yml' });
    expect([scan.mode, scan.source]).toStrictEqual(['always_run', 'default_mode']);
    expect(resolveScheduleMode({ policy, workflow: 'agent-daily-summary.yml' }).mode).toBe('disabled');
  });

  it('a custom override can replace a default override', () => {
    const result = resolveScheduleMode({
      policy: '{"workflow_overrides":{"agent-daily-summary.yml":"skip_no_updates"}}',
      workflow: 'agent-daily-summary.yml',
    });
    expect([result.mode, result.source, result.run, result.checkActivity]).toStrictEqual([
      'skip_no_updates',
      'workflow_override',
      true,
      true,
    ]);
  });

  it('workflow keys and names compare in lower case (as Sepo)', () => {
    const policy = '{"workflow_overrides":{"AGENT-MEMORY-SCAN.YML":"disabled"}}';
    expect(resolveScheduleMode({ policy, workflow: 'agent-memory-scan.yml' }).mode).toBe('disabled');
    expect(resolveScheduleMode({ policy, workflow: 'Agent-Memory-Scan.yml' }).mode).toBe('disabled');
  });

  it('parseSchedulePolicy exposes the merged overrides and leaves the defaults untouched', () => {
    const parsed = parseSchedulePolicy('{"workflow_overrides":{"x.yaml":"always_run"}}');
    expect(parsed).toStrictEqual({
      ok: true,
      policy: {
        default_mode: 'skip_no_updates',
        custom_default_mode: false,
        workflow_overrides: {
          'agent-daily-summary.yml': 'disabled',
          'agent-memory-sync.yml': 'always_run',
          'x.yaml': 'always_run',
        },
        custom_overrides: ['x.yaml'],
      },
    });
    expect(DEFAULT_SCHEDULE_WORKFLOW_OVERRIDES).toStrictEqual({
      'agent-daily-summary.yml': 'disabled',
      'agent-memory-sync.yml': 'always_run',
    });
    expect(Object.isFrozen(DEFAULT_SCHEDULE_WORKFLOW_OVERRIDES)).toBe(true);
  });
});

describe('manual dispatch and AGENT_ENABLED', () => {
  it('manual dispatch runs even when the workflow is disabled for schedules', () => {
    const result = resolveScheduleMode({ workflow: 'agent-daily-summary.yml', event: 'workflow_dispatch' });
    expect([result.mode, result.run, result.checkActivity, result.reason]).toStrictEqual([
      'disabled',
      true,
      false,
      'not_scheduled',
    ]);
  });

  it('manual dispatch runs even with an invalid policy, which is still reported', () => {
    const result = resolveScheduleMode({
      policy: '{bad',
      workflow: 'agent-memory-scan.yml',
      event: 'workflow_dispatch',
    });
    expect(result.run).toBe(true);
    expect(result.diagnostics[0]).toMatch(/^AGENT_SCHEDULE_POLICY: invalid JSON/);
  });

  it.each(['false', 'FALSE', ' false '])('AGENT_ENABLED=%j pauses every event', (agentEnabled) => {
    for (const event of ['schedule', 'workflow_dispatch']) {
      const result = resolveScheduleMode({ workflow: 'agent-memory-sync.yml', event, agentEnabled });
      expect([result.run, result.reason, result.diagnostics]).toStrictEqual([false, 'paused', []]);
    }
  });

  it.each([undefined, '', 'true'])('AGENT_ENABLED=%j does not pause', (agentEnabled) => {
    expect(resolveScheduleMode({ workflow: 'agent-memory-sync.yml', agentEnabled }).run).toBe(true);
  });

  it('an unrecognised AGENT_ENABLED value pauses (fail closed) with a diagnostic', () => {
    const result = resolveScheduleMode({
      workflow: 'agent-memory-sync.yml',
      event: 'workflow_dispatch',
      agentEnabled: 'no',
    });
    expect(result.run).toBe(false);
    expect(result.diagnostics).toStrictEqual([
      'AGENT_ENABLED: expected "true" or "false", got string "no"; treated as "false" (fail closed)',
    ]);
  });
});

describe('schedule policy case, as Sepo reads it', () => {
  it('lower-cases modes and workflow keys', () => {
    const policy = '{"default_mode":"ALWAYS_RUN","workflow_overrides":{"Agent-Memory-Scan.YML":" Disabled "}}';
    expect(resolveScheduleMode({ policy, workflow: 'agent-memory-scan.yml' }).mode).toBe('disabled');
    expect(resolveScheduleMode({ policy, workflow: 'other.yml' }).mode).toBe('always_run');
  });
});

describe('invalid policies fail closed for scheduled runs', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['malformed JSON', '{"default_mode":', /^AGENT_SCHEDULE_POLICY: invalid JSON/],
    ['not an object', '[1]', /^AGENT_SCHEDULE_POLICY must be an object \(got array\)/],
    [
      'bad default_mode',
      '{"default_mode":"banana"}',
      /^AGENT_SCHEDULE_POLICY\.default_mode must be one of always_run, skip_no_updates, disabled \(got string "banana"\)/,
    ],
    [
      'bad override mode',
      '{"workflow_overrides":{"a.yml":"enabled"}}',
      /^AGENT_SCHEDULE_POLICY\.workflow_overrides\.a\.yml must be one of/,
    ],
    [
      'bad workflow key',
      '{"workflow_overrides":{"../bad.yml":"disabled"}}',
      /^AGENT_SCHEDULE_POLICY\.workflow_overrides.*Invalid workflow override key in schedule policy: \.\.\/bad\.yml \(expected a workflow file name/,
    ],
    [
      'overrides as array',
      '{"workflow_overrides":["agent-memory-scan.yml"]}',
      /^AGENT_SCHEDULE_POLICY\.workflow_overrides must be an object \(got array\)/,
    ],
    ['unknown key', '{"workflow_override":{}}', /^AGENT_SCHEDULE_POLICY\.workflow_override: unknown field/],
    [
      'conflicting keys differing in case',
      '{"workflow_overrides":{"A.yml":"disabled","a.yml":"always_run"}}',
      /"a\.yml" is given twice/,
    ],
  ];
  it.each(cases)('%s', (_name, policy, diagnostic) => {
    const result = resolveScheduleMode({ policy, workflow: 'agent-memory-sync.yml', event: 'schedule' });
    expect([result.mode, result.source, result.run, result.reason]).toStrictEqual([
      'disabled',
      'invalid',
      false,
      'invalid_policy',
    ]);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatch(diagnostic);
  });

  it('an invalid workflow name fails closed too', () => {
    const result = resolveScheduleMode({ workflow: '../x.yml' });
    expect([result.mode, result.run]).toStrictEqual(['disabled', false]);
    expect(result.diagnostics[0]).toMatch(/^workflow: expected a workflow file name/);
  });
});
