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

/** Validates a parsed policy value, returning the data or one diagnostic line naming every problem. */
export function validatePolicyValue<T>(
  schema: z.ZodType<T>,
  value: unknown,
  name: string,
): { ok: true; value: T } | { ok: false; diagnostic: string } {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  const issues = toRootedIssues(result.error.issues, name);
  return { ok: false, diagnostic: formatIssues(issues) };
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
