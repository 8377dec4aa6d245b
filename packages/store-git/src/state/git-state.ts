// Why: the store contract's `state` API on git refs, in Sepo's layout: each key is one ref under
// `refs/agent-memory-state/` pointing at a commit whose tree holds `state.json` (so the key
// `sync` reads Sepo's sync cursor), each write a child of the previous one. A value's version is
// the commit id the ref holds, and every write or delete is a compare-and-swap on the ref with
// the git CLI's lock files, so no update is lost between processes.
import {
  acquireKeyedMutex,
  type ExpectedVersion,
  expectationHolds,
  type JsonValue,
  normalizeStateKey,
  normalizeStatePrefix,
  parseStateValue,
  RepomemError,
  type StateEntry,
  type StateListOptions,
  type StateWriteResult,
  type StoreState,
  serializeStateValue,
} from '@repomem/core';
import { formatSignature, type GitIdentity } from '../objects/commit-object.js';
import type { GitObjectStore } from '../objects/object-store.js';
import { compareAndDeleteRef } from '../refs/ref-delete.js';
import { listRefs } from '../refs/ref-list.js';
import { compareAndSwapRef, type RefLockTiming, type RefUpdateResult } from '../refs/ref-lock.js';
import { readRef } from '../refs/ref-store.js';
import type { GitFileSystem } from '../repository/file-system.js';
import { readStateBlob, STATE_FILE, writeStateCommit } from './state-commit.js';
import { STATE_KEY_REF_PREFIX, stateKeyOfRef, stateKeyRef } from './state-key-ref.js';

/** What the state refs need from the store that owns them. */
export interface GitStateContext {
  readonly fs: GitFileSystem;
  /** Where refs and objects live. */
  readonly commondir: string;
  readonly objects: GitObjectStore;
  /** Author and committer of state commits. */
  readonly identity: GitIdentity;
  readonly clock: () => Date;
  readonly durable: boolean;
  readonly timing: RefLockTiming;
  /** Throws `STORE_CLOSED` once the store is closed. */
  readonly assertOpen: () => void;
}

/** How many times a blind write retries on a ref that moved under it before giving up with `CONFLICT`. */
const MAX_BLIND_ATTEMPTS = 100;

/** A {@link StoreState} kept in refs under `refs/agent-memory-state/` (see the module comment). */
export function createGitState(context: GitStateContext): StoreState {
  const { fs, commondir, objects } = context;

  const read = async (key: string, ref: string, commit: string): Promise<StateEntry> => {
    const text = await readStateBlob(objects, commit);
    if (text === undefined) {
      throw new RepomemError(
        'INVALID_DOCUMENT',
        `state ${key}: ${ref} (${commit}) is not a commit whose tree holds ${STATE_FILE}`,
        { details: { key, ref, commit } },
      );
    }
    return { key, value: parseStateValue(key, text), version: commit };
  };

  /** Run `apply` against the ref's current id under the in-process mutex, retrying blind writes that lose a race. */
  const update = async (
    ref: string,
    expected: ExpectedVersion,
    apply: (actual: string | null) => Promise<{ result: RefUpdateResult; version: string | null }>,
  ): Promise<StateWriteResult> => {
    const release = await acquireKeyedMutex(`${commondir}\0${ref}`);
    try {
      for (let attempt = 1; attempt <= MAX_BLIND_ATTEMPTS; attempt += 1) {
        context.assertOpen();
        const actual = await readRef(fs, commondir, ref);
        if (!expectationHolds(expected, actual)) return { status: 'conflict', expected: expected ?? null, actual };
        const { result, version } = await apply(actual);
        if (result.status === 'updated') return { status: 'committed', version };
        if (expected !== undefined) return { status: 'conflict', expected, actual: result.actual };
      }
      throw new RepomemError('CONFLICT', `${ref} kept moving: ${MAX_BLIND_ATTEMPTS} blind writes were overtaken`, {
        details: { ref },
      });
    } finally {
      release();
    }
  };

  return {
    async get(key: string): Promise<StateEntry | undefined> {
      context.assertOpen();
      const normalized = normalizeStateKey(key);
      const ref = stateKeyRef(normalized);
      const commit = await readRef(fs, commondir, ref);
      return commit === null ? undefined : read(normalized, ref, commit);
    },

    async put(key: string, value: JsonValue, expectedVersion?: ExpectedVersion): Promise<StateWriteResult> {
      context.assertOpen();
      const normalized = normalizeStateKey(key);
      serializeStateValue(normalized, value); // validates (plain JSON, size) before anything is written
      const json = `${JSON.stringify(value, null, 2)}\n`;
      const ref = stateKeyRef(normalized);
      return update(ref, expectedVersion, async (actual) => {
        const commit = await writeStateCommit(objects, {
          json,
          parent: actual,
          signature: formatSignature(context.identity, context.clock()),
          subject: `state: ${normalized}`,
        });
        const result = await compareAndSwapRef(
          fs,
          commondir,
          { ref, expected: actual, next: commit },
          context.timing,
          context.durable,
        );
        return { result, version: commit };
      });
    },

    async delete(key: string, expectedVersion?: ExpectedVersion): Promise<StateWriteResult> {
      context.assertOpen();
      const ref = stateKeyRef(normalizeStateKey(key));
      return update(ref, expectedVersion, async (actual) => {
        if (actual === null) return { result: { status: 'updated' }, version: null };
        return {
          result: await compareAndDeleteRef(fs, commondir, { ref, expected: actual }, context.timing),
          version: null,
        };
      });
    },

    async list(options: StateListOptions = {}): Promise<StateEntry[]> {
      context.assertOpen();
      const prefix = normalizeStatePrefix(options?.prefix);
      const entries: StateEntry[] = [];
      for (const [ref, commit] of await listRefs(fs, commondir, STATE_KEY_REF_PREFIX)) {
        const key = stateKeyOfRef(ref);
        if (key?.startsWith(prefix)) entries.push(await read(key, ref, commit));
      }
      return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}
