// Why: every model prompt is composed the same way (seed 001): the shared base, the memory
// guidance only when memory is actually available, then the route template, with `${VAR}`
// placeholders filled from the envelope, explicit variables and an allowlist of environment
// variables (so a workflow cannot inject arbitrary variables into a prompt).

import type { RuntimeEnvelope } from '../envelope/envelope.js';
import { ENVELOPE_VARIABLE_NAMES, envelopeVariables } from '../envelope/variables.js';
import { RepomemError } from '../errors.js';
import { listPlaceholders, substitutePlaceholders, VARIABLE_NAME_PATTERN } from './placeholders.js';
import { computePromptVersion } from './prompt-version.js';

/** Environment variables a prompt may use when no `envAllowlist` is given. */
export const DEFAULT_PROMPT_ENV_ALLOWLIST: readonly string[] = Object.freeze([
  'MEMORY_DIR',
  'MEMORY_REF',
  'REVIEWS_DIR',
]);

/** Text placed between composed parts: one blank line (as Sepo's `_base.md` + "\n\n" + template). */
export const PROMPT_PART_SEPARATOR = '\n\n';

/** Variable always set from `memoryAvailable` (`"true"` or `"false"`). */
export const MEMORY_AVAILABLE_VARIABLE = 'MEMORY_AVAILABLE';

/** Input of {@link renderPrompt}. */
export interface RenderPromptInput {
  /** Shared base prompt (`_base.md`). */
  readonly base: string;
  /** Memory guidance (`_memory.md`), included only when `memoryAvailable` is `true` or `"true"`. */
  readonly memoryFragment?: string | undefined;
  /** Route template. */
  readonly template: string;
  /** MEMORY_AVAILABLE: only exactly `true` or `"true"` includes the memory fragment. */
  readonly memoryAvailable: string | boolean;
  /** The run's envelope; provides REPO_SLUG, TARGET_NUMBER, REQUEST_TEXT... (see `envelopeVariables`). */
  readonly envelope?: RuntimeEnvelope | undefined;
  /** Explicit variables; they take precedence over envelope and environment values. */
  readonly variables?: Readonly<Record<string, string>> | undefined;
  /** Environment to read allowlisted variables from (pass `process.env` explicitly; nothing is read implicitly). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Names that may be read from `env` (replaces {@link DEFAULT_PROMPT_ENV_ALLOWLIST}). */
  readonly envAllowlist?: readonly string[] | undefined;
  /** When true, any unresolved placeholder throws `UNRESOLVED_PLACEHOLDER`. */
  readonly strict?: boolean | undefined;
}

/** Result of {@link renderPrompt}. */
export interface RenderedPrompt {
  /** The composed, substituted prompt. */
  readonly text: string;
  /** Distinct placeholder names left as `${NAME}` because no value was available. */
  readonly unresolved: string[];
  /** `sha256:<hex>` identifying the prompt (not the run); see {@link renderPrompt}. */
  readonly promptVersion: `sha256:${string}`;
}

function requireString(value: unknown, name: string): string {
  if (typeof value !== 'string') {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `renderPrompt: ${name} must be a string, got ${value === null ? 'null' : typeof value}`,
    );
  }
  return value;
}

function requireVariableName(name: string, where: string): void {
  if (!VARIABLE_NAME_PATTERN.test(name)) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `renderPrompt: ${where} name ${JSON.stringify(name)} is not a variable name (letters, digits and "_", not starting with a digit)`,
    );
  }
}

const PER_RUN_NAMES: ReadonlySet<string> = new Set<string>(ENVELOPE_VARIABLE_NAMES);

function isVersionedVariable(name: string): boolean {
  return !PER_RUN_NAMES.has(name) && !name.startsWith('MEMORY_');
}

/**
 * Renders a prompt.
 *
 * Composition: `base`, then `memoryFragment` when `memoryAvailable` is exactly `true` or `"true"`,
 * then `template`, joined with {@link PROMPT_PART_SEPARATOR} (a blank line); empty parts are
 * skipped and nothing is trimmed.
 *
 * Variables, lowest to highest precedence: allowlisted `env` entries that are defined (empty
 * strings count); envelope variables; explicit `variables`; then `MEMORY_AVAILABLE`, always
 * `"true"`/`"false"` from `memoryAvailable`. A non-allowlisted environment variable is never
 * read, so its placeholder stays unresolved.
 *
 * Substitution: one pass over the composed text (memory fragment included); a substituted value
 * is never re-expanded. Unresolved placeholders stay as `${NAME}` and are listed; with `strict`
 * they throw.
 *
 * Prompt version: `sha256:` + SHA-256 over (scheme tag, `base`, `template`, and the explicit
 * `variables` that `base` or `template` reference), before substitution. Excluded, so the version
 * identifies the prompt rather than the run: the memory fragment, `memoryAvailable` and every
 * `MEMORY_*` variable (the version is the same with memory on or off); envelope variables
 * (request text, target, requester, thread key... even when passed explicitly); environment
 * values (runner paths). See `computePromptVersion` for the exact encoding.
 *
 * @throws RepomemError `UNRESOLVED_PLACEHOLDER` (strict mode; `details.unresolved` lists names),
 *   `INVALID_ARGUMENT` for non-string parts or values, or invalid variable names.
 */
export function renderPrompt(input: RenderPromptInput): RenderedPrompt {
  const base = requireString(input.base, 'base');
  const template = requireString(input.template, 'template');
  const memoryFragment =
    input.memoryFragment === undefined ? '' : requireString(input.memoryFragment, 'memoryFragment');
  const memoryOn = input.memoryAvailable === true || input.memoryAvailable === 'true';

  const values = new Map<string, string>();
  const allowlist = input.envAllowlist ?? DEFAULT_PROMPT_ENV_ALLOWLIST;
  for (const name of allowlist) {
    requireVariableName(name, 'envAllowlist');
    const value = input.env !== undefined && Object.hasOwn(input.env, name) ? input.env[name] : undefined;
    if (value !== undefined) values.set(name, requireString(value, `env.${name}`));
  }
  if (input.envelope !== undefined) {
    for (const [name, value] of Object.entries(envelopeVariables(input.envelope))) values.set(name, value);
  }
  const explicit = input.variables ?? {};
  for (const [name, value] of Object.entries(explicit)) {
    requireVariableName(name, 'variables');
    values.set(name, requireString(value, `variables.${name}`));
  }
  values.set(MEMORY_AVAILABLE_VARIABLE, memoryOn ? 'true' : 'false');

  const parts = [base, memoryOn ? memoryFragment : '', template].filter((part) => part !== '');
  const { text, unresolved } = substitutePlaceholders(parts.join(PROMPT_PART_SEPARATOR), values);
  if (input.strict === true && unresolved.length > 0) {
    throw new RepomemError(
      'UNRESOLVED_PLACEHOLDER',
      `unresolved prompt placeholders: ${unresolved.map((name) => `\${${name}}`).join(', ')}`,
      { details: { unresolved } },
    );
  }

  const referenced = new Set([...listPlaceholders(base), ...listPlaceholders(template)]);
  const versioned: Record<string, string> = {};
  for (const [name, value] of Object.entries(explicit)) {
    if (referenced.has(name) && isVersionedVariable(name)) versioned[name] = value;
  }
  return { text, unresolved, promptVersion: computePromptVersion({ base, template, variables: versioned }) };
}
