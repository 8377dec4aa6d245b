// Why: the three commit gates decide whether an agent run's memory edits are pushed; each gate
// and their order is checked here, with the policy and override a workflow passes.
import { describe, expect, it } from 'vitest';
import { decideMemoryCommit } from '../../src/index.js';

describe('decideMemoryCommit', () => {
  it('commits when the agent exited 0, memory is enabled and mounted', () => {
    expect(decideMemoryCommit({ agentExitCode: '0', memoryMounted: true, route: 'answer' })).toMatchObject({
      commit: true,
      mode: 'enabled',
      reason: 'commit',
    });
  });

  it.each([
    ['1', 'agent_failed'],
    [137, 'agent_failed'],
    ['', 'agent_exit_unknown'],
    [undefined, 'agent_exit_unknown'],
    ['zero', 'agent_exit_unknown'],
  ] as const)('does not commit when the exit code is %j (%s)', (code, reason) => {
    expect(decideMemoryCommit({ agentExitCode: code, memoryMounted: true, route: 'answer' })).toMatchObject({
      commit: false,
      reason,
    });
  });

  it('does not commit a read-only route, nor a review job forced read-only', () => {
    const policy = '{"route_overrides":{"review":"read-only"}}';
    expect(decideMemoryCommit({ agentExitCode: 0, memoryMounted: true, route: 'review', policy })).toMatchObject({
      commit: false,
      reason: 'memory_read_only',
    });
    expect(
      decideMemoryCommit({ agentExitCode: 0, memoryMounted: true, route: 'answer', override: 'read-only' }),
    ).toMatchObject({ commit: false, reason: 'memory_read_only' });
  });

  it('fails closed on an invalid policy', () => {
    const decision = decideMemoryCommit({ agentExitCode: 0, memoryMounted: true, route: 'answer', policy: '{oops' });
    expect(decision).toMatchObject({ commit: false, reason: 'memory_disabled', mode: 'disabled' });
    expect(decision.diagnostics.length).toBeGreaterThan(0);
  });

  it('does not commit when memory was not mounted', () => {
    expect(decideMemoryCommit({ agentExitCode: 0, memoryMounted: false, route: 'answer' })).toMatchObject({
      commit: false,
      reason: 'memory_not_mounted',
    });
  });
});
