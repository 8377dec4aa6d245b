// Why: AGENT_SCHEDULE_POLICY decides whether a cron-triggered workflow runs. Custom workflow
// overrides are merged over the built-in ones (Sepo replaced them, silently dropping the sync
// workflow's `always_run`, weakness 8), manual dispatch always runs unless AGENT_ENABLED=false
// pauses everything, and an invalid policy disables scheduled runs with a diagnostic.
import { z } from 'zod';
import { describeValue } from '../envelope/validation-issues.js';
import { normalizePolicyCase, readPolicyInput, sepoMessages, validatePolicyValue } from './policy-input.js';

/** How a scheduled workflow behaves on a cron tick. */
export type ScheduleMode = 'always_run' | 'skip_no_updates' | 'disabled';

/** All schedule modes. */
export const SCHEDULE_MODES = ['always_run', 'skip_no_updates', 'disabled'] as const satisfies readonly ScheduleMode[];

/** Mode of workflows without an override. */
export const DEFAULT_SCHEDULE_MODE: ScheduleMode = 'skip_no_updates';

/** Built-in workflow overrides; a custom policy's overrides are merged over these. */
export const DEFAULT_SCHEDULE_WORKFLOW_OVERRIDES: Readonly<Record<string, ScheduleMode>> = Object.freeze({
  'agent-daily-summary.yml': 'disabled',
  'agent-memory-sync.yml': 'always_run',
});

/** Name of the repository variable holding the schedule policy (used in diagnostics). */
export const SCHEDULE_POLICY_NAME = 'AGENT_SCHEDULE_POLICY';

/** Pattern of a workflow file name (compared in lower case, as Sepo does). */
export const WORKFLOW_FILE_PATTERN = /^[a-z0-9][a-z0-9._-]*\.ya?ml$/;

/** Zod schema of a schedule mode. */
export const ScheduleModeSchema = z.enum(SCHEDULE_MODES, sepoMessages.mode(SCHEDULE_MODES));

const WorkflowKeySchema = z
  .string()
  .refine(
    (key) => WORKFLOW_FILE_PATTERN.test(key.toLowerCase()),
    sepoMessages.key(
      'Invalid workflow override key in schedule policy',
      'a workflow file name such as "agent-memory-scan.yml"',
    ),
  );

/** Zod schema of the AGENT_SCHEDULE_POLICY JSON: `{ default_mode?, workflow_overrides?: { "<file>.yml": mode } }`; unknown keys are rejected. */
export const SchedulePolicySchema = z.strictObject(
  {
    default_mode: ScheduleModeSchema.optional(),
    workflow_overrides: z.record(WorkflowKeySchema, ScheduleModeSchema, sepoMessages.object).optional(),
  },
  sepoMessages.object,
);

/** The effective schedule policy after merging a custom policy over the defaults. */
export interface EffectiveSchedulePolicy {
  /** Mode of workflows without an override. */
  readonly default_mode: ScheduleMode;
  /** Whether `default_mode` came from the custom policy. */
  readonly custom_default_mode: boolean;
  /** Built-in overrides with the custom ones merged over them; keys in lower case. */
  readonly workflow_overrides: Readonly<Record<string, ScheduleMode>>;
  /** Lower-cased workflow names the custom policy overrides. */
  readonly custom_overrides: readonly string[];
}

/** Result of {@link parseSchedulePolicy}. */
export type SchedulePolicyParse =
  | { readonly ok: true; readonly policy: EffectiveSchedulePolicy }
  | { readonly ok: false; readonly diagnostic: string };

/**
 * Parses AGENT_SCHEDULE_POLICY (JSON string or parsed value) and merges its workflow overrides
 * over {@link DEFAULT_SCHEDULE_WORKFLOW_OVERRIDES}. Workflow keys are lower-cased; two keys that
 * differ only in case and disagree make the policy invalid. Empty input gives the defaults.
 */
export function parseSchedulePolicy(input: unknown): SchedulePolicyParse {
  const read = readPolicyInput(input, SCHEDULE_POLICY_NAME);
  if (read.kind === 'invalid') return { ok: false, diagnostic: read.diagnostic };
  let custom: z.output<typeof SchedulePolicySchema> = {};
  if (read.kind === 'value') {
    // Sepo trims and lower-cases modes and workflow keys before checking them.
    const normalized = normalizePolicyCase(read.value, 'workflow_overrides', SCHEDULE_POLICY_NAME);
    if (!normalized.ok) return normalized;
    const result = validatePolicyValue(SchedulePolicySchema, normalized.value, SCHEDULE_POLICY_NAME);
    if (!result.ok) return { ok: false, diagnostic: result.diagnostic };
    custom = result.value;
  }
  const merged: Record<string, ScheduleMode> = { ...DEFAULT_SCHEDULE_WORKFLOW_OVERRIDES };
  const customModes = new Map<string, ScheduleMode>();
  for (const [key, mode] of Object.entries(custom.workflow_overrides ?? {})) {
    const name = key.toLowerCase();
    const previous = customModes.get(name);
    if (previous !== undefined && previous !== mode) {
      return {
        ok: false,
        diagnostic: `${SCHEDULE_POLICY_NAME}.workflow_overrides: ${JSON.stringify(name)} is given twice (differing in case) with modes "${previous}" and "${mode}"`,
      };
    }
    customModes.set(name, mode);
    merged[name] = mode;
  }
  return {
    ok: true,
    policy: {
      default_mode: custom.default_mode ?? DEFAULT_SCHEDULE_MODE,
      custom_default_mode: custom.default_mode !== undefined,
      workflow_overrides: merged,
      custom_overrides: [...customModes.keys()],
    },
  };
}

/** Where a resolved schedule mode came from. */
export type ScheduleModeSource =
  | 'workflow_override'
  | 'default_workflow_override'
  | 'default_mode'
  | 'default'
  | 'invalid';

/** Why a workflow run does or does not proceed. */
export type ScheduleReason =
  | 'paused'
  | 'not_scheduled'
  | 'always_run'
  | 'check_activity'
  | 'schedule_disabled'
  | 'invalid_policy';

/** Result of {@link resolveScheduleMode}. */
export interface ScheduleDecision {
  /** The workflow's schedule mode (`disabled` when the policy or workflow name is invalid). */
  readonly mode: ScheduleMode;
  /** Where the mode came from. */
  readonly source: ScheduleModeSource;
  /** Whether the workflow proceeds. */
  readonly run: boolean;
  /** True when it proceeds only if its activity detector finds work (`skip_no_updates` on a cron tick). */
  readonly checkActivity: boolean;
  /** Machine-readable reason. */
  readonly reason: ScheduleReason;
  /** Human-readable explanation. */
  readonly message: string;
  /** Problems found in the inputs (empty when all were valid). */
  readonly diagnostics: readonly string[];
}

/** Input of {@link resolveScheduleMode}. */
export interface ResolveScheduleModeInput {
  /** AGENT_SCHEDULE_POLICY as a JSON string or parsed value; empty/absent means the defaults. */
  readonly policy?: unknown;
  /** Workflow file name, e.g. `agent-memory-scan.yml` (compared in lower case). */
  readonly workflow: string;
  /** Triggering event (`github.event_name`); absent or blank is treated as `schedule`. */
  readonly event?: 'schedule' | 'workflow_dispatch' | (string & {}) | undefined;
  /** AGENT_ENABLED: `false` pauses every entry point; absent, blank or `true` does not; anything else pauses (fail closed). */
  readonly agentEnabled?: string | undefined;
}

/**
 * Read AGENT_ENABLED: `false` pauses every entry point; absent, blank or `true` does not;
 * anything else pauses with a diagnostic (fail closed).
 */
export function readAgentEnabled(value: string | undefined): { paused: boolean; diagnostic?: string } {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'true') return { paused: false };
  if (text === 'false') return { paused: true };
  return {
    paused: true,
    diagnostic: `AGENT_ENABLED: expected "true" or "false", got ${describeValue(value)}; treated as "false" (fail closed)`,
  };
}

function resolveMode(
  policyInput: unknown,
  workflow: string,
): { mode: ScheduleMode; source: ScheduleModeSource; diagnostic?: string } {
  const parsed = parseSchedulePolicy(policyInput);
  if (!parsed.ok) return { mode: 'disabled', source: 'invalid', diagnostic: parsed.diagnostic };
  const name = typeof workflow === 'string' ? workflow.trim().toLowerCase() : '';
  if (!WORKFLOW_FILE_PATTERN.test(name)) {
    return {
      mode: 'disabled',
      source: 'invalid',
      diagnostic: `workflow: expected a workflow file name such as "agent-memory-scan.yml", got ${describeValue(workflow)}`,
    };
  }
  const { policy } = parsed;
  if (Object.hasOwn(policy.workflow_overrides, name)) {
    const mode = policy.workflow_overrides[name];
    if (mode !== undefined) {
      return {
        mode,
        source: policy.custom_overrides.includes(name) ? 'workflow_override' : 'default_workflow_override',
      };
    }
  }
  return { mode: policy.default_mode, source: policy.custom_default_mode ? 'default_mode' : 'default' };
}

/**
 * Decides whether a workflow run proceeds. AGENT_ENABLED=false stops every event. The schedule
 * policy applies only to `schedule` events: `always_run` runs, `skip_no_updates` runs its activity
 * detector first (`checkActivity`), `disabled` skips; an invalid policy or workflow name resolves
 * to `disabled` (scheduled runs skip) with a diagnostic. The event name is compared trimmed and
 * case-insensitively (`Schedule` is `schedule`). Any other event (manual
 * `workflow_dispatch`, ...) runs regardless of the mode. Pure: reads no environment.
 */
export function resolveScheduleMode(input: ResolveScheduleModeInput): ScheduleDecision {
  const resolved = resolveMode(input.policy, input.workflow);
  const enabled = readAgentEnabled(input.agentEnabled);
  const diagnostics = [resolved.diagnostic, enabled.diagnostic].filter((d): d is string => d !== undefined);
  const base = { mode: resolved.mode, source: resolved.source, diagnostics };
  // Compared as Sepo compares policy words: trimmed and lower-cased (`Schedule` is a cron tick).
  const event = (typeof input.event === 'string' ? input.event : '').trim().toLowerCase() || 'schedule';
  if (enabled.paused) {
    return {
      ...base,
      run: false,
      checkActivity: false,
      reason: 'paused',
      message: 'AGENT_ENABLED is false: every entry point is paused',
    };
  }
  if (event !== 'schedule') {
    return {
      ...base,
      run: true,
      checkActivity: false,
      reason: 'not_scheduled',
      message: `event ${JSON.stringify(event)} is not a cron tick: the schedule policy does not apply`,
    };
  }
  if (resolved.source === 'invalid') {
    return {
      ...base,
      run: false,
      checkActivity: false,
      reason: 'invalid_policy',
      message: 'scheduled run skipped: invalid input (fail closed)',
    };
  }
  switch (resolved.mode) {
    case 'always_run':
      return {
        ...base,
        run: true,
        checkActivity: false,
        reason: 'always_run',
        message: 'always_run: runs on every cron tick',
      };
    case 'skip_no_updates':
      return {
        ...base,
        run: true,
        checkActivity: true,
        reason: 'check_activity',
        message: 'skip_no_updates: runs only if its activity detector finds work',
      };
    default:
      return {
        ...base,
        run: false,
        checkActivity: false,
        reason: 'schedule_disabled',
        message: 'disabled: cron runs are skipped',
      };
  }
}
