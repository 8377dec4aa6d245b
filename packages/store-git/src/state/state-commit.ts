// Why: every state ref (Sepo's sync, scan and thread refs, and the store's `state` values) is a
// commit whose tree holds one `state.json`, each write a child of the previous one. Writing and
// reading that shape lives here once, so both APIs produce what `git fsck --strict` accepts and
// what Sepo reads.
import { RepomemError } from '@repomem/core';
import { serializeCommit } from '../objects/commit-object.js';
import type { GitObjectStore } from '../objects/object-store.js';
import { FILE_MODE, makeEntry, serializeTree } from '../objects/tree-object.js';

/** Name of the one file in a state commit's tree. */
export const STATE_FILE = 'state.json';

/** What a state commit records. */
export interface StateCommitInput {
  /** The JSON text of `state.json` (written as is). */
  readonly json: string;
  /** The commit the ref holds now (the new commit's parent), or `null` for a first write. */
  readonly parent: string | null;
  /** Author and committer line value (`Name <email> <seconds> <zone>`). */
  readonly signature: string;
  /** One-line subject. */
  readonly subject: string;
}

/** Write the blob, tree and commit of a state value; the new commit's id. */
export async function writeStateCommit(objects: GitObjectStore, input: StateCommitInput): Promise<string> {
  const blob = await objects.write('blob', new TextEncoder().encode(input.json));
  const entries = [makeEntry(STATE_FILE, FILE_MODE, blob)];
  const tree = await objects.writeTree(entries, serializeTree(entries));
  return objects.write(
    'commit',
    serializeCommit({
      tree,
      parents: input.parent === null ? [] : [input.parent],
      author: input.signature,
      committer: input.signature,
      message: `${input.subject}\n`,
    }),
  );
}

/** The bytes of `state.json` in commit `oid`, or undefined when it is not such a commit. */
export async function readStateBytes(objects: GitObjectStore, oid: string): Promise<Uint8Array | undefined> {
  try {
    const commit = await objects.readCommit(oid);
    const entry = (await objects.readTree(commit.tree)).find((candidate) => candidate.name === STATE_FILE);
    if (entry?.kind !== 'file') return undefined;
    return new Uint8Array(await objects.readTyped(entry.oid, 'blob'));
  } catch (error) {
    if (error instanceof RepomemError) return undefined;
    throw error;
  }
}

/** The text of `state.json` in commit `oid`, or undefined when it is not such a commit. */
export async function readStateBlob(objects: GitObjectStore, oid: string): Promise<string | undefined> {
  const bytes = await readStateBytes(objects, oid);
  return bytes === undefined ? undefined : new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}
