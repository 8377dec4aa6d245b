// Why: AGENT_MEMORY_POLICY decides, per route, whether a run may read and write repository
// memory. It is outside data, so it fails closed: malformed JSON, a wrong shape, an unknown mode,
// a bad route key or an invalid override all resolve to `disabled` with a diagnostic, never to
// write access (Sepo's weakness 8 let an invalid override fall back to `enabled`).
import { z } from 'zod';
import { isRouteName, ROUTE_PATTERN } from '../envelope/fields.js';
import { describeValue } from '../envelope/validation-issues.js';
import {
  normalizePolicyCase,
  readOverride,
  readPolicyInput,
  sepoMessages,
  validatePolicyValue,
} from './policy-input.js';

/** Memory access mode for a run: `enabled` (read+write), `read-only`, or `disabled`. */
export type MemoryMode = 'enabled' | 'read-only' | 'disabled';

/** All memory modes. */
export const MEMORY_MODES = ['enabled', 'read-only', 'disabled'] as const satisfies readonly MemoryMode[];

/** Mode used when no policy is set. */
export const DEFAULT_MEMORY_MODE: MemoryMode = 'enabled';

/** Name of the repository variable holding the memory policy (used in diagnostics). */
export const MEMORY_POLICY_NAME = 'AGENT_MEMORY_POLICY';

/** Zod schema of a memory mode (exact, lower case: {@link parseMemoryPolicy} lower-cases first, as Sepo does). */
export const MemoryModeSchema = z.enum(MEMORY_MODES, sepoMessages.mode(MEMORY_MODES));

/**
 * Zod schema of the AGENT_MEMORY_POLICY JSON: `{ default_mode?, route_overrides?: { route: mode } }`;
 * unknown keys are rejected. Messages carry Sepo's phrases (`default_mode must be one of`,
 * `Invalid route override key in memory policy`, `route_overrides must be an object`).
 */
export const MemoryPolicySchema = z.strictObject(
  {
    default_mode: MemoryModeSchema.optional(),
    route_overrides: z
      .record(
        z
          .string()
          .regex(
            ROUTE_PATTERN,
            sepoMessages.key(
              'Invalid route override key in memory policy',
              'a route key matching ^[a-z0-9][a-z0-9._-]*$',
            ),
          ),
        MemoryModeSchema,
        sepoMessages.object,
      )
      .optional(),
  },
  sepoMessages.object,
);

/** A validated memory policy. */
export type MemoryPolicy = z.output<typeof MemoryPolicySchema>;

/** True when `value` is exactly one of the memory modes. */
export function isMemoryMode(value: unknown): value is MemoryMode {
  return typeof value === 'string' && (MEMORY_MODES as readonly string[]).includes(value);
}

/** Result of {@link parseMemoryPolicy}. */
export type MemoryPolicyParse =
  | { readonly ok: true; readonly policy: MemoryPolicy }
  | { readonly ok: false; readonly diagnostic: string };

/**
 * Parses AGENT_MEMORY_POLICY (a JSON string or a parsed value). Empty input is the empty policy
 * (everything `enabled`). Like Sepo, `default_mode`, route keys and modes are trimmed and
 * lower-cased first (`{"route_overrides":{"REVIEW":"Read-Only"}}` is `{"review":"read-only"}`).
 * The diagnostic names every problem, e.g.
 * `AGENT_MEMORY_POLICY.route_overrides.review must be one of enabled, read-only, disabled (got string "rw")`.
 */
export function parseMemoryPolicy(input: unknown): MemoryPolicyParse {
  const read = readPolicyInput(input, MEMORY_POLICY_NAME);
  if (read.kind === 'empty') return { ok: true, policy: {} };
  if (read.kind === 'invalid') return { ok: false, diagnostic: read.diagnostic };
  const normalized = normalizePolicyCase(read.value, 'route_overrides', MEMORY_POLICY_NAME);
  if (!normalized.ok) return normalized;
  const result = validatePolicyValue(MemoryPolicySchema, normalized.value, MEMORY_POLICY_NAME);
  return result.ok ? { ok: true, policy: result.value } : { ok: false, diagnostic: result.diagnostic };
}

/** Where a resolved memory mode came from. */
export type MemoryModeSource = 'override' | 'route_override' | 'default_mode' | 'default' | 'invalid';

/** Result of {@link resolveMemoryMode}. */
export interface MemoryModeResolution {
  /** The mode the run gets. */
  readonly mode: MemoryMode;
  /** Where it came from; `invalid` means some input was invalid and the mode is `disabled`. */
  readonly source: MemoryModeSource;
  /** Human-readable problems found (empty when every input was valid). */
  readonly diagnostics: readonly string[];
}

/** Input of {@link resolveMemoryMode}. */
export interface ResolveMemoryModeInput {
  /** AGENT_MEMORY_POLICY as a JSON string or parsed value; empty/absent means everything `enabled`. */
  readonly policy?: unknown;
  /** The run's route. */
  readonly route: string;
  /** `memory_mode_override`: when set (non-blank) it bypasses the policy; an invalid value resolves to `disabled`. */
  readonly override?: unknown;
}

const DISABLED_SUFFIX = 'memory disabled (fail closed)';

/**
 * Resolves the memory mode for a run. Order: a non-blank `override` wins (an invalid one gives
 * `disabled`); otherwise the policy's `route_overrides[route]`, then its `default_mode`, then
 * `enabled`. Invalid policy JSON, shape, mode or route key, or an invalid route, give `disabled`.
 * As in Sepo, the route, the override and the policy's keys and modes are compared trimmed and
 * in lower case (`REVIEW`, `Read-Only`). Pure: reads no environment.
 */
export function resolveMemoryMode(input: ResolveMemoryModeInput): MemoryModeResolution {
  const parsed = parseMemoryPolicy(input.policy);
  const override = lowerCased(readOverride(input.override));
  const route = typeof input.route === 'string' ? input.route.trim().toLowerCase() : input.route;
  if (override.kind === 'invalid' || (override.kind === 'value' && !isMemoryMode(override.value))) {
    const got = override.kind === 'invalid' ? override.got : describeValue(override.value);
    return {
      mode: 'disabled',
      source: 'invalid',
      diagnostics: [
        `memory_mode_override: expected one of "enabled", "read-only", "disabled", got ${got}; ${DISABLED_SUFFIX}`,
      ],
    };
  }
  if (override.kind === 'value' && isMemoryMode(override.value)) {
    const ignored = parsed.ok ? [] : [`${parsed.diagnostic} (ignored: memory_mode_override applies)`];
    return { mode: override.value, source: 'override', diagnostics: ignored };
  }
  if (!parsed.ok)
    return { mode: 'disabled', source: 'invalid', diagnostics: [`${parsed.diagnostic}; ${DISABLED_SUFFIX}`] };
  if (!isRouteName(route)) {
    return {
      mode: 'disabled',
      source: 'invalid',
      diagnostics: [
        `route: expected a route name matching ^[a-z0-9][a-z0-9._-]*$, got ${describeValue(input.route)}; ${DISABLED_SUFFIX}`,
      ],
    };
  }
  const overrides = parsed.policy.route_overrides;
  if (overrides !== undefined && Object.hasOwn(overrides, route)) {
    const mode = overrides[route];
    if (mode !== undefined) return { mode, source: 'route_override', diagnostics: [] };
  }
  if (parsed.policy.default_mode !== undefined) {
    return { mode: parsed.policy.default_mode, source: 'default_mode', diagnostics: [] };
  }
  return { mode: DEFAULT_MEMORY_MODE, source: 'default', diagnostics: [] };
}

function lowerCased(override: ReturnType<typeof readOverride>): ReturnType<typeof readOverride> {
  return override.kind === 'value' ? { kind: 'value', value: override.value.toLowerCase() } : override;
}

/** True only for `enabled`: the run may commit memory edits. Anything else (including junk) is false. */
export function canWrite(mode: MemoryMode): boolean {
  return mode === 'enabled';
}

/** True for `enabled` and `read-only`: the run may mount and read memory. Anything else is false. */
export function canRead(mode: MemoryMode): boolean {
  return mode === 'enabled' || mode === 'read-only';
}
