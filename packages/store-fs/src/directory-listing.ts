// Why: list() and revision() run before every search, so over a big tree they must not re-read
// every file. Versions are exact SHA-256 hashes, cached per file under a stat stamp (device,
// inode, size, mtime and ctime in nanoseconds); only files whose stamp changed are re-hashed.
// Like git's "racily clean" rule, a stamp is trusted only once the file is older than the
// filesystem's timestamp granularity, so two same-size edits within one clock tick are not missed.
// A one-shot reader (readAll: a single search) gets content and version from one read per file.

import { createHash } from 'node:crypto';
import {
  type BigIntStats,
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
} from 'node:fs';
import { join } from 'node:path';
import { contentVersion, isDocumentPathSegment, type KitEntry, type StoredDocument } from '@repomem/core';
import { errnoCode, fileTooLargeError } from './directory-files.js';
import { isReservedFileName, SKIPPED_DIRECTORIES } from './directory-names.js';

/** A file modified less than this long before it was hashed is re-hashed on every listing. */
const RACY_WINDOW_NS = 2_000_000_000n;
const HASH_CHUNK_BYTES = 1024 * 1024;
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

interface CachedVersion {
  readonly stamp: string;
  readonly version: string;
  readonly trusted: boolean;
}

function stampOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

function nowNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/** Open for reading without following a final symlink; `undefined` when it vanished or is not a file. */
function openNoFollow(absolutePath: string): number | undefined {
  try {
    return openSync(absolutePath, READ_FLAGS);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw error;
  }
}

/**
 * Hash a regular file by descriptor, without following a final symlink. Returns `undefined` when
 * the file vanished or is not a regular file. If the file changes while being read (stamp differs
 * before and after), it is read again, so a cached hash always matches its stamp.
 */
function hashFile(
  absolutePath: string,
): { stamp: string; version: string; size: number; trusted: boolean } | undefined {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const fd = openNoFollow(absolutePath);
    if (fd === undefined) return undefined;
    try {
      const before = fstatSync(fd, { bigint: true });
      if (!before.isFile()) return undefined;
      const hash = createHash('sha256');
      const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(HASH_CHUNK_BYTES, Number(before.size))));
      let size = 0;
      for (;;) {
        const read = readSync(fd, buffer, 0, buffer.length, null);
        if (read === 0) break;
        hash.update(buffer.subarray(0, read));
        size += read;
      }
      const after = fstatSync(fd, { bigint: true });
      const stamp = stampOf(after);
      if (stamp !== stampOf(before) || BigInt(size) !== after.size) continue;
      let newest = after.mtimeNs;
      if (after.ctimeNs > newest) newest = after.ctimeNs;
      return { stamp, version: hash.digest('hex'), size, trusted: nowNs() - newest > RACY_WINDOW_NS };
    } finally {
      closeSync(fd);
    }
  }
  return undefined; // still changing after several reads: skip it this time rather than lie
}

/** A file read whole by descriptor, with the stamp and version of exactly those bytes. */
interface ReadFile {
  readonly stamp: string;
  readonly version: string;
  readonly trusted: boolean;
  readonly content: Uint8Array;
}

/**
 * Read a regular file whole by descriptor, without following a final symlink, if `accept` takes
 * its path and size. Returns `undefined` when it vanished, is not a regular file, is refused, or
 * kept changing while read (like {@link hashFile}); throws `FILE_TOO_LARGE` for an accepted file
 * above `maxBytes`, as `get()` does.
 */
function readWholeFile(
  absolutePath: string,
  documentPath: string,
  accept: (path: string, size: number) => boolean,
  maxBytes: number,
): ReadFile | undefined {
  const read = readAcceptedFile(absolutePath, documentPath, accept, maxBytes);
  return read === undefined ? undefined : { ...read, version: contentVersion(read.content) };
}

/**
 * Read a regular file whole (see {@link readWholeFile}) without hashing it: the bytes of one
 * consistent read (same stamp before and after), or `undefined`.
 */
function readAcceptedFile(
  absolutePath: string,
  documentPath: string,
  accept: (path: string, size: number) => boolean,
  maxBytes: number,
): { content: Uint8Array; stamp: string; trusted: boolean } | undefined {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const fd = openNoFollow(absolutePath);
    if (fd === undefined) return undefined;
    try {
      const before = fstatSync(fd, { bigint: true });
      if (!before.isFile()) return undefined;
      const size = Number(before.size);
      if (!accept(documentPath, size)) return undefined;
      if (size > maxBytes) throw fileTooLargeError(documentPath, size, maxBytes);
      const content = readFileSync(fd);
      const after = fstatSync(fd, { bigint: true });
      const stamp = stampOf(after);
      if (stamp !== stampOf(before) || BigInt(content.byteLength) !== after.size) continue;
      return {
        content: new Uint8Array(content.buffer, content.byteOffset, content.byteLength),
        stamp,
        trusted: isTrusted(after),
      };
    } finally {
      closeSync(fd);
    }
  }
  return undefined;
}

/** True when a stamp can identify the file's content (modified longer ago than the timestamp granularity). */
function isTrusted(stats: BigIntStats): boolean {
  let newest = stats.mtimeNs;
  if (stats.ctimeNs > newest) newest = stats.ctimeNs;
  return nowNs() - newest > RACY_WINDOW_NS;
}

/** `lstat` of a regular file, or `undefined` when it vanished or is something else. */
function lstatIfFile(absolutePath: string): BigIntStats | undefined {
  try {
    const stats = lstatSync(absolutePath, { bigint: true });
    return stats.isFile() ? stats : undefined;
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** A stored document whose version is hashed on first read. */
function lazilyVersioned(path: string, content: Uint8Array): StoredDocument {
  let version: string | undefined;
  return {
    path,
    size: content.byteLength,
    content,
    get version(): string {
      const known = version ?? contentVersion(content);
      version = known;
      return known;
    },
  };
}

function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The directory, relative to the root, where a walk for `prefix` must start (`''` = root). */
function startDirectory(prefix: string): string {
  const slash = prefix.lastIndexOf('/');
  return slash === -1 ? '' : prefix.slice(0, slash);
}

/** True when every component of `relativeDir` under `root` is a real directory (no symlink). */
function isRealDirectoryChain(root: string, relativeDir: string): boolean {
  if (relativeDir === '') return true;
  let current = root;
  for (const segment of relativeDir.split('/')) {
    current = join(current, segment);
    try {
      const stats = lstatSync(current);
      if (!stats.isDirectory()) return false; // lstat: a symlink is never a directory
    } catch (error) {
      if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return false;
      throw error;
    }
  }
  return true;
}

function collectFiles(root: string, relativeDir: string, out: string[]): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(relativeDir === '' ? root : join(root, relativeDir), { withFileTypes: true });
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return; // removed while walking
    throw error;
  }
  for (const entry of entries) {
    const name = entry.name;
    const relative = relativeDir === '' ? name : `${relativeDir}/${name}`;
    let isDirectory = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) continue;
    // Names no document path can address (see normalizeDocumentPath): a backslash, or a drive
    // letter at the root.
    if (name.includes('\\') || (relativeDir === '' && /^[A-Za-z]:/.test(name))) continue;
    // Names core refuses in a path (e.g. `.GIT`, `git~1`, `.gitattributes`) are not documents.
    if (!isDocumentPathSegment(name)) continue;
    if (
      !isDirectory &&
      !isFile &&
      !entry.isFIFO() &&
      !entry.isSocket() &&
      !entry.isBlockDevice() &&
      !entry.isCharacterDevice()
    ) {
      // Filesystems without d_type: ask lstat.
      try {
        const stats = lstatSync(join(root, relative));
        isDirectory = stats.isDirectory();
        isFile = stats.isFile();
      } catch {
        continue;
      }
    }
    if (isDirectory) {
      if (!SKIPPED_DIRECTORIES.has(name)) collectFiles(root, relative, out);
    } else if (isFile && !isReservedFileName(name)) {
      out.push(relative);
    }
  }
}

/**
 * Lists the documents of one directory tree with exact versions, caching hashes by stat stamp.
 * Skips `.git`, `.hg`, `.svn`, `node_modules`, symbolic links (files and directories), special
 * files, the store's temp files and `*.lock` files. One instance per open store.
 */
export class DirectoryListing {
  readonly #root: string;
  readonly #cache = new Map<string, CachedVersion>();

  /** @param root absolute, real path of the memory directory */
  constructor(root: string) {
    this.#root = root;
  }

  /** Documents whose path starts with the normalised `prefix` (`''` = all), as the driver's keys-only entries, sorted by path. */
  list(prefix: string): KitEntry[] {
    const start = startDirectory(prefix);
    if (!isRealDirectoryChain(this.#root, start)) return [];
    const paths: string[] = [];
    collectFiles(this.#root, start, paths);
    const entries: KitEntry[] = [];
    const seen = prefix === '' ? new Set<string>() : undefined;
    for (const path of paths) {
      if (!path.startsWith(prefix)) continue;
      const entry = this.#entry(path);
      if (entry === undefined) continue;
      entries.push(entry);
      seen?.add(path);
    }
    if (seen !== undefined) {
      for (const path of this.#cache.keys()) if (!seen.has(path)) this.#cache.delete(path);
    }
    return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /**
   * Documents whose path starts with the normalised `prefix` that `accept` takes, with their
   * bytes, sorted by path: each file is read once, and its version is the hash of those bytes
   * (the hash cache is refreshed on the way). Throws `FILE_TOO_LARGE` for an accepted file above
   * `maxBytes`.
   */
  read(prefix: string, accept: (path: string, size: number) => boolean, maxBytes: number): StoredDocument[] {
    const start = startDirectory(prefix);
    if (!isRealDirectoryChain(this.#root, start)) return [];
    const paths: string[] = [];
    collectFiles(this.#root, start, paths);
    paths.sort(byPath);
    const documents: StoredDocument[] = [];
    for (const path of paths) {
      if (!path.startsWith(prefix)) continue;
      const file = readWholeFile(join(this.#root, path), path, accept, maxBytes);
      if (file === undefined) continue;
      this.#cache.set(path, { stamp: file.stamp, version: file.version, trusted: file.trusted });
      documents.push({ path, version: file.version, size: file.content.byteLength, content: file.content });
    }
    return documents;
  }

  /**
   * {@link read}, streamed: each accepted document is handed to `each` as it is read and not
   * kept, so memory holds one file at a time. Its `version` (a SHA-256 of the bytes) is computed
   * only when read (a search never reads it), and the hash cache is left as it is.
   */
  stream(
    prefix: string,
    accept: (path: string, size: number) => boolean,
    maxBytes: number,
    each: (document: StoredDocument, stamp?: string) => void,
    known?: (path: string, stamp: string) => boolean,
  ): void {
    const start = startDirectory(prefix);
    if (!isRealDirectoryChain(this.#root, start)) return;
    const paths: string[] = [];
    collectFiles(this.#root, start, paths);
    paths.sort(byPath);
    for (const path of paths) {
      if (!path.startsWith(prefix)) continue;
      const absolute = join(this.#root, path);
      if (known !== undefined) {
        const stats = lstatIfFile(absolute);
        if (stats === undefined) continue;
        if (!accept(path, Number(stats.size))) continue;
        if (isTrusted(stats) && known(path, stampOf(stats))) continue;
      }
      const file = readAcceptedFile(absolute, path, accept, maxBytes);
      if (file !== undefined) each(lazilyVersioned(path, file.content), file.trusted ? file.stamp : undefined);
    }
  }

  /** Paths of the documents under the normalised `prefix`, sorted, without reading or hashing them. */
  paths(prefix: string): string[] {
    const start = startDirectory(prefix);
    if (!isRealDirectoryChain(this.#root, start)) return [];
    const paths: string[] = [];
    collectFiles(this.#root, start, paths);
    return paths.filter((path) => path.startsWith(prefix)).sort(byPath);
  }

  /** Drop every cached hash (used on close). */
  clear(): void {
    this.#cache.clear();
  }

  #entry(path: string): KitEntry | undefined {
    const absolute = join(this.#root, path);
    let stats: BigIntStats;
    try {
      stats = lstatSync(absolute, { bigint: true });
    } catch (error) {
      if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return undefined;
      throw error;
    }
    if (!stats.isFile()) return undefined;
    const stamp = stampOf(stats);
    const cached = this.#cache.get(path);
    if (cached?.trusted && cached.stamp === stamp) {
      return { key: path, version: cached.version, size: Number(stats.size) };
    }
    const hashed = hashFile(absolute);
    if (hashed === undefined) {
      this.#cache.delete(path);
      return undefined;
    }
    this.#cache.set(path, { stamp: hashed.stamp, version: hashed.version, trusted: hashed.trusted });
    return { key: path, version: hashed.version, size: hashed.size };
  }
}
