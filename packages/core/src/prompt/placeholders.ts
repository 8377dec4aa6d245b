// Why: prompt templates use `${VAR}` placeholders. Substitution is a single left-to-right pass
// over the template, so a value that itself contains `${X}` (a user's request text, say) is
// inserted verbatim and never expanded: request text cannot pull other variables into a prompt.

/** Pattern of a variable name: a letter or `_`, then letters, digits or `_` (as in shells). */
export const VARIABLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Distinct placeholder names in `text`, in order of first appearance. `${1}` or `${a-b}` are not placeholders. */
export function listPlaceholders(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) names.add(match[1] ?? '');
  return [...names];
}

/** Result of {@link substitutePlaceholders}. */
export interface Substitution {
  /** The text with every known placeholder replaced. */
  readonly text: string;
  /** Distinct names with no value, left in the text as `${NAME}`, in order of first appearance. */
  readonly unresolved: string[];
}

/**
 * Replaces every `${NAME}` whose name is in `variables` with its value, in one pass: replaced
 * values are never scanned again. Placeholders without a value are left as they are and listed.
 */
export function substitutePlaceholders(text: string, variables: ReadonlyMap<string, string>): Substitution {
  const unresolved = new Set<string>();
  const out = text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = variables.get(name);
    if (value === undefined) {
      unresolved.add(name);
      return whole;
    }
    return value;
  });
  return { text: out, unresolved: [...unresolved] };
}
