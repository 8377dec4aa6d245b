// Why: thread state is stored under `refs/agent-state/<encoded thread key>`, byte-compatible with
// Sepo's refs. Encoding validates the key first (so only keys that read back unambiguously get
// a ref); decoding parses by field structure and refuses anything that is not exactly one key.
import {
  escapeThreadKey,
  parseThreadKey,
  RepomemError,
  readingsOfEncodedThreadKey,
  type ThreadKey,
  type ThreadKeyParts,
} from '@repomem/core';

/** `repo:target_kind:target_number:route:lane` from fields, without validating them. */
function joinThreadKey(parts: ThreadKeyParts): string {
  return `${parts.repo_slug}:${parts.target_kind}:${parts.target_number}:${parts.route}:${parts.lane}`;
}

/** Prefix of every thread state ref. */
export const THREAD_STATE_REF_PREFIX = 'refs/agent-state/';

/**
 * Encodes a thread key as one git ref name component exactly as Sepo does: `%`->`%25`,
 * `/`->`%2F`, `:`->`--` (so `o/r:issue:42:implement:default` becomes
 * `o%2Fr--issue--42--implement--default`).
 *
 * Reversibility: valid field values contain no `:` and only the slug's one `/`, and a `%` (allowed
 * in the repository part, as Sepo round-trips it: `org/%2F:issue:1:r:l` is `org%2F%252F--issue--1--r--l`)
 * is always `%25`, so the only doubt when decoding is which `--` are separators. The key is validated first and refused when
 * its encoding has more than one valid reading (in practice: a route or lane containing `--`, or
 * a repository name containing `--<target_kind>--<number>--`) or is not a valid ref component
 * (for example a name containing `..` or a lane ending in `.lock`). Repository names such as
 * `a--b` are fine. Every key this accepts decodes back to itself with {@link decodeThreadKeyFromRef}.
 * @throws RepomemError `INVALID_ARGUMENT` when the key is invalid or not storable.
 */
export function encodeThreadKeyForRef(key: ThreadKey | ThreadKeyParts): string {
  const parts = typeof key === 'string' ? parseThreadKey(key) : parseThreadKey(joinThreadKey(key));
  return escapeThreadKey(joinThreadKey(parts));
}

/**
 * Decodes a ref component made by {@link encodeThreadKeyForRef} (a full `refs/agent-state/...`
 * ref is accepted too) by parsing its field structure.
 * @throws RepomemError `INVALID_ARGUMENT` when it is not the encoding of exactly one valid key.
 */
export function decodeThreadKeyFromRef(encoded: string): ThreadKey {
  const component = encoded.startsWith(THREAD_STATE_REF_PREFIX)
    ? encoded.slice(THREAD_STATE_REF_PREFIX.length)
    : encoded;
  const readings = readingsOfEncodedThreadKey(component).map(joinThreadKey);
  if (readings.length === 0) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `not an encoded thread key: ${JSON.stringify(component)} (expected owner%2Frepo--target_kind--number--route--lane)`,
    );
  }
  if (readings.length > 1) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `ambiguous encoded thread key ${JSON.stringify(component)}: reads as ${readings.map((r) => JSON.stringify(r)).join(', ')}`,
      { details: { readings } },
    );
  }
  const key = readings[0] ?? '';
  // A single reading is also required to be a storable key (valid ref component, canonical form).
  parseThreadKey(key);
  if (escapeThreadKey(key) !== component) {
    throw new RepomemError('INVALID_ARGUMENT', `not a canonical encoded thread key: ${JSON.stringify(component)}`);
  }
  return key;
}

/** The full ref holding a thread's state: `refs/agent-state/<encoded key>`. */
export function threadStateRef(key: ThreadKey | ThreadKeyParts): string {
  return `${THREAD_STATE_REF_PREFIX}${encodeThreadKeyForRef(key)}`;
}
