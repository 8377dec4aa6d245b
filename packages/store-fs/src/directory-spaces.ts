// Why: the driver's namespaces are places on disk, chosen so data written before the store kit
// reads the same. `documents` is the memory tree itself (the Sepo layout, listed through the
// stamp cache); `state` is the state directory beside it, one `<key>.json` file per key; any
// other namespace is a hidden directory of the state directory (no state key starts with `.`,
// so state never lists it). A space says where a key's file is and reads it its namespace's way.
import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  contentVersion,
  isRepomemError,
  type KitEntry,
  normalizeDocumentPath,
  normalizeStateKey,
  RepomemError,
} from '@repomem/core';
import { errnoCode, inspectParents, readFileNoFollow } from './directory-files.js';
import type { DirectoryListing } from './directory-listing.js';
import { assertNotReservedPath } from './directory-names.js';
import { stateFilePath, stateKeyOf } from './state-files.js';

/** Documents whose last read a space keeps for the check of a following write. */
const RECENT_DOCUMENTS = 8;
/** Largest document kept among them (so they hold 8 MiB at most). */
const RECENT_DOCUMENT_BYTES = 1024 * 1024;

/** Largest state file read (far above any value the store writes; a bigger file is foreign). */
const MAX_STATE_FILE_BYTES = 1024 * 1024;

/** One namespace of the directory driver. */
export interface DirectorySpace {
  /** Absolute directory holding the namespace's files (the state directory may not exist yet). */
  readonly directory: string;
  /** True when `directory` is created by the first write (the memory root always exists). */
  readonly createOnWrite: boolean;
  /** The file holding `key`, relative to `directory`; throws for a key the namespace cannot hold. */
  fileOf(key: string): string;
  /**
   * The entry of `key` with its bytes, or `undefined` when it has none. `forWrite`: the current
   * entry a write checks against (no size limit: a file too large to read can still be replaced
   * or deleted), answered from this space's last read of `key` when its version is `expected`.
   */
  read(key: string, forWrite?: { readonly expected: string | null | undefined }): Promise<KitEntry | undefined>;
  /** Entries whose key starts with `prefix`, sorted by key (with bytes when `values`). */
  scan(prefix: string, values: boolean): Promise<KitEntry[]>;
}

function entryOf(key: string, content: Uint8Array): KitEntry {
  return { key, version: contentVersion(content), size: content.byteLength, value: content };
}

function documentFile(key: string): string {
  if (normalizeDocumentPath(key) !== key) {
    throw new RepomemError('INVALID_PATH', `not a normalised document path: ${JSON.stringify(key)}`, {
      details: { path: key },
    });
  }
  assertNotReservedPath(key);
  return key;
}

/**
 * The `documents` namespace: the files of the memory tree under `root`. A key that is, or passes
 * through, a symbolic link, a directory or a special file reads as absent; a file above
 * `maxBytes` is `FILE_TOO_LARGE`; lock and temp file names are `INVALID_PATH`.
 */
export function documentSpace(root: string, listing: DirectoryListing, maxBytes: number): DirectorySpace {
  // The last documents read (a `get` before a write of the same document: the CLI's bullet edit).
  const recent = new Map<string, KitEntry>();
  return {
    directory: root,
    createOnWrite: false,
    fileOf: documentFile,
    async read(key, forWrite) {
      documentFile(key);
      const seen = recent.get(key);
      if (forWrite !== undefined && seen !== undefined && seen.version === forWrite.expected) return seen;
      if ((await inspectParents(root, key)).kind !== 'ok') return undefined;
      const file = await readFileNoFollow(join(root, key), key, forWrite === undefined ? maxBytes : undefined);
      if (file === undefined || 'kind' in file) return undefined;
      const entry = entryOf(key, file.content);
      recent.delete(key);
      if (entry.size <= RECENT_DOCUMENT_BYTES) recent.set(key, entry);
      if (recent.size > RECENT_DOCUMENTS) recent.delete(recent.keys().next().value as string);
      return entry;
    },
    async scan(prefix, values) {
      if (!values) return listing.list(prefix);
      return listing
        .read(prefix, () => true, maxBytes)
        .map(({ path, version, size, content }) => ({ key: path, version, size, value: content }));
    },
  };
}

function unreadable(key: string, problem: string, cause?: unknown): RepomemError {
  return new RepomemError('INVALID_DOCUMENT', `state value of ${key} cannot be read: ${problem}`, {
    details: { key },
    ...(cause === undefined ? {} : { cause }),
  });
}

function collectKeyedFiles(root: string, relativeDir: string, out: string[]): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(relativeDir === '' ? root : join(root, relativeDir), { withFileTypes: true });
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return;
    throw error;
  }
  for (const entry of entries) {
    const relative = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
    if (entry.isDirectory()) collectKeyedFiles(root, relative, out);
    else if (entry.isFile()) out.push(relative);
  }
}

/**
 * A namespace of state values: key `sync/acme/app` is the file `<directory>/sync/acme/app.json`
 * (see `state-files.ts`). A file that is a symbolic link, not a regular file, or over 1 MiB reads
 * as `INVALID_DOCUMENT` naming the key (a damaged value is reported, never taken for an absent
 * one); a blind write replaces or removes it.
 */
export function createDirectoryState(directory: string): DirectorySpace {
  const fileOf = (key: string): string => stateFilePath(normalizeStateKey(key));
  const readFile = async (key: string, relative: string): Promise<KitEntry | undefined> => {
    const parents = await inspectParents(directory, relative);
    if (parents.kind === 'missing') return undefined;
    if (parents.kind === 'blocked') throw unreadable(key, `its file ${parents.reason}`);
    let file: Awaited<ReturnType<typeof readFileNoFollow>>;
    try {
      file = await readFileNoFollow(join(directory, relative), relative, MAX_STATE_FILE_BYTES);
    } catch (error) {
      if (isRepomemError(error, 'FILE_TOO_LARGE')) {
        throw unreadable(key, `its file is larger than ${MAX_STATE_FILE_BYTES} bytes`, error);
      }
      throw error;
    }
    if (file === undefined) return undefined;
    if ('kind' in file) throw unreadable(key, `its file ${file.reason}`);
    return entryOf(key, file.content);
  };
  return {
    directory,
    createOnWrite: true,
    fileOf,
    read: (key) => readFile(key, fileOf(key)),
    async scan(prefix, values) {
      const files: string[] = [];
      collectKeyedFiles(directory, '', files);
      const keyed: Array<{ key: string; relative: string }> = [];
      for (const relative of files) {
        const key = stateKeyOf(relative);
        if (key?.startsWith(prefix)) keyed.push({ key, relative });
      }
      keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      const entries: KitEntry[] = [];
      for (const { key, relative } of keyed) {
        const entry = await readFile(key, relative);
        if (entry === undefined) continue;
        entries.push(values ? entry : { key, version: entry.version, size: entry.size });
      }
      return entries;
    },
  };
}

/**
 * Name of a namespace's directory under the state directory (namespaces other than `documents`
 * and `state`): `.kit-<namespace>`, refused with `INVALID_ARGUMENT` unless the name is made of
 * lower-case letters, digits and `-`.
 */
export function namespaceDirectoryName(namespace: string): string {
  if (!/^[a-z0-9-]+$/.test(namespace)) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `namespace ${JSON.stringify(namespace)} must be lower-case letters, digits and "-"`,
      { details: { namespace } },
    );
  }
  return `.kit-${namespace}`;
}
