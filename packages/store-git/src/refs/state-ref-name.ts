// Why: callers (and the CLI's `--ref sync|scan|thread:<key>`) name a state ref in one short
// form; this maps it to the exact ref Sepo uses, validating a thread key before it can become a
// path under refs/, and fails with a message that names the accepted forms.
import {
  MEMORY_SCAN_STATE_REF,
  MEMORY_SYNC_STATE_REF,
  parseThreadKey,
  RepomemError,
  type ThreadKeyParts,
} from '@repomem/core';
import { decodeThreadKeyFromRef, THREAD_STATE_REF_PREFIX, threadStateRef } from './thread-state-ref.js';

/** A state ref: `sync`, `scan`, or `thread:<thread key>` (e.g. `thread:o/r:issue:42:implement:default`). */
export type StateRefName = 'sync' | 'scan' | `thread:${string}`;

/** A state ref resolved to its git ref. */
export type ResolvedStateRef =
  | { readonly kind: 'sync'; readonly ref: typeof MEMORY_SYNC_STATE_REF }
  | { readonly kind: 'scan'; readonly ref: typeof MEMORY_SCAN_STATE_REF }
  | {
      readonly kind: 'thread';
      readonly ref: string;
      readonly threadKey: string;
      readonly parts: ThreadKeyParts;
    };

/**
 * Resolve a state ref name. Also accepts the full refs (`refs/agent-memory-state/sync`,
 * `refs/agent-state/<encoded key>`). Throws `INVALID_ARGUMENT` for anything else, naming the
 * accepted forms, or for an invalid thread key (naming the bad field).
 */
export function resolveStateRef(name: StateRefName | string): ResolvedStateRef {
  if (name === 'sync' || name === MEMORY_SYNC_STATE_REF) return { kind: 'sync', ref: MEMORY_SYNC_STATE_REF };
  if (name === 'scan' || name === MEMORY_SCAN_STATE_REF) return { kind: 'scan', ref: MEMORY_SCAN_STATE_REF };
  if (typeof name === 'string' && name.startsWith('thread:')) {
    const threadKey = name.slice('thread:'.length);
    if (threadKey.length === 0) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        'state ref "thread:" needs a thread key, e.g. thread:owner/repo:issue:42:implement:default',
      );
    }
    const parts = parseThreadKey(threadKey);
    return { kind: 'thread', ref: threadStateRef(threadKey), threadKey, parts };
  }
  if (typeof name === 'string' && name.startsWith(THREAD_STATE_REF_PREFIX)) {
    const threadKey = decodeThreadKeyFromRef(name);
    return { kind: 'thread', ref: threadStateRef(threadKey), threadKey, parts: parseThreadKey(threadKey) };
  }
  throw new RepomemError(
    'INVALID_ARGUMENT',
    `unknown state ref ${JSON.stringify(name)}: expected sync, scan or thread:<owner/repo:target_kind:number:route:lane>`,
    { details: { ref: name } },
  );
}
