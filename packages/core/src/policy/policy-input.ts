// Why: policies arrive as repository variables (JSON strings, often empty) or as already-parsed
// objects. Reading them the same way everywhere keeps "empty means default" and "malformed JSON
// fails closed" identical for the memory and schedule policies.
import type { z } from 'zod';
import { describeValue, formatIssues, toRootedIssues } from '../envelope/validation-issues.js';

/** What a policy input turned out to be. */
export type PolicyInput =
  | { readonly kind: 'empty' }
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'invalid'; readonly diagnostic: string };

/**
 * Reads a policy given as a JSON string or an already-parsed value. `undefined`, `null` and
 * blank strings are `empty` (use the defaults); a string that is not JSON is `invalid`.
 */
export function readPolicyInput(input: unknown, name: string): PolicyInput {
  if (input === undefined || input === null) return { kind: 'empty' };
  if (typeof input !== 'string') return { kind: 'value', value: input };
  const text = input.trim();
  if (text === '') return { kind: 'empty' };
  try {
    return { kind: 'value', value: JSON.parse(text) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { kind: 'invalid', diagnostic: `${name}: invalid JSON (${reason})` };
  }
}

/**
 * Validates a parsed policy value, returning the data or one diagnostic line naming every problem.
 * Messages written as Sepo words them (`must be one of …`, `must be an object …`) follow their
 * field without a colon, so Sepo's phrases (`default_mode must be one of`) appear verbatim.
 */
export function validatePolicyValue<T>(
  schema: z.ZodType<T>,
  value: unknown,
  name: string,
): { ok: true; value: T } | { ok: false; diagnostic: string } {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  const issues = toRootedIssues(result.error.issues, name).map((issue) => ({
    ...issue,
    message: issue.message.replace(/: must be /, ' must be '),
  }));
  return { ok: false, diagnostic: formatIssues(issues) };
}

/**
 * Zod `error` options that word problems as Sepo does, so its phrases appear in repomem's
 * diagnostics (see {@link validatePolicyValue}): `must be one of a, b, c (got …)`,
 * `must be an object (got …)`, and `<Sepo's invalid-key phrase>: <key> (expected …)`.
 */
export const sepoMessages = {
  /** For a mode enum: `must be one of enabled, read-only, disabled (got string "rw")`. */
  mode(modes: readonly string[]): { error: (issue: { input?: unknown }) => string } {
    return {
      error: (issue) =>
        issue.input === undefined
          ? 'required field is missing'
          : `must be one of ${modes.join(', ')} (got ${describeValue(issue.input)})`,
    };
  },
  /** For an object or record: `must be an object (got array)`. */
  object: {
    error: (issue: { code?: string; input?: unknown }): string | undefined => {
      if (issue.code !== 'invalid_type') return undefined;
      return issue.input === undefined
        ? 'required field is missing'
        : `must be an object (got ${describeValue(issue.input)})`;
    },
  },
  /** For a record key: `<phrase>: <key> (expected <what>)`. */
  key(phrase: string, what: string): { error: (issue: { input?: unknown }) => string } {
    return { error: (issue) => `${phrase}: ${String(issue.input ?? 'missing')} (expected ${what})` };
  },
};

/** A mode or key as Sepo compares it: trimmed and lower-cased (other values are left alone). */
function sepoCase(value: unknown): unknown {
  return typeof value === 'string' ? value.trim().toLowerCase() : value;
}

/**
 * Sepo reads a policy case-insensitively: `default_mode`, the override keys and their modes are
 * trimmed and lower-cased before validation (`{"route_overrides":{"REVIEW":"Read-Only"}}` means
 * `{"review":"read-only"}`). This does the same to a parsed policy value, so a policy Sepo
 * accepts means the same here; anything still invalid afterwards fails validation (closed).
 * Two keys that become equal but give different modes are a conflict (returned as a diagnostic).
 */
export function normalizePolicyCase(
  value: unknown,
  overridesKey: string,
  name: string,
): { ok: true; value: unknown } | { ok: false; diagnostic: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: true, value };
  const entries: [string, unknown][] = [];
  for (const [key, field] of Object.entries(value)) {
    if (key === 'default_mode') {
      entries.push([key, sepoCase(field)]);
      continue;
    }
    if (key !== overridesKey || field === null || typeof field !== 'object' || Array.isArray(field)) {
      entries.push([key, field]);
      continue;
    }
    const seen = new Map<string, unknown>();
    for (const [overrideKey, mode] of Object.entries(field)) {
      const normalizedKey = overrideKey.trim().toLowerCase();
      // A `__proto__` key would be dropped without a word by the record validation (it assigns
      // keys to a plain object, where `__proto__` sets the prototype), so it is refused here.
      if (normalizedKey === '__proto__') {
        return {
          ok: false,
          diagnostic: `${name}.${overridesKey}: ${JSON.stringify(overrideKey)} is not an allowed key (reserved by JavaScript)`,
        };
      }
      const normalizedMode = sepoCase(mode);
      if (seen.has(normalizedKey) && seen.get(normalizedKey) !== normalizedMode) {
        return {
          ok: false,
          diagnostic: `${name}.${overridesKey}: ${JSON.stringify(normalizedKey)} is given twice (differing in case) with modes ${describeValue(seen.get(normalizedKey))} and ${describeValue(normalizedMode)}`,
        };
      }
      seen.set(normalizedKey, normalizedMode);
    }
    // Object.fromEntries defines own properties, so a `__proto__` key stays data.
    entries.push([key, Object.fromEntries(seen)]);
  }
  return { ok: true, value: Object.fromEntries(entries) };
}

/**
 * Reads an optional single-value override (a mode name from a workflow input). Absent, `null`
 * and blank strings mean "no override"; strings are trimmed.
 */
export function readOverride(
  input: unknown,
): { kind: 'none' } | { kind: 'value'; value: string } | { kind: 'invalid'; got: string } {
  if (input === undefined || input === null) return { kind: 'none' };
  if (typeof input !== 'string') return { kind: 'invalid', got: describeValue(input) };
  const value = input.trim();
  return value === '' ? { kind: 'none' } : { kind: 'value', value };
}
