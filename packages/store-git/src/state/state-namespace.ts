// Why: the kit's `state` namespace on git refs, in Sepo's layout: each key is one ref under
// `refs/agent-memory-state/` pointing at a commit whose tree holds `state.json` (so the key
// `sync` IS Sepo's sync cursor), each write a child of the previous one. A value's version is the
// commit id the ref holds (the driver assigns it), and every write or delete is a
// compare-and-swap on the ref with the git CLI's lock files, so no update is lost between
// processes. Validation, parsing and the state API itself are the kit's.
import { acquireKeyedMutex, type KitChange, type KitConflict, type KitEntry, RepomemError } from '@repomem/core';
import { formatSignature, type GitIdentity } from '../objects/commit-object.js';
import type { GitObjectStore } from '../objects/object-store.js';
import { compareAndDeleteRef } from '../refs/ref-delete.js';
import { listRefs } from '../refs/ref-list.js';
import { compareAndSwapRef, type RefLockTiming, type RefUpdateResult } from '../refs/ref-lock.js';
import { readRef } from '../refs/ref-store.js';
import type { GitFileSystem } from '../repository/file-system.js';
import { readStateBytes, STATE_FILE, writeStateCommit } from './state-commit.js';
import { STATE_KEY_REF_PREFIX, stateKeyOfRef, stateKeyRef } from './state-key-ref.js';

/** What the state refs need from the driver that owns them. */
export interface StateRefsContext {
  readonly fs: GitFileSystem;
  /** Where refs and objects live. */
  readonly commondir: string;
  readonly objects: GitObjectStore;
  /** Author and committer of state commits. */
  readonly identity: GitIdentity;
  readonly clock: () => Date;
  readonly durable: boolean;
  readonly timing: RefLockTiming;
}

/** The state refs as a kit namespace (see the module comment). */
export interface StateRefs {
  read(key: string): Promise<KitEntry | undefined>;
  scan(prefix: string): Promise<KitEntry[]>;
  /** The conflict, or the version stored (the new commit id, `null` after a delete). */
  write(change: KitChange): Promise<KitConflict | { readonly version: string | null }>;
  /** The conflict when `change.expected` does not hold now (nothing is written). */
  check(change: KitChange): Promise<KitConflict | undefined>;
}

/** How many times a blind write retries on a ref that moved under it before giving up with `CONFLICT`. */
const MAX_BLIND_ATTEMPTS = 100;

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** JSON values are kept indented with a final newline (Sepo's and `writeStateRef`'s layout); other bytes as they are. */
function stateText(value: Uint8Array): string {
  const text = decoder.decode(value);
  try {
    return `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
  } catch {
    return text;
  }
}

/** The kit's `state` namespace kept in refs under `refs/agent-memory-state/`. */
export function createStateRefs(context: StateRefsContext): StateRefs {
  const { fs, commondir, objects } = context;
  const entryOf = async (key: string, ref: string, commit: string): Promise<KitEntry> => {
    const value = await readStateBytes(objects, commit);
    if (value === undefined) {
      throw new RepomemError(
        'INVALID_DOCUMENT',
        `state ${key}: ${ref} (${commit}) is not a commit whose tree holds ${STATE_FILE}`,
        { details: { key, ref, commit } },
      );
    }
    return { key, version: commit, size: value.byteLength, value };
  };
  const conflictOf = (change: KitChange, actual: string | null): KitConflict => ({
    namespace: change.namespace,
    key: change.key,
    actual,
  });
  const apply = async (
    change: KitChange,
    ref: string,
    actual: string | null,
  ): Promise<RefUpdateResult | { readonly status: 'updated'; readonly commit: string }> => {
    if (change.value === null) {
      if (actual === null) return { status: 'updated' };
      return compareAndDeleteRef(fs, commondir, { ref, expected: actual }, context.timing);
    }
    const commit = await writeStateCommit(objects, {
      json: stateText(change.value),
      parent: actual,
      signature: formatSignature(context.identity, context.clock()),
      subject: `state: ${change.key}`,
    });
    const result = await compareAndSwapRef(
      fs,
      commondir,
      { ref, expected: actual, next: commit },
      context.timing,
      context.durable,
    );
    return result.status === 'updated' ? { status: 'updated', commit } : result;
  };

  return {
    async read(key) {
      const ref = stateKeyRef(key);
      const commit = await readRef(fs, commondir, ref);
      return commit === null ? undefined : entryOf(key, ref, commit);
    },
    async scan(prefix) {
      const entries: KitEntry[] = [];
      for (const [ref, commit] of await listRefs(fs, commondir, STATE_KEY_REF_PREFIX)) {
        const key = stateKeyOfRef(ref);
        if (key?.startsWith(prefix)) entries.push(await entryOf(key, ref, commit));
      }
      return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    async check(change) {
      if (change.expected === undefined) return undefined;
      const actual = await readRef(fs, commondir, stateKeyRef(change.key));
      return actual === change.expected ? undefined : conflictOf(change, actual);
    },
    async write(change) {
      const ref = stateKeyRef(change.key);
      const release = await acquireKeyedMutex(`${commondir}\0${ref}`);
      try {
        for (let attempt = 1; attempt <= MAX_BLIND_ATTEMPTS; attempt += 1) {
          const actual = await readRef(fs, commondir, ref);
          if (change.expected !== undefined && change.expected !== actual) return conflictOf(change, actual);
          const result = await apply(change, ref, actual);
          if (result.status === 'updated') return { version: 'commit' in result ? result.commit : null };
          if (change.expected !== undefined) return conflictOf(change, result.actual);
        }
        throw new RepomemError('CONFLICT', `${ref} kept moving: ${MAX_BLIND_ATTEMPTS} blind writes were overtaken`, {
          details: { ref },
        });
      } finally {
        release();
      }
    },
  };
}
