// Why: one gateway to the repository's object database. Loose objects are read directly (zlib,
// hash verified); packed objects (after `git gc`) through isomorphic-git, which resolves packs and
// deltas. Writes are loose objects written to a temp file and renamed into place, as git does, so
// a writer killed mid-write can never leave a truncated object that a later write would trust
// (isomorphic-git's own writer writes in place and skips existing files).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { constants, deflateSync, inflateSync } from 'node:zlib';
import { RepomemError } from '@repomem/core';
import * as git from 'isomorphic-git';
import {
  errnoCode,
  type GitFileSystem,
  makeDirectoryWhilePruned,
  readFileIfExists,
  statIfExists,
  writeExclusive,
} from '../repository/file-system.js';
import { BoundedCache } from './bounded-cache.js';
import { type ParsedCommit, parseCommit } from './commit-object.js';
import { EMPTY_TREE_OID, frameObject, type GitObjectType, hashObject } from './object-id.js';
import { PackReader } from './pack-reader.js';
import { parseTree, type TreeEntry } from './tree-object.js';

/** How many times an object write is tried when its fan-out directory vanishes under it (`git gc`). */
const OBJECT_WRITE_ATTEMPTS = 8;

/** A raw object read from the database. */
export interface GitObject {
  readonly type: GitObjectType;
  readonly content: Uint8Array;
}

/** Reads and writes objects of one repository; caches parsed trees (immutable by id). */
export class GitObjectStore {
  readonly #fs: GitFileSystem;
  readonly #commondir: string;
  readonly #objectsDir: string;
  readonly #durable: boolean;
  readonly #packs: PackReader;
  #packsListed = false;
  /** Set when a pack this reader cannot parse exists (v1 index): misses then go through isomorphic-git. */
  #legacyPacks = false;
  /** isomorphic-git's cache (pack indexes and packs), kept for the life of the store. */
  readonly #packCache: object = {};
  /** Parsed trees, bounded by their total entry count (about 30 MB at most). */
  readonly #trees = new BoundedCache<string, TreeEntry[]>(250_000, (entries) => entries.length + 1);
  readonly #sizes = new BoundedCache<string, number>(250_000);
  readonly #commits = new BoundedCache<string, ParsedCommit>(4096);

  constructor(fs: GitFileSystem, commondir: string, durable: boolean) {
    this.#fs = fs;
    this.#commondir = commondir;
    this.#objectsDir = join(commondir, 'objects');
    this.#durable = durable;
    this.#packs = new PackReader(fs, this.#objectsDir, (oid) =>
      this.read(oid).then((object) => ({ type: object.type, content: Buffer.from(object.content) })),
    );
  }

  /**
   * Read an object: from a known pack (no file system access once its index is loaded), else
   * the loose file, else from packs that appeared since (a `git gc` ran). Throws `NOT_FOUND`.
   */
  async read(oid: string): Promise<GitObject> {
    if (oid === EMPTY_TREE_OID) return { type: 'tree', content: new Uint8Array(0) };
    await this.#listPacksOnce();
    const packed = await this.#packs.read(oid);
    if (packed !== undefined) return packed;
    const loose = await readFileIfExists(this.#fs, this.#loosePath(oid));
    if (loose !== undefined) return this.#decodeLoose(oid, loose);
    if (await this.#refreshPacks()) {
      const repacked = await this.#packs.read(oid);
      if (repacked !== undefined) return repacked;
    }
    if (this.#legacyPacks) return this.#readThroughIsomorphicGit(oid);
    throw new RepomemError('NOT_FOUND', `git object ${oid} is missing from the repository`, { details: { oid } });
  }

  async #listPacksOnce(): Promise<void> {
    if (this.#packsListed) return;
    await this.#refreshPacks();
    this.#packsListed = true;
  }

  async #refreshPacks(): Promise<boolean> {
    const { changed, unsupported } = await this.#packs.refresh();
    if (unsupported) this.#legacyPacks = true;
    return changed;
  }

  async #readThroughIsomorphicGit(oid: string): Promise<GitObject> {
    try {
      const result = await git.readObject({
        fs: this.#fs as unknown as git.PromiseFsClient,
        gitdir: this.#commondir,
        oid,
        format: 'content',
        cache: this.#packCache,
      });
      return { type: result.type as GitObjectType, content: result.object as Uint8Array };
    } catch (error) {
      if (error instanceof Error && error.name === 'NotFoundError') {
        throw new RepomemError('NOT_FOUND', `git object ${oid} is missing from the repository`, {
          cause: error,
          details: { oid },
        });
      }
      throw error;
    }
  }

  /**
   * Size in bytes of object `oid`'s content (cached). For a loose object only the start is
   * inflated to read the header, so listing a large tree does not decompress every blob.
   */
  async size(oid: string): Promise<number> {
    const cached = this.#sizes.get(oid);
    if (cached !== undefined) return cached;
    await this.#listPacksOnce();
    let size = await this.#packs.size(oid);
    const loose = size === undefined ? await readFileIfExists(this.#fs, this.#loosePath(oid)) : undefined;
    if (loose !== undefined) {
      try {
        const head = inflateSync(loose.subarray(0, 64), { finishFlush: constants.Z_SYNC_FLUSH });
        const match = /^(?:blob|tree|commit|tag) (\d+)\0/.exec(head.toString('latin1', 0, Math.min(head.length, 40)));
        if (match !== null) size = Number(match[1]);
      } catch {
        size = undefined;
      }
    }
    size ??= (await this.read(oid)).content.byteLength;
    this.#sizes.set(oid, size);
    return size;
  }

  /** Read an object that must be of `type`. */
  async readTyped(oid: string, type: GitObjectType): Promise<Uint8Array> {
    const object = await this.read(oid);
    if (object.type !== type) {
      throw new RepomemError('INVALID_DOCUMENT', `git object ${oid} is a ${object.type}, expected a ${type}`, {
        details: { oid },
      });
    }
    return object.content;
  }

  /** The parsed entries of tree `oid` (cached; callers must not mutate the array). */
  async readTree(oid: string): Promise<readonly TreeEntry[]> {
    const cached = this.#trees.get(oid);
    if (cached !== undefined) return cached;
    const entries = parseTree(await this.readTyped(oid, 'tree'), oid);
    this.#trees.set(oid, entries);
    return entries;
  }

  /** The parsed commit `oid` (cached). Throws `INVALID_DOCUMENT` when it is not a commit. */
  async readCommit(oid: string): Promise<ParsedCommit> {
    const cached = this.#commits.get(oid);
    if (cached !== undefined) return cached;
    const commit = parseCommit(oid, await this.readTyped(oid, 'commit'));
    this.#commits.set(oid, commit);
    return commit;
  }

  /** The commit `oid` names, peeling annotated tags. Throws `INVALID_DOCUMENT` for a tree or blob. */
  async peelToCommit(oid: string): Promise<string> {
    let current = oid;
    for (let depth = 0; depth < 10; depth += 1) {
      if (this.#commits.get(current) !== undefined) return current;
      const object = await this.read(current);
      if (object.type === 'commit') {
        this.#commits.set(current, parseCommit(current, object.content));
        return current;
      }
      if (object.type !== 'tag') break;
      const target = /^object ([0-9a-f]{40})$/m.exec(Buffer.from(object.content).toString('latin1'));
      if (target?.[1] === undefined) break;
      current = target[1];
    }
    throw new RepomemError('INVALID_DOCUMENT', `${oid} does not name a commit`, { details: { oid } });
  }

  /** Expand an abbreviated object id (4 to 39 hex digits). Throws `NOT_FOUND` or `INVALID_ARGUMENT` (ambiguous). */
  async expandOid(prefix: string): Promise<string> {
    try {
      return await git.expandOid({
        fs: this.#fs as unknown as git.PromiseFsClient,
        gitdir: this.#commondir,
        oid: prefix,
        cache: this.#packCache,
      });
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if (name === 'AmbiguousError') {
        throw new RepomemError('INVALID_ARGUMENT', `abbreviated id ${prefix} is ambiguous; give more digits`, {
          cause: error,
          details: { oid: prefix },
        });
      }
      throw new RepomemError('NOT_FOUND', `no object matches ${prefix}`, { cause: error, details: { oid: prefix } });
    }
  }

  /**
   * Write an object and return its id. An existing loose object is kept (it was renamed into
   * place complete); the existence check runs every time, so objects pruned by `git gc` since
   * are written again rather than assumed.
   */
  async write(type: GitObjectType, content: Uint8Array): Promise<string> {
    const oid = hashObject(type, content);
    const path = this.#loosePath(oid);
    if ((await statIfExists(this.#fs, path)) !== undefined) return oid;
    const directory = join(this.#objectsDir, oid.slice(0, 2));
    const deflated = deflateSync(frameObject(type, content), { level: 1 });
    // `git gc`, `git repack -d` and `git prune` remove empty fan-out directories: one can vanish
    // between our mkdir and our open or rename (ENOENT). Nothing is lost then: re-create the
    // directory and write again, a bounded number of times.
    for (let attempt = 1; ; attempt += 1) {
      await makeDirectoryWhilePruned(this.#fs, directory);
      const temp = join(directory, `tmp_obj_${randomBytes(6).toString('hex')}`);
      try {
        await writeExclusive(this.#fs, temp, deflated, { mode: 0o444, durable: this.#durable });
        await this.#fs.promises.rename(temp, path);
        return oid;
      } catch (error) {
        await this.#fs.promises.unlink(temp).catch(() => undefined);
        if (errnoCode(error) !== 'ENOENT' || attempt >= OBJECT_WRITE_ATTEMPTS) throw error;
      }
    }
  }

  /** Write a tree whose entries are already in git order; the parsed form is cached. */
  async writeTree(entries: TreeEntry[], serialized: Uint8Array): Promise<string> {
    const oid = await this.write('tree', serialized);
    this.#trees.set(oid, entries);
    return oid;
  }

  /** Forget cached state (used by `close()`). */
  clear(): void {
    this.#trees.clear();
    this.#sizes.clear();
    this.#commits.clear();
  }

  #loosePath(oid: string): string {
    return join(this.#objectsDir, oid.slice(0, 2), oid.slice(2));
  }

  #decodeLoose(oid: string, deflated: Uint8Array): GitObject {
    let raw: Buffer;
    try {
      raw = inflateSync(deflated);
    } catch (error) {
      throw new RepomemError('INVALID_DOCUMENT', `corrupt loose git object ${oid} (cannot inflate)`, {
        cause: error,
        details: { oid },
      });
    }
    const nul = raw.indexOf(0);
    const header = nul < 0 ? '' : raw.toString('latin1', 0, nul);
    const match = /^(blob|tree|commit|tag) (\d+)$/.exec(header);
    const content = raw.subarray(nul + 1);
    if (
      match === null ||
      Number(match[2]) !== content.byteLength ||
      hashObject(match[1] as GitObjectType, content) !== oid
    ) {
      throw new RepomemError('INVALID_DOCUMENT', `corrupt loose git object ${oid} (bad header or hash)`, {
        details: { oid },
      });
    }
    return { type: match[1] as GitObjectType, content };
  }
}
