// Why: a state key becomes one git ref under `refs/agent-memory-state/`, where Sepo keeps its
// sync and scan cursors, so `sync` and `scan` ARE Sepo's refs. Keys may nest (`sync/a` and
// `sync/a/deep` both exist), which git cannot hold as refs (a ref cannot also be a folder), so a
// key is one ref name component: `%` -> `%25` and `/` -> `%2F` (Sepo's thread-key escaping),
// plus the two endings git refuses (`.` -> `%2E` at the end, the key `@` -> `%40`).
import { gitRefComponentProblem, normalizeStateKey, stateKeyProblem } from '@repomem/core';

/** Prefix of the refs that hold state values (`refs/agent-memory-state/sync` is the key `sync`). */
export const STATE_KEY_REF_PREFIX = 'refs/agent-memory-state/';

/** The ref name component of a valid state key (see the module comment for the escaping). */
export function encodeStateKey(key: string): string {
  let encoded = key.replaceAll('%', '%25').replaceAll('/', '%2F');
  if (encoded === '@') encoded = '%40';
  if (encoded.endsWith('.')) encoded = `${encoded.slice(0, -1)}%2E`;
  return encoded;
}

/** The ref holding state `key`. Throws `INVALID_ARGUMENT` for an invalid key (core's rules). */
export function stateKeyRef(key: string): string {
  return `${STATE_KEY_REF_PREFIX}${encodeStateKey(normalizeStateKey(key))}`;
}

const ESCAPES: Readonly<Record<string, string>> = { '%25': '%', '%2F': '/', '%2E': '.', '%40': '@' };

/**
 * The state key a ref under {@link STATE_KEY_REF_PREFIX} holds, or `undefined` when no key
 * encodes to it (a nested ref, a foreign name, a non-canonical escape): such refs are not state
 * values of this store and are left alone.
 */
export function stateKeyOfRef(ref: string): string | undefined {
  if (!ref.startsWith(STATE_KEY_REF_PREFIX)) return undefined;
  const component = ref.slice(STATE_KEY_REF_PREFIX.length);
  if (gitRefComponentProblem(component) !== undefined) return undefined;
  let invalid = false;
  const key = component.replace(/%[0-9A-Fa-f]{2}|%/g, (sequence) => {
    const decoded = ESCAPES[sequence];
    if (decoded === undefined) invalid = true;
    return decoded ?? sequence;
  });
  if (invalid || stateKeyProblem(key) !== undefined || encodeStateKey(key) !== component) return undefined;
  return key;
}
