// Why: thread state lives at `refs/agent-state/<encoded key>` with Sepo's encoding (`%`->`%25`,
// `/`->`%2F`, `:`->`--`). That encoding is not injective in general (`--` may also occur inside
// a repo name, route or lane), so this module decodes by field structure: it enumerates every
// reading of an encoded key whose fields are valid. A key is storable only when its encoding
// has exactly one reading and is a valid git ref name component.
import { TARGET_KINDS } from './fields.js';
import { areValidThreadKeyFields, joinThreadKey, type ThreadKeyParts } from './thread-key-fields.js';

const ENCODED_SLASH = '%2F';

/** Applies Sepo's ref-safe escaping to a thread key: `%`->`%25`, `/`->`%2F`, `:`->`--`. */
export function escapeThreadKey(key: string): string {
  return key.replaceAll('%', '%25').replaceAll('/', ENCODED_SLASH).replaceAll(':', '--');
}

function indexesOf(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) out.push(at);
  return out;
}

const NUMBER_THEN_SEPARATOR = /^(0|[1-9][0-9]*)--/;

/** Undo the `%`->`%25` escape of one field; `undefined` when a `%` is not followed by `25`. */
function unescapePercent(text: string): string | undefined {
  if (!text.includes('%')) return text;
  if (/%(?!25)/.test(text)) return undefined;
  return text.replaceAll('%25', '%');
}

/**
 * Every way to read `encoded` as an escaped thread key whose fields are all valid (repo slug,
 * target kind, canonical target number with the per-kind rule, route, lane). Valid field values
 * never contain `:` or `/` (beyond the slug's one `/`), and a `%` (possible in the repository,
 * as Sepo allows) is always escaped as `%25`, so the first `%2F` is the slug's `/` and only the
 * `--` separators are uncertain; this enumerates them. An empty result means `encoded` is not an
 * encoded key.
 */
export function readingsOfEncodedThreadKey(encoded: string): ThreadKeyParts[] {
  const slash = encoded.indexOf(ENCODED_SLASH);
  if (slash <= 0) return [];
  const owner = unescapePercent(encoded.slice(0, slash));
  if (owner === undefined) return [];
  const rest = encoded.slice(slash + ENCODED_SLASH.length);
  const readings: ThreadKeyParts[] = [];
  for (const at of indexesOf(rest, '--')) {
    const repoName = unescapePercent(rest.slice(0, at));
    if (repoName === undefined) continue;
    for (const kind of TARGET_KINDS) {
      const kindToken = `--${kind}--`;
      if (!rest.startsWith(kindToken, at)) continue;
      const afterKind = rest.slice(at + kindToken.length);
      const numberMatch = NUMBER_THEN_SEPARATOR.exec(afterKind);
      if (numberMatch === null) continue;
      const numberText = numberMatch[1] ?? '';
      const tail = afterKind.slice(numberMatch[0].length);
      for (const split of indexesOf(tail, '--')) {
        const parts: ThreadKeyParts = {
          repo_slug: `${owner}/${repoName}`,
          target_kind: kind,
          target_number: Number(numberText),
          route: tail.slice(0, split),
          lane: tail.slice(split + 2),
        };
        if (String(parts.target_number) === numberText && areValidThreadKeyFields(parts)) readings.push(parts);
      }
    }
  }
  return readings;
}

const FORBIDDEN_REF_CHARS = /[\u0000-\u0020\u007f~^:?*[\\]/;

/**
 * Returns why `component` is not a valid single component of a git ref name (the rules of
 * `git check-ref-format`), or `undefined` when it is valid: non-empty, no `/`, no control
 * characters, space, `~ ^ : ? * [ \`, no `..`, no `@{`, not `@`, does not start with `.`, does not
 * end with `.` or `.lock`.
 */
export function gitRefComponentProblem(component: string): string | undefined {
  if (component === '') return 'is empty';
  if (component.includes('/')) return 'contains "/"';
  if (FORBIDDEN_REF_CHARS.test(component)) return 'contains a control character, space or one of ~ ^ : ? * [ \\';
  if (component.includes('..')) return 'contains ".."';
  if (component.includes('@{')) return 'contains "@{"';
  if (component === '@') return 'is "@"';
  if (component.startsWith('.')) return 'starts with "."';
  if (component.endsWith('.')) return 'ends with "."';
  if (component.endsWith('.lock')) return 'ends with ".lock"';
  return undefined;
}

/**
 * Returns why the thread key made of `parts` (whose fields are already valid) cannot be stored
 * as a git ref, or `undefined` when it can: its encoding must be a valid ref component and must
 * read back as exactly this key.
 */
export function refEncodingProblem(parts: ThreadKeyParts): string | undefined {
  const key = joinThreadKey(parts);
  const encoded = escapeThreadKey(key);
  const refProblem = gitRefComponentProblem(encoded);
  if (refProblem !== undefined) {
    return `${JSON.stringify(key)} cannot be stored as a git ref: its encoding ${JSON.stringify(encoded)} ${refProblem}`;
  }
  const others = readingsOfEncodedThreadKey(encoded)
    .map(joinThreadKey)
    .filter((reading) => reading !== key);
  if (others.length > 0) {
    return (
      `${JSON.stringify(key)} cannot be stored as a git ref: its encoding ${JSON.stringify(encoded)} also reads as ` +
      `${others.map((other) => JSON.stringify(other)).join(', ')} (a "--" inside a route, lane or repository name is ambiguous there)`
    );
  }
  return undefined;
}
