// Why: vectors are derived data that must travel with the memory (a CI runner that checks out the
// memory must not re-embed it), and every store already keeps documents, so they are documents:
// a content-addressed index under `.repomem/vectors/<embedder>/` that search never returns.
// Vectors sit in 256 shards by the first byte of the chunk hash (a changed chunk rewrites one
// shard), and a manifest, sharded by path, says which chunk hashes each document version has
// (an unchanged document is never read again to be re-chunked). Shards are read once per version
// and kept decoded in memory. Every write is a compare-and-swap merge that is re-run on a
// conflict, so two indexers never lose each other's vectors.
import { z } from 'zod';
import { RepomemError } from '../errors.js';
import type { MemoryStore, WriteOperation } from '../store/contract.js';
import { chunkHash } from './chunks.js';
import { decodeVectorShard, encodeVectorShard, type QuantizedVector } from './vector-codec.js';

/** Where all vector indexes live (inside repomem's reserved, never-searched prefix). */
export const VECTOR_INDEX_PREFIX = '.repomem/vectors/';

/** A document's chunk hashes at one version. */
export interface ManifestEntry {
  readonly version: string;
  readonly chunks: readonly string[];
}

// Built on first use: a schema built at module load would put zod in the start of every command
// that bundles core (the CLI binary), semantic or not.
let schemas: { manifest: ReturnType<typeof manifestSchema>; meta: ReturnType<typeof metaSchema> } | undefined;
function manifestSchema() {
  return z.object({
    format: z.literal(1),
    documents: z.record(z.string(), z.object({ v: z.string(), c: z.array(z.string().regex(/^[0-9a-f]{32}$/)) })),
  });
}
function metaSchema() {
  return z.object({ format: z.literal(1), embedderId: z.string(), dimensions: z.number().int().positive() });
}
function schemasOf() {
  schemas ??= { manifest: manifestSchema(), meta: metaSchema() };
  return schemas;
}

/**
 * The folder of an embedder's index: its id lower-cased with other characters replaced, plus 8
 * hex characters of its hash, so two ids never share a folder and every store accepts the path.
 */
export function vectorIndexFolder(embedderId: string): string {
  const readable = embedderId
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .replace(/[.-]+$/, '')
    .slice(0, 60);
  return `${VECTOR_INDEX_PREFIX}${readable === '' ? 'embedder' : readable}-${chunkHash(embedderId).slice(0, 8)}/`;
}

const encoder = /* @__PURE__ */ new TextEncoder();
const decoder = /* @__PURE__ */ new TextDecoder();
const MAX_WRITE_ATTEMPTS = 12;

/** One document to rewrite from its current bytes (`null` deletes it, `undefined` leaves it). */
interface Edit {
  readonly path: string;
  readonly apply: (current: Uint8Array | undefined) => Uint8Array | null | undefined;
}

/** The stored vectors and manifest of one embedder on one store, with decoded-shard caches. */
export class VectorIndexStore {
  readonly root: string;
  private readonly shards = new Map<string, { version: string; vectors: Map<string, QuantizedVector> }>();
  private readonly manifestShards = new Map<string, { version: string; documents: Map<string, ManifestEntry> }>();
  private metaChecked = false;

  constructor(
    private readonly store: MemoryStore,
    readonly embedderId: string,
    readonly dimensions: number,
  ) {
    this.root = vectorIndexFolder(embedderId);
  }

  private shardPath(prefix: string): string {
    return `${this.root}v/${prefix}.bin`;
  }

  private manifestPath(prefix: string): string {
    return `${this.root}m/${prefix}.json`;
  }

  /**
   * Check the index's description against the embedder (and write it when `create`).
   * @throws RepomemError `EMBEDDER_MISMATCH` when the folder holds another model's vectors.
   */
  async checkMeta(create: boolean): Promise<void> {
    if (this.metaChecked) return;
    const path = `${this.root}index.json`;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const current = await this.store.get(path);
      if (current !== undefined) {
        const parsed = schemasOf().meta.safeParse(safeJson(current.content));
        if (!parsed.success) throw new RepomemError('INVALID_DOCUMENT', `${path} is not a vector index description`);
        if (parsed.data.embedderId !== this.embedderId || parsed.data.dimensions !== this.dimensions) {
          throw new RepomemError(
            'EMBEDDER_MISMATCH',
            `the vectors in ${this.root} were made by ${parsed.data.embedderId} with ${parsed.data.dimensions} dimensions, not ${this.embedderId} with ${this.dimensions}: give the changed model a new id (vectors of two models are never compared)`,
            { details: { stored: parsed.data, embedderId: this.embedderId, dimensions: this.dimensions } },
          );
        }
        this.metaChecked = true;
        return;
      }
      if (!create) return;
      const body = { format: 1, embedderId: this.embedderId, dimensions: this.dimensions };
      const result = await this.store.write(
        [{ kind: 'put', path, content: encoder.encode(`${JSON.stringify(body, null, 2)}\n`), expectedVersion: null }],
        { message: `chore(memory): vector index for ${this.embedderId}` },
      );
      if (result.status === 'committed') {
        this.metaChecked = true;
        return;
      }
    }
  }

  /** Load (or refresh from the store) the vector shards of these hash prefixes, or all. */
  async loadShards(prefixes?: ReadonlySet<string>): Promise<void> {
    const listed = await this.store.list(`${this.root}v/`);
    const wanted = new Map<string, string>();
    for (const entry of listed) {
      const prefix = entry.path.slice(this.root.length + 2, -4);
      if (prefixes !== undefined && !prefixes.has(prefix)) continue;
      wanted.set(prefix, entry.version);
    }
    if (prefixes === undefined) {
      for (const prefix of this.shards.keys()) if (!wanted.has(prefix)) this.shards.delete(prefix);
    } else {
      for (const prefix of prefixes) if (!wanted.has(prefix)) this.shards.delete(prefix);
    }
    const stale = [...wanted].filter(([prefix, version]) => this.shards.get(prefix)?.version !== version);
    const documents = await readMany(
      this.store,
      stale.map(([prefix]) => this.shardPath(prefix)),
    );
    stale.forEach(([prefix], index) => {
      const document = documents[index];
      if (document === undefined) {
        this.shards.delete(prefix);
        return;
      }
      this.shards.set(prefix, {
        version: document.version,
        vectors: this.decodeShard(document.content, document.path),
      });
    });
  }

  private decodeShard(content: Uint8Array, path: string): Map<string, QuantizedVector> {
    const shard = decodeVectorShard(content, path);
    if (shard.dimensions !== this.dimensions) {
      throw new RepomemError(
        'EMBEDDER_MISMATCH',
        `${path} holds ${shard.dimensions}-dimension vectors, not ${this.dimensions}`,
      );
    }
    return new Map(shard.vectors.map((vector) => [vector.hash, vector]));
  }

  /** The stored vector of a chunk hash, from the loaded shards. */
  vector(hash: string): QuantizedVector | undefined {
    return this.shards.get(hash.slice(0, 2))?.vectors.get(hash);
  }

  /** Versions of the loaded shards, in prefix order (a cache key for derived matrices). */
  shardVersions(): string {
    return [...this.shards.entries()]
      .sort(([left], [right]) => (left < right ? -1 : 1))
      .map(([prefix, shard]) => `${prefix}:${shard.version}`)
      .join(',');
  }

  /** Every document's manifest entry, re-reading only the manifest shards that changed. */
  async loadManifest(): Promise<Map<string, ManifestEntry>> {
    const listed = await this.store.list(`${this.root}m/`);
    const current = new Map(listed.map((entry) => [entry.path.slice(this.root.length + 2, -5), entry.version]));
    for (const prefix of this.manifestShards.keys()) if (!current.has(prefix)) this.manifestShards.delete(prefix);
    const stale = [...current].filter(([prefix, version]) => this.manifestShards.get(prefix)?.version !== version);
    const documents = await readMany(
      this.store,
      stale.map(([prefix]) => this.manifestPath(prefix)),
    );
    stale.forEach(([prefix], index) => {
      const document = documents[index];
      if (document === undefined) this.manifestShards.delete(prefix);
      else this.manifestShards.set(prefix, { version: document.version, documents: parseManifest(document.content) });
    });
    const all = new Map<string, ManifestEntry>();
    for (const shard of this.manifestShards.values()) for (const [path, entry] of shard.documents) all.set(path, entry);
    return all;
  }

  /**
   * Store new vectors, drop vectors by hash and set or delete manifest entries, as one batch of
   * compare-and-swap merges (re-run on the current bytes after a conflict).
   */
  async apply(change: {
    readonly add?: readonly QuantizedVector[];
    readonly remove?: ReadonlySet<string>;
    readonly manifest?: ReadonlyMap<string, ManifestEntry | null>;
  }): Promise<void> {
    const byShard = new Map<string, { add: QuantizedVector[]; remove: string[] }>();
    const shardOf = (hash: string) => {
      const prefix = hash.slice(0, 2);
      let entry = byShard.get(prefix);
      if (entry === undefined) {
        entry = { add: [], remove: [] };
        byShard.set(prefix, entry);
      }
      return entry;
    };
    for (const vector of change.add ?? []) shardOf(vector.hash).add.push(vector);
    for (const hash of change.remove ?? []) shardOf(hash).remove.push(hash);
    const edits: Edit[] = [];
    for (const [prefix, { add, remove }] of byShard) {
      edits.push({
        path: this.shardPath(prefix),
        apply: (current) => {
          const vectors =
            current === undefined
              ? new Map<string, QuantizedVector>()
              : this.decodeShard(current, this.shardPath(prefix));
          const before = vectors.size;
          let changed = false;
          for (const vector of add) {
            if (!vectors.has(vector.hash)) changed = true;
            vectors.set(vector.hash, vector);
          }
          for (const hash of remove) changed = vectors.delete(hash) || changed;
          if (!changed && current !== undefined) return undefined;
          if (vectors.size === 0) return before === 0 && current === undefined ? undefined : null;
          return encodeVectorShard(this.dimensions, [...vectors.values()]);
        },
      });
    }
    const byManifest = new Map<string, Array<[string, ManifestEntry | null]>>();
    for (const [path, entry] of change.manifest ?? []) {
      const prefix = chunkHash(path).slice(0, 2);
      const list = byManifest.get(prefix) ?? [];
      list.push([path, entry]);
      byManifest.set(prefix, list);
    }
    for (const [prefix, entries] of byManifest) {
      edits.push({
        path: this.manifestPath(prefix),
        apply: (current) => {
          const documents = current === undefined ? new Map<string, ManifestEntry>() : parseManifest(current);
          for (const [path, entry] of entries) {
            if (entry === null) documents.delete(path);
            else documents.set(path, entry);
          }
          if (documents.size === 0) return current === undefined ? undefined : null;
          return encodeManifest(documents);
        },
      });
    }
    if (edits.length > 0) await this.applyEdits(edits);
  }

  private async applyEdits(edits: readonly Edit[]): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      const currents = await readMany(
        this.store,
        edits.map((edit) => edit.path),
      );
      const operations: WriteOperation[] = [];
      const written = new Map<string, Uint8Array>();
      edits.forEach((edit, index) => {
        const current = currents[index];
        const next = edit.apply(current?.content);
        if (next === undefined) return;
        const expectedVersion = current?.version ?? null;
        if (next === null) {
          if (current !== undefined) operations.push({ kind: 'delete', path: edit.path, expectedVersion });
          return;
        }
        operations.push({ kind: 'put', path: edit.path, content: next, expectedVersion });
        written.set(edit.path, next);
      });
      if (operations.length === 0) return;
      const result = await this.store.write(operations, {
        message: `chore(memory): vectors for ${this.embedderId}`,
      });
      if (result.status === 'committed') {
        for (const [path, version] of Object.entries(result.versions)) this.remember(path, version, written.get(path));
        return;
      }
      if (attempt >= MAX_WRITE_ATTEMPTS) {
        throw new RepomemError('CONFLICT', `vector index writes kept conflicting in ${this.root}`, {
          details: { conflicts: result.conflicts.map((conflict) => conflict.path) },
        });
      }
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }

  private remember(path: string, version: string | null, content: Uint8Array | undefined): void {
    const isShard = path.startsWith(`${this.root}v/`);
    const prefix = isShard ? path.slice(this.root.length + 2, -4) : path.slice(this.root.length + 2, -5);
    if (version === null || content === undefined) {
      if (isShard) this.shards.delete(prefix);
      else this.manifestShards.delete(prefix);
      return;
    }
    if (isShard) this.shards.set(prefix, { version, vectors: this.decodeShard(content, path) });
    else this.manifestShards.set(prefix, { version, documents: parseManifest(content) });
  }
}

function safeJson(content: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(content));
  } catch {
    return undefined;
  }
}

function parseManifest(content: Uint8Array): Map<string, ManifestEntry> {
  const parsed = schemasOf().manifest.safeParse(safeJson(content));
  // A damaged manifest shard only costs re-reading its documents; it is rewritten on refresh.
  if (!parsed.success) return new Map();
  return new Map(
    Object.entries(parsed.data.documents).map(([path, entry]) => [path, { version: entry.v, chunks: entry.c }]),
  );
}

function encodeManifest(documents: ReadonlyMap<string, ManifestEntry>): Uint8Array {
  const sorted = [...documents.keys()].sort();
  const body: Record<string, { v: string; c: readonly string[] }> = {};
  for (const path of sorted) {
    const entry = documents.get(path) as ManifestEntry;
    body[path] = { v: entry.version, c: entry.chunks };
  }
  return encoder.encode(`${JSON.stringify({ format: 1, documents: body })}\n`);
}

/** `get` of each path, through `getMany` in slices when the store has it. */
export async function readMany(store: MemoryStore, paths: readonly string[]) {
  if (paths.length === 0) return [];
  if (store.getMany === undefined) return Promise.all(paths.map((path) => store.get(path)));
  const out = [];
  for (let start = 0; start < paths.length; start += 200)
    out.push(...(await store.getMany(paths.slice(start, start + 200))));
  return out;
}
