// Why: the directory store as a store kit driver: the four primitives mapped onto files, and what
// a directory does better than the kit's defaults declared as capabilities. Versions are the
// SHA-256 of the bytes on disk (`contentVersions`: a hand edit is a new version, nothing to keep
// beside the file); a batch is checked and applied under Sepo's `<file>.lock` locks (`isolated`);
// twins are found by reading the directories on a path (`twins`); a one-shot read reads each file
// once and skips files the search cache's stamps name (`readAll`). There is no cheap revision
// token (a directory counts no changes), so the kit hashes the listing, which caches hashes by stamp.
import { join } from 'node:path';
import {
  DOCUMENTS_NAMESPACE,
  KIT_DRIVER_VERSION,
  type KitDriver,
  type KitEntry,
  RepomemError,
  STATE_NAMESPACE,
} from '@repomem/core';
import { applyLockedBatch, type BatchChange } from './directory-batch.js';
import { yieldToEventLoop } from './directory-files.js';
import { DirectoryListing } from './directory-listing.js';
import {
  createDirectoryState,
  type DirectorySpace,
  documentSpace,
  namespaceDirectoryName,
} from './directory-spaces.js';
import { directoryTwinCandidates } from './directory-twins.js';
import type { FileLockOptions } from './file-lock.js';

/** Where and how a directory driver keeps its files (paths already resolved; see `openDirectoryStore`). */
export interface DirectoryDriverPlaces {
  /** Absolute real path of the memory directory (the `documents` namespace). */
  readonly root: string;
  /** Absolute state directory (the `state` namespace; other namespaces in `.kit-<name>/` under it). */
  readonly stateDir: string;
  /** Largest document read or written, in bytes. */
  readonly maxDocumentBytes: number;
  /** Timing of the `<file>.lock` locks. */
  readonly lock: FileLockOptions;
}

/** The directory driver: a {@link KitDriver} with the places it keeps its files. */
export interface DirectoryDriver extends KitDriver {
  readonly name: 'directory';
  /** Absolute real path of the memory directory. */
  readonly root: string;
  /** Absolute path of the state directory (it may not exist yet). */
  readonly stateDir: string;
}

/** Build the driver over already resolved places (`openDirectoryStore` resolves and checks them). */
export function directoryDriverAt(places: DirectoryDriverPlaces): DirectoryDriver {
  const { root, stateDir, maxDocumentBytes, lock } = places;
  const listing = new DirectoryListing(root);
  const documents = documentSpace(root, listing, maxDocumentBytes);
  const spaces = new Map<string, DirectorySpace>([
    [DOCUMENTS_NAMESPACE, documents],
    [STATE_NAMESPACE, createDirectoryState(stateDir)],
  ]);
  const spaceOf = (namespace: string): DirectorySpace => {
    let space = spaces.get(namespace);
    if (space === undefined) {
      space = createDirectoryState(join(stateDir, namespaceDirectoryName(namespace)));
      spaces.set(namespace, space);
    }
    return space;
  };

  return {
    kit: KIT_DRIVER_VERSION,
    name: 'directory',
    batch: 'isolated',
    maxValueBytes: maxDocumentBytes,
    contentVersions: true,
    root,
    stateDir,

    async read(namespace, keys) {
      const space = spaceOf(namespace);
      await yieldToEventLoop();
      const out: (KitEntry | undefined)[] = [];
      for (const key of keys) out.push(await space.read(key));
      return out;
    },

    async scan(namespace, { prefix, values = true }) {
      const space = spaceOf(namespace);
      await yieldToEventLoop();
      return space.scan(prefix, values);
    },

    async write(changes) {
      const batch: BatchChange[] = changes.map((change) => {
        if (change.value !== null && change.value.byteLength > maxDocumentBytes) {
          throw new RepomemError(
            'FILE_TOO_LARGE',
            `document too large: ${change.key} is ${change.value.byteLength} bytes, the store holds at most ${maxDocumentBytes}`,
            { details: { path: change.key, size: change.value.byteLength, maxDocumentBytes } },
          );
        }
        return { change, space: spaceOf(change.namespace) };
      });
      if (batch.length === 0) return { status: 'committed' };
      const { conflicts } = await applyLockedBatch(batch, lock);
      return conflicts.length > 0 ? { status: 'conflict', conflicts } : { status: 'committed' };
    },

    async close() {
      listing.clear();
    },

    preconditions: {
      async read(namespace, keys, expected) {
        const space = spaceOf(namespace);
        const out: (KitEntry | undefined)[] = [];
        for (const [index, key] of keys.entries()) out.push(await space.read(key, { expected: expected[index] }));
        return out;
      },
    },

    twins: {
      async candidates(namespace, keys) {
        if (namespace === DOCUMENTS_NAMESPACE) return directoryTwinCandidates(root, listing, keys);
        return (await spaceOf(namespace).scan('', false)).map((entry) => entry.key);
      },
    },

    readAll: {
      async read(options) {
        await yieldToEventLoop();
        const accept = options.accept ?? (() => true);
        if (options.each === undefined) return listing.read(options.prefix, accept, maxDocumentBytes);
        listing.stream(options.prefix, accept, maxDocumentBytes, options.each, options.known);
        return [];
      },
    },
  };
}
