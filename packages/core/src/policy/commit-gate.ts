// Why: an agent run may only commit its memory edits when three things hold (seed 000's commit
// gates): the agent exited 0, the memory policy allows writes for the run, and memory was
// mounted. One pure decision, so the workflow, the CLI and tests agree on it and a failed or
// read-only run never pushes half-finished memory.
import { type MemoryMode, resolveMemoryMode } from './memory-policy.js';

/** Why a run's memory edits are, or are not, committed. */
export type CommitGateReason =
  | 'commit'
  | 'agent_failed'
  | 'agent_exit_unknown'
  | 'memory_read_only'
  | 'memory_disabled'
  | 'memory_not_mounted';

/** Result of {@link decideMemoryCommit}. */
export interface CommitGateDecision {
  /** Whether the edits are committed and pushed. */
  readonly commit: boolean;
  /** The memory mode the policy resolved for the run. */
  readonly mode: MemoryMode;
  /** Machine-readable reason (the first gate that failed, or `commit`). */
  readonly reason: CommitGateReason;
  /** Human-readable explanation. */
  readonly message: string;
  /** Problems found in the policy inputs. */
  readonly diagnostics: readonly string[];
}

/** Input of {@link decideMemoryCommit}. */
export interface CommitGateInput {
  /** The agent's exit code as a workflow passes it (`'0'`, `0`, `''` when the step never ran). */
  readonly agentExitCode: string | number | undefined;
  /** Whether the memory directory or branch was mounted for the run. */
  readonly memoryMounted: boolean;
  /** AGENT_MEMORY_POLICY (JSON text or value). */
  readonly policy?: unknown;
  /** The run's route. */
  readonly route: string;
  /** `memory_mode_override` (review jobs pass `read-only`). */
  readonly override?: unknown;
}

function exitCodeOf(value: string | number | undefined): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  const text = (value ?? '').trim();
  return /^\d{1,3}$/.test(text) ? Number(text) : undefined;
}

/**
 * The three commit gates, in order: the agent's exit code is 0 (a missing or unreadable code
 * counts as a failure), the resolved memory mode is `enabled`, and memory was mounted.
 */
export function decideMemoryCommit(input: CommitGateInput): CommitGateDecision {
  const resolution = resolveMemoryMode({ policy: input.policy, route: input.route, override: input.override });
  const base = { mode: resolution.mode, diagnostics: resolution.diagnostics };
  const code = exitCodeOf(input.agentExitCode);
  if (code === undefined) {
    return {
      ...base,
      commit: false,
      reason: 'agent_exit_unknown',
      message: `the agent's exit code is unknown (${JSON.stringify(input.agentExitCode ?? '')}): not committing`,
    };
  }
  if (code !== 0) {
    return { ...base, commit: false, reason: 'agent_failed', message: `the agent exited ${code}: not committing` };
  }
  if (resolution.mode !== 'enabled') {
    return {
      ...base,
      commit: false,
      reason: resolution.mode === 'read-only' ? 'memory_read_only' : 'memory_disabled',
      message: `memory is ${resolution.mode} for route ${JSON.stringify(input.route)}: not committing`,
    };
  }
  if (!input.memoryMounted) {
    return {
      ...base,
      commit: false,
      reason: 'memory_not_mounted',
      message: 'memory was not mounted: nothing to commit',
    };
  }
  return { ...base, commit: true, reason: 'commit', message: 'the agent succeeded and memory is writable: committing' };
}
