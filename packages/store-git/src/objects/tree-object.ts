// Why: trees are parsed and written byte-exactly (entry names kept as raw bytes, modes as
// written), so rewriting one directory never alters an entry repomem did not touch, and new
// trees are sorted the way git requires (`git fsck --strict` checks it).
import { isDocumentPathSegment, RepomemError } from '@repomem/core';

/** What a tree entry points at. Only `file` entries are documents. */
export type TreeEntryKind = 'file' | 'tree' | 'symlink' | 'submodule' | 'unknown';

/** One entry of a tree object. */
export interface TreeEntry {
  /** Mode as written in the tree (`100644`, `100755`, `40000`, `120000`, `160000`...). */
  readonly mode: string;
  /** Name decoded as UTF-8. */
  readonly name: string;
  /** Name exactly as stored. */
  readonly nameBytes: Buffer;
  /** Object id (hex). */
  readonly oid: string;
  /** Classification of `mode`. */
  readonly kind: TreeEntryKind;
}

/** Mode git writes for a subdirectory. */
export const TREE_MODE = '40000';
/** Mode of a regular, non-executable file. */
export const FILE_MODE = '100644';

/** Classify a tree entry mode. */
export function entryKind(mode: string): TreeEntryKind {
  if (mode === '40000' || mode === '040000') return 'tree';
  if (mode === '120000') return 'symlink';
  if (mode === '160000') return 'submodule';
  if (mode.startsWith('100')) return 'file';
  return 'unknown';
}

/** Build a tree entry from its parts. */
export function makeEntry(name: string | Buffer, mode: string, oid: string): TreeEntry {
  const nameBytes = typeof name === 'string' ? Buffer.from(name, 'utf8') : name;
  return { mode, name: nameBytes.toString('utf8'), nameBytes, oid, kind: entryKind(mode) };
}

/** Parse the content of a tree object. Throws `INVALID_DOCUMENT` for a malformed tree. */
export function parseTree(content: Uint8Array, oid: string): TreeEntry[] {
  const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < bytes.length) {
    const space = bytes.indexOf(0x20, at);
    const nul = space < 0 ? -1 : bytes.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > bytes.length) {
      throw new RepomemError('INVALID_DOCUMENT', `malformed git tree object ${oid}`, { details: { oid } });
    }
    const mode = bytes.toString('latin1', at, space);
    const nameBytes = Buffer.from(bytes.subarray(space + 1, nul));
    const entryOid = bytes.toString('hex', nul + 1, nul + 21);
    entries.push({ mode, name: nameBytes.toString('utf8'), nameBytes, oid: entryOid, kind: entryKind(mode) });
    at = nul + 21;
  }
  return entries;
}

/** The content of a tree object holding `entries` (which must already be in git order). */
export function serializeTree(entries: readonly TreeEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(
      Buffer.from(`${entry.mode} `, 'latin1'),
      entry.nameBytes,
      Buffer.from([0]),
      Buffer.from(entry.oid, 'hex'),
    );
  }
  return Buffer.concat(parts);
}

/**
 * Git's tree order: names compared bytewise, with a directory compared as if its name ended
 * in `/` (so `a.md` sorts before the directory `a`, which sorts before `a0`).
 */
export function compareTreeEntries(a: TreeEntry, b: TreeEntry): number {
  const x = a.nameBytes;
  const y = b.nameBytes;
  const length = Math.min(x.length, y.length);
  const common = Buffer.compare(x.subarray(0, length), y.subarray(0, length));
  if (common !== 0) return common;
  const cx = x.length > length ? (x[length] ?? 0) : a.kind === 'tree' ? 0x2f : 0;
  const cy = y.length > length ? (y[length] ?? 0) : b.kind === 'tree' ? 0x2f : 0;
  return cx - cy;
}

/** Index of the entry named `name` in a tree, or -1. */
export function findEntryIndex(entries: readonly TreeEntry[], name: string): number {
  for (let index = 0; index < entries.length; index += 1) if (entries[index]?.name === name) return index;
  return -1;
}

/** Insert `entry` into sorted `entries` (in place) at its git-order position. */
export function insertSorted(entries: TreeEntry[], entry: TreeEntry): void {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const current = entries[middle] as TreeEntry;
    if (compareTreeEntries(current, entry) < 0) low = middle + 1;
    else high = middle;
  }
  entries.splice(low, 0, entry);
}

const RESERVED_NAMES = new Set(['.git', '.hg', '.svn', 'node_modules', '.', '..', '']);

/**
 * True when a tree entry name can be part of a document path (see `normalizeDocumentPath`):
 * entries named `.git` (in any spelling git refuses, e.g. `.GIT`, `git~1`), `.gitmodules`,
 * `node_modules`... or containing a backslash are never exposed.
 */
export function isDocumentName(name: string): boolean {
  return !RESERVED_NAMES.has(name) && !name.includes('\\') && !name.includes('\0') && isDocumentPathSegment(name);
}
