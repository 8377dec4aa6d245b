// Why: every boundary in this area (envelope, thread key, policies, state JSON) reports bad input
// the same way: a list of `{ path, message }` where the message names the field and the problem
// ("target_number: expected an integer, got string \"3\""). This module turns zod issues into
// that shape and renders offending values readably.
import type { z } from 'zod';

/** One problem found while validating outside data. */
export interface ValidationIssue {
  /** Dotted path of the offending field (`''` for the value as a whole), e.g. `target_number`. */
  readonly path: string;
  /** Human message that starts with the field name, e.g. `target_number: expected an integer, got string "3"`. */
  readonly message: string;
}

const MAX_SHOWN_CHARS = 80;

/**
 * Describes a value for an error message: its JSON type and (for scalars) its value, e.g.
 * `string "3"`, `number 3.5`, `null`, `array`, `object`. Long strings are truncated.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    const shown = value.length > MAX_SHOWN_CHARS ? `${value.slice(0, MAX_SHOWN_CHARS)}…` : value;
    return `string ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return `${typeof value} ${String(value)}`;
  }
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * A zod `error` option that renders `expected <what>, got <value>` (or `required field is
 * missing` when the field is absent). Field names are prefixed later by {@link toValidationIssues}.
 */
export function expected(what: string): { error: (issue: { input?: unknown }) => string } {
  return {
    error: (issue) =>
      issue.input === undefined ? 'required field is missing' : `expected ${what}, got ${describeValue(issue.input)}`,
  };
}

/**
 * A zod `error` function for object schemas: renders `expected an object, got <value>` when the
 * value is not an object and defers to the default message otherwise.
 */
export function objectExpected(issue: { code?: string; input?: unknown }): string | undefined {
  if (issue.code !== 'invalid_type') return undefined;
  return issue.input === undefined
    ? 'required field is missing'
    : `expected an object, got ${describeValue(issue.input)}`;
}

/** Joins a zod path into the dotted form used by {@link ValidationIssue.path} (`a.b[2].c`). */
export function joinPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/**
 * Converts zod issues into {@link ValidationIssue}s. `root` names the value as a whole (used for
 * root-level problems and unknown keys), e.g. `envelope`. Unknown keys become one issue per key.
 */
export function toValidationIssues(issues: readonly z.core.$ZodIssue[], root: string): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    const base = joinPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = base === '' ? key : `${base}.${key}`;
        out.push({ path, message: `${path}: unknown field (not part of the ${root} schema)` });
      }
      continue;
    }
    if (issue.code === 'invalid_key') {
      const inner = issue.issues[0]?.message ?? 'invalid key';
      out.push({ path: base, message: `${base === '' ? root : base}: invalid key: ${inner}` });
      continue;
    }
    out.push({ path: base, message: `${base === '' ? root : base}: ${issue.message}` });
  }
  return out;
}

/**
 * Like {@link toValidationIssues}, but every path and message is prefixed with `root`
 * (`AGENT_MEMORY_POLICY.route_overrides.review: ...`), for values nested in a named container.
 */
export function toRootedIssues(issues: readonly z.core.$ZodIssue[], root: string): ValidationIssue[] {
  return toValidationIssues(issues, root).map((issue) =>
    issue.path === ''
      ? { path: root, message: issue.message }
      : { path: `${root}.${issue.path}`, message: `${root}.${issue.message}` },
  );
}

/** Formats issues as one line each, for error messages and diagnostics. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => issue.message).join('; ');
}
