// Why: object ids are computed locally (a document's version is its blob id, known before any
// write), so hashing git's object framing lives in one place.
import { createHash } from 'node:crypto';

/** The id git gives the empty tree. */
export const EMPTY_TREE_OID = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** The kinds of objects the store reads and writes. */
export type GitObjectType = 'blob' | 'tree' | 'commit' | 'tag';

const OID = /^[0-9a-f]{40}$/;

/** True for a full lowercase SHA-1 object id. */
export function isObjectId(value: string): boolean {
  return OID.test(value);
}

/** The framed bytes git hashes and stores: `<type> <size>\0<content>`. */
export function frameObject(type: GitObjectType, content: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(`${type} ${content.byteLength}\0`), content]);
}

/** The object id of `content` stored as `type` (what `git hash-object -t <type>` prints). */
export function hashObject(type: GitObjectType, content: Uint8Array): string {
  return createHash('sha1').update(`${type} ${content.byteLength}\0`).update(content).digest('hex');
}

/** A document's version in the git store: the id of its blob. */
export function blobVersion(content: Uint8Array): string {
  return hashObject('blob', content);
}
