// Why: after `git gc` nearly every object lives in a packfile, and reading a 20,000-file tree one
// object at a time through isomorphic-git (which re-lists the pack directory, probes for a loose
// file and inflates every delta base with a JavaScript zlib on each read) takes tens of seconds.
// This reader parses version-2 pack indexes once, inflates with Node's native zlib, applies deltas
// with a bounded cache of resolved bases, and reads an object's size from its entry header without
// inflating it. Anything it does not handle (an old v1 index) is left to isomorphic-git.
import { join } from 'node:path';
import { constants, inflateSync } from 'node:zlib';
import { RepomemError } from '@repomem/core';
import { errnoCode, type GitFileSystem } from '../repository/file-system.js';
import { BoundedCache } from './bounded-cache.js';
import type { GitObjectType } from './object-id.js';

/** An object read from a pack. */
export interface PackedObject {
  readonly type: GitObjectType;
  readonly content: Buffer;
}

interface PackIndex {
  readonly count: number;
  readonly fanout: Uint32Array;
  readonly bytes: Buffer;
  readonly oidsAt: number;
  readonly offsetsAt: number;
  readonly largeOffsetsAt: number;
}

interface PackFile {
  readonly name: string;
  readonly index: PackIndex;
  pack?: Promise<Buffer>;
}

const TYPES: Record<number, GitObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const OFS_DELTA = 6;
const REF_DELTA = 7;

function corrupt(what: string): RepomemError {
  return new RepomemError('INVALID_DOCUMENT', `corrupt git pack: ${what}`);
}

/** Parse a version-2 `.idx`; `undefined` for other versions (left to isomorphic-git). */
function parseIndex(bytes: Buffer): PackIndex | undefined {
  if (bytes.length < 8 + 1024 || bytes.readUInt32BE(0) !== 0xff744f63 || bytes.readUInt32BE(4) !== 2) return undefined;
  const fanout = new Uint32Array(256);
  for (let i = 0; i < 256; i += 1) fanout[i] = bytes.readUInt32BE(8 + i * 4);
  const count = fanout[255] ?? 0;
  const oidsAt = 8 + 1024;
  const offsetsAt = oidsAt + count * 20 + count * 4;
  return { count, fanout, bytes, oidsAt, offsetsAt, largeOffsetsAt: offsetsAt + count * 4 };
}

function findOffset(index: PackIndex, oid: Buffer): number | undefined {
  const first = oid[0] ?? 0;
  let low = first === 0 ? 0 : (index.fanout[first - 1] ?? 0);
  let high = index.fanout[first] ?? 0;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const at = index.oidsAt + middle * 20;
    const order = Buffer.compare(index.bytes.subarray(at, at + 20), oid);
    if (order === 0) {
      const small = index.bytes.readUInt32BE(index.offsetsAt + middle * 4);
      if ((small & 0x80000000) === 0) return small;
      return Number(index.bytes.readBigUInt64BE(index.largeOffsetsAt + (small & 0x7fffffff) * 8));
    }
    if (order < 0) low = middle + 1;
    else high = middle;
  }
  return undefined;
}

function readVarint(delta: Buffer, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  let position = at;
  for (;;) {
    const byte = delta[position++];
    if (byte === undefined) throw corrupt('truncated delta header');
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0) return [value, position];
  }
}

/** The target size a delta declares, or `undefined` when `delta` is too short to tell. */
function deltaTargetSize(delta: Buffer): number | undefined {
  let at = 0;
  for (let varint = 0; varint < 2; varint += 1) {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = delta[at++];
      if (byte === undefined) return undefined;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if ((byte & 0x80) === 0) break;
    }
    if (varint === 1) return value;
  }
  return undefined;
}

/** Apply a git delta to `base`. */
export function applyDelta(delta: Buffer, base: Buffer): Buffer {
  const [sourceSize, afterSource] = readVarint(delta, 0);
  const [targetSize, start] = readVarint(delta, afterSource);
  if (sourceSize !== base.length) throw corrupt('delta base size mismatch');
  const out = Buffer.allocUnsafe(targetSize);
  let written = 0;
  let at = start;
  while (at < delta.length) {
    const op = delta[at++] as number;
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      if (op & 0x01) offset += delta[at++] as number;
      if (op & 0x02) offset += (delta[at++] as number) * 0x100;
      if (op & 0x04) offset += (delta[at++] as number) * 0x10000;
      if (op & 0x08) offset += (delta[at++] as number) * 0x1000000;
      if (op & 0x10) size += delta[at++] as number;
      if (op & 0x20) size += (delta[at++] as number) * 0x100;
      if (op & 0x40) size += (delta[at++] as number) * 0x10000;
      if (size === 0) size = 0x10000;
      if (offset + size > base.length || written + size > targetSize) throw corrupt('delta copy out of range');
      base.copy(out, written, offset, offset + size);
      written += size;
    } else if (op > 0) {
      if (at + op > delta.length || written + op > targetSize) throw corrupt('delta insert out of range');
      delta.copy(out, written, at, at + op);
      at += op;
      written += op;
    } else {
      throw corrupt('delta opcode 0');
    }
  }
  if (written !== targetSize) throw corrupt('delta result size mismatch');
  return out;
}

interface EntryHeader {
  readonly type: number;
  readonly size: number;
  readonly dataAt: number;
  readonly baseOffset?: number;
  readonly baseOid?: string;
}

function readEntryHeader(pack: Buffer, offset: number): EntryHeader {
  let at = offset;
  let byte = pack[at++];
  if (byte === undefined) throw corrupt(`offset ${offset} beyond the pack`);
  const type = (byte >> 4) & 7;
  let size = byte & 0x0f;
  let shift = 4;
  while (byte & 0x80) {
    byte = pack[at++] as number;
    size += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  }
  if (type === OFS_DELTA) {
    byte = pack[at++] as number;
    let back = byte & 0x7f;
    while (byte & 0x80) {
      byte = pack[at++] as number;
      back = (back + 1) * 128 + (byte & 0x7f);
    }
    return { type, size, dataAt: at, baseOffset: offset - back };
  }
  if (type === REF_DELTA) return { type, size, dataAt: at + 20, baseOid: pack.toString('hex', at, at + 20) };
  return { type, size, dataAt: at };
}

/** Reads objects from the repository's packfiles. */
export class PackReader {
  readonly #fs: GitFileSystem;
  readonly #directory: string;
  readonly #readExternal: (oid: string) => Promise<PackedObject>;
  #packs: PackFile[] = [];
  #listing = '';
  /** Resolved pack entries by `<pack>:<offset>`, bounded by total bytes. */
  readonly #resolved = new BoundedCache<string, PackedObject>(64 * 1024 * 1024, (value) => value.content.length + 64);

  /** `readExternal` resolves a ref-delta base that is not in the same pack. */
  constructor(fs: GitFileSystem, objectsDir: string, readExternal: (oid: string) => Promise<PackedObject>) {
    this.#fs = fs;
    this.#directory = join(objectsDir, 'pack');
    this.#readExternal = readExternal;
  }

  /**
   * Re-list the pack directory; returns true when the set of packs changed (then a lookup that
   * missed may succeed). Also reports whether any pack is v1 (unsupported here).
   */
  async refresh(): Promise<{ changed: boolean; unsupported: boolean }> {
    let names: string[];
    try {
      names = (await this.#fs.promises.readdir(this.#directory)).filter((name) => name.endsWith('.idx')).sort();
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') names = [];
      else throw error;
    }
    const listing = names.join('\n');
    if (listing === this.#listing) return { changed: false, unsupported: false };
    const known = new Map(this.#packs.map((pack) => [pack.name, pack]));
    const packs: PackFile[] = [];
    let unsupported = false;
    for (const name of names) {
      const existing = known.get(name);
      if (existing !== undefined) {
        packs.push(existing);
        continue;
      }
      let bytes: Uint8Array;
      try {
        bytes = await this.#fs.promises.readFile(join(this.#directory, name));
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') continue; // removed by a concurrent gc
        throw error;
      }
      const index = parseIndex(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      if (index === undefined) unsupported = true;
      else packs.push({ name: name.slice(0, -'.idx'.length), index });
    }
    this.#packs = packs;
    this.#listing = listing;
    return { changed: true, unsupported };
  }

  /** The object from a known pack, or `undefined` when no known pack has it. */
  async read(oid: string): Promise<PackedObject | undefined> {
    const found = this.#locate(oid);
    if (found === undefined) return undefined;
    try {
      return await this.#resolve(found.pack, found.offset);
    } catch (error) {
      return this.#vanished(error);
    }
  }

  /** A pack removed by `git gc` since it was indexed: forget the listing so the next refresh re-reads it. */
  #vanished(error: unknown): undefined {
    if (errnoCode(error) !== 'ENOENT') throw error;
    this.#listing = '\0stale';
    return undefined;
  }

  /** Content size of the object, from its entry header (deltas: the delta's target size), or `undefined`. */
  async size(oid: string): Promise<number | undefined> {
    const found = this.#locate(oid);
    if (found === undefined) return undefined;
    const cached = this.#resolved.get(`${found.pack.name}:${found.offset}`);
    if (cached !== undefined) return cached.content.length;
    let pack: Buffer;
    try {
      pack = await this.#packBytes(found.pack);
    } catch (error) {
      return this.#vanished(error);
    }
    const header = readEntryHeader(pack, found.offset);
    if (header.type !== OFS_DELTA && header.type !== REF_DELTA) return header.size;
    // The target size is the second varint of the delta: inflate just enough input to reach it.
    for (const input of [64, 1024, 16_384, Number.POSITIVE_INFINITY]) {
      const end = Math.min(pack.length, header.dataAt + input);
      const delta = inflateSync(pack.subarray(header.dataAt, end), { finishFlush: constants.Z_SYNC_FLUSH });
      const target = deltaTargetSize(delta);
      if (target !== undefined) return target;
      if (end === pack.length) break;
    }
    throw corrupt(`delta at ${found.offset} of ${found.pack.name} has no size header`);
  }

  #locate(oid: string): { pack: PackFile; offset: number } | undefined {
    const key = Buffer.from(oid, 'hex');
    for (const pack of this.#packs) {
      const offset = findOffset(pack.index, key);
      if (offset !== undefined) return { pack, offset };
    }
    return undefined;
  }

  #packBytes(pack: PackFile): Promise<Buffer> {
    pack.pack ??= this.#fs.promises
      .readFile(join(this.#directory, `${pack.name}.pack`))
      .then((bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    const loading = pack.pack;
    loading.catch(() => {
      if (pack.pack === loading) delete pack.pack;
    });
    return loading;
  }

  async #resolve(pack: PackFile, offset: number): Promise<PackedObject> {
    const key = `${pack.name}:${offset}`;
    const cached = this.#resolved.get(key);
    if (cached !== undefined) return cached;
    const bytes = await this.#packBytes(pack);
    const header = readEntryHeader(bytes, offset);
    const data = inflateSync(bytes.subarray(header.dataAt));
    if (data.length !== header.size) throw corrupt(`entry at ${offset} of ${pack.name} has the wrong size`);
    let result: PackedObject;
    if (header.baseOffset !== undefined || header.baseOid !== undefined) {
      const base =
        header.baseOffset !== undefined
          ? await this.#resolve(pack, header.baseOffset)
          : await this.#readExternal(header.baseOid as string);
      result = { type: base.type, content: applyDelta(data, base.content) };
    } else {
      const type = TYPES[header.type];
      if (type === undefined) throw corrupt(`unknown entry type ${header.type} at ${offset} of ${pack.name}`);
      result = { type, content: data };
    }
    this.#resolved.set(key, result);
    return result;
  }
}
