// Why: a prompt version lets episodes and evaluations say which prompt produced an outcome. It
// must identify the prompt, not the run: it hashes what the prompt author controls and leaves out
// memory (so turning memory on or off keeps the version) and per-run data (request, target...).
import { createHash } from 'node:crypto';

/** Tag hashed first, so a change to the hashing scheme changes every version. */
export const PROMPT_VERSION_SCHEME = 'repomem-prompt-version/1';

/** What a prompt version is computed from. */
export interface PromptVersionInput {
  /** Shared base prompt, before substitution. */
  readonly base: string;
  /** Route template, before substitution. */
  readonly template: string;
  /** Configuration variables referenced by base or template (name -> value); order does not matter. */
  readonly variables: Readonly<Record<string, string>>;
}

/**
 * `sha256:` + hex SHA-256 of the JSON array `[scheme, base, template, [[name, value], ...]]`,
 * variables sorted by name (code-unit order). Deterministic across platforms and runs.
 */
export function computePromptVersion(input: PromptVersionInput): `sha256:${string}` {
  const variables = Object.entries(input.variables).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const canonical = JSON.stringify([PROMPT_VERSION_SCHEME, input.base, input.template, variables]);
  return `sha256:${createHash('sha256').update(canonical, 'utf8').digest('hex')}`;
}
