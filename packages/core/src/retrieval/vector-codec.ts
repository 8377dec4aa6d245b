// Why: vectors are kept with the memory on every store, so their bytes must be small and exact on
// every backend. A shard document holds vectors normalised and quantised to int8 (one scale per
// vector, chosen so the stored vector has length 1): a 512-dimension vector takes 532 bytes
// instead of 2 KiB of float32 (or ~10 KiB of JSON), and cosine similarity changes by less than
// 0.01. The layout is versioned by its magic bytes.
import { RepomemError } from '../errors.js';

/** A vector as stored: int8 components and the factor that makes them a unit vector. */
export interface QuantizedVector {
  /** Chunk content hash (32 hex characters). */
  readonly hash: string;
  /** Multiply each component by this to get the unit vector. */
  readonly scale: number;
  /** Components, `dimensions` of them. */
  readonly values: Int8Array;
}

const MAGIC = 0x31564d52; // "RMV1" little-endian
const HEADER_BYTES = 12;
const HASH_BYTES = 16;

/** Quantise `vector` (any length, normalised here) to int8 with one scale. */
export function quantizeVector(hash: string, vector: ArrayLike<number>): QuantizedVector {
  let max = 0;
  let norm = 0;
  for (let index = 0; index < vector.length; index += 1) {
    const value = vector[index] as number;
    norm += value * value;
    max = Math.max(max, Math.abs(value));
  }
  const values = new Int8Array(vector.length);
  if (max === 0 || norm === 0) return { hash, scale: 0, values };
  let quantizedNorm = 0;
  for (let index = 0; index < vector.length; index += 1) {
    const value = Math.round(((vector[index] as number) / max) * 127);
    values[index] = value;
    quantizedNorm += value * value;
  }
  return { hash, scale: 1 / Math.sqrt(quantizedNorm), values };
}

/** Bytes of a shard holding `vectors` (sorted by hash), all of length `dimensions`. */
export function encodeVectorShard(dimensions: number, vectors: readonly QuantizedVector[]): Uint8Array {
  const sorted = [...vectors].sort((left, right) => (left.hash < right.hash ? -1 : left.hash > right.hash ? 1 : 0));
  const entryBytes = HASH_BYTES + 4 + dimensions;
  const bytes = new Uint8Array(HEADER_BYTES + sorted.length * entryBytes);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, dimensions, true);
  view.setUint32(8, sorted.length, true);
  let offset = HEADER_BYTES;
  for (const vector of sorted) {
    if (vector.values.length !== dimensions) {
      throw new RepomemError(
        'EMBEDDER_MISMATCH',
        `vector of ${vector.values.length} values in a ${dimensions}-dimension shard`,
      );
    }
    bytes.set(Buffer.from(vector.hash, 'hex').subarray(0, HASH_BYTES), offset);
    view.setFloat32(offset + HASH_BYTES, vector.scale, true);
    bytes.set(new Uint8Array(vector.values.buffer, vector.values.byteOffset, dimensions), offset + HASH_BYTES + 4);
    offset += entryBytes;
  }
  return bytes;
}

/** A decoded shard: its dimension and vectors. */
export interface VectorShard {
  readonly dimensions: number;
  readonly vectors: QuantizedVector[];
}

/**
 * Decode shard bytes.
 * @throws RepomemError `INVALID_DOCUMENT` for bytes that are not a shard.
 */
export function decodeVectorShard(bytes: Uint8Array, path: string): VectorShard {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < HEADER_BYTES || view.getUint32(0, true) !== MAGIC) {
    throw new RepomemError('INVALID_DOCUMENT', `${path} is not a repomem vector shard`, { details: { path } });
  }
  const dimensions = view.getUint32(4, true);
  const count = view.getUint32(8, true);
  const entryBytes = HASH_BYTES + 4 + dimensions;
  if (dimensions === 0 || bytes.byteLength !== HEADER_BYTES + count * entryBytes) {
    throw new RepomemError('INVALID_DOCUMENT', `${path} is a truncated vector shard`, { details: { path } });
  }
  // One copy of the shard; each vector is a view into it (no allocation per vector's values).
  const own = bytes.slice();
  const ownView = new DataView(own.buffer);
  const vectors: QuantizedVector[] = [];
  for (let index = 0, offset = HEADER_BYTES; index < count; index += 1, offset += entryBytes) {
    vectors.push({
      hash: Buffer.from(own.buffer, offset, HASH_BYTES).toString('hex'),
      scale: ownView.getFloat32(offset + HASH_BYTES, true),
      values: new Int8Array(own.buffer, offset + HASH_BYTES + 4, dimensions),
    });
  }
  return { dimensions, vectors };
}

/** Cosine similarity of a unit query vector and a stored vector. */
export function cosineToStored(query: Float32Array, stored: QuantizedVector): number {
  const values = stored.values;
  let sum = 0;
  for (let index = 0; index < values.length; index += 1) sum += (query[index] as number) * (values[index] as number);
  return sum * stored.scale;
}
