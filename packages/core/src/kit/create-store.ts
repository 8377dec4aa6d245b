// Why: everything above a storage driver, supplied once: documents with the semantics of store
// contract v2 (paths, listing, versions, batches, revision), state values, verified-memory and
// task records from the same driver (one open, one connection), and a content cache so a
// repeated one-pass read fetches only what changed. A backend author writes a driver
// (`driver.ts`) and gets a conforming `MemoryStore` from `createStore(driver)`.
import { createHash } from 'node:crypto';
import { RepomemError } from '../errors.js';
import {
  type DocumentEntry,
  type MemoryStore,
  type ReadAllOptions,
  STORE_SPECIFICATION_VERSION,
  type StoreCapabilities,
  type StoredDocument,
  type WriteMetadata,
  type WriteOperation,
  type WriteResult,
} from '../store/contract.js';
import { normalizeDocumentPath, normalizePrefix } from '../store/paths.js';
import { DEFAULT_MAX_DOCUMENT_BYTES, storeClosedError } from '../store/store-closed.js';
import type { TaskRecordBackend } from '../tasks/record-backend.js';
import type { VerifiedMemoryBackend } from '../verified/backend.js';
import { checkDriver, checkEntry } from './check-driver.js';
import type { KitDriver, KitEntry } from './driver.js';
import { createKitState } from './kit-state.js';
import { DOCUMENTS_NAMESPACE, writeDocuments } from './kit-write.js';

/** Options of {@link createStore}. */
export interface CreateStoreOptions {
  /** Largest document accepted, in bytes (default: 16 MiB or the driver's `maxValueBytes`, the smaller). */
  readonly maxDocumentBytes?: number;
  /** Bytes of document content kept to answer repeated reads of unchanged documents (default 32 MiB; 0 disables). */
  readonly cacheBytes?: number;
}

/** A store built on a driver: the store contract, plus the record facets on the same driver. */
export interface KitStore extends MemoryStore {
  /** The driver underneath (its optional capabilities are visible here). */
  readonly driver: KitDriver;
  /**
   * Verified memories kept as JSON documents under `.repomem/verified/` of this store (core's
   * document record backend, loaded on first use). Closing it does not close the store.
   */
  verifiedBackend(): Promise<VerifiedMemoryBackend>;
  /** Task records kept as JSON documents under `.repomem/tasks/` of this store. Closing it does not close the store. */
  taskRecordBackend(): Promise<TaskRecordBackend>;
}

/** Most listed keys whose path check a store remembers (then it starts again). */
const MAX_REMEMBERED_PATHS = 200_000;

/** Documents read in one `driver.read` call by `readAll` and `getMany`. */
const READ_CHUNK = 100;

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * True when `key` is a path core can read back, normalised (a driver may hold foreign keys; the
 * store's listings skip them, and a driver's own `readAll` should too).
 */
export function isDocumentPath(key: string): boolean {
  try {
    return normalizeDocumentPath(key) === key;
  } catch {
    return false;
  }
}

/**
 * Build a {@link KitStore} on `driver`.
 *
 * Guarantees, whatever the driver: every batch is validated, scanned for credentials and checked
 * for path twins before the driver sees it; versions are the SHA-256 of the content (so a
 * document copied between stores keeps its version); a batch is all-or-nothing for writers
 * (`atomicBatch` is declared only for an `atomic` driver, see {@link KitBatchGuarantee});
 * `revision()` is the driver's own token when it has the `revision` capability, else a hash of
 * the listing, computed when asked.
 *
 * @example
 * ```ts
 * const store = createStore(createInMemoryDriver());
 * await store.write([{ kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode('- a\n'), expectedVersion: null }]);
 * ```
 */
export function createStore(driver: KitDriver, options: CreateStoreOptions = {}): KitStore {
  checkDriver(driver);
  const maxDocumentBytes = options.maxDocumentBytes ?? Math.min(DEFAULT_MAX_DOCUMENT_BYTES, driver.maxValueBytes);
  if (!Number.isSafeInteger(maxDocumentBytes) || maxDocumentBytes <= 0 || maxDocumentBytes > driver.maxValueBytes) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `maxDocumentBytes must be a positive integer of at most ${driver.maxValueBytes} (the ${driver.name} driver's limit), got ${maxDocumentBytes}`,
    );
  }
  const cacheBytes = options.cacheBytes ?? 32 * 1024 * 1024;
  const capabilities: StoreCapabilities = Object.freeze({
    binarySafe: true,
    atomicDocument: true,
    atomicBatch: driver.batch === 'atomic',
    readYourWrites: true,
    compareAndSwap: 'native',
    maxDocumentBytes,
  });
  let closed = false;
  const assertOpen = (): void => {
    if (closed) throw storeClosedError(driver.name);
  };

  // Content of recently read or written documents by path, oldest first (Map order).
  const cache = new Map<string, { version: string; content: Uint8Array }>();
  let cached = 0;
  const forget = (path: string): void => {
    const slot = cache.get(path);
    if (slot === undefined) return;
    cached -= slot.content.byteLength;
    cache.delete(path);
  };
  const remember = (path: string, version: string | null, content: Uint8Array | null): void => {
    forget(path);
    if (version === null || content === null || content.byteLength > cacheBytes / 4) return;
    cache.set(path, { version, content });
    cached += content.byteLength;
    for (const [oldest] of cache) {
      if (cached <= cacheBytes) break;
      forget(oldest);
    }
  };
  const toDocument = (path: string, entry: KitEntry): StoredDocument => {
    checkEntry(driver, entry, path, true);
    const content = entry.value as Uint8Array;
    remember(path, entry.version, content);
    return { path, version: entry.version, size: content.byteLength, content: new Uint8Array(content) };
  };
  // Keys a listing already found to be document paths: a warm search lists every key before each
  // query, and checking 20,000 paths again cost about a fifth of a directory's whole listing.
  // `listedPaths` holds the passing keys of the last sorted whole listing in order, so the next
  // listing of the same keys matches each key against it by one string comparison (a fresh key
  // string has no hash yet, and a set lookup per key cost as much as the path check on SQLite);
  // `documentPaths` remembers the keys listings by prefix found.
  let listedPaths: readonly string[] = [];
  const documentPaths = new Set<string>();
  const isListedPath = (key: string, remember: boolean): boolean => {
    if (documentPaths.has(key)) return true;
    if (!isDocumentPath(key)) return false;
    if (!remember) return true;
    if (documentPaths.size >= MAX_REMEMBERED_PATHS) documentPaths.clear();
    documentPaths.add(key);
    return true;
  };
  /** Index of the first of `listedPaths` not below `prefix`. */
  const firstListed = (prefix: string): number => {
    let low = 0;
    let high = listedPaths.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((listedPaths[middle] as string) < prefix) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const listing = async (prefix: string): Promise<DocumentEntry[]> => {
    const entries = await driver.scan(DOCUMENTS_NAMESPACE, { prefix, values: false });
    const out: DocumentEntry[] = [];
    const whole = prefix === '';
    const known = listedPaths;
    // The passing keys of a whole listing, made only once it differs from `known` (until then
    // they are `known`'s first `next`).
    let passed: string[] | undefined;
    let next = prefix === '' ? 0 : firstListed(prefix);
    let previous: string | undefined;
    let sorted = true;
    for (const entry of entries) {
      // checkEntry's rules, with each field read once: a driver's rows may be dictionary-mode
      // objects (node:sqlite's are), where every property read is a lookup, and `in` finds a
      // listing's absent value at a fraction of the cost of reading it.
      if (entry === null || typeof entry !== 'object') checkEntry(driver, entry, undefined, false);
      const key = entry.key;
      const version = entry.version;
      const size = entry.size;
      if (
        typeof key !== 'string' ||
        typeof version !== 'string' ||
        version === '' ||
        ('value' in entry && entry.value !== undefined && entry.value.byteLength !== size)
      ) {
        checkEntry(driver, entry, undefined, false);
      }
      if (previous !== undefined && !(previous < key)) sorted = false;
      previous = key;
      if (prefix !== '' && !key.startsWith(prefix)) continue;
      // A key already checked is listed as the string remembered, so the fresh one dies young
      // and its users (a search index's maps) find a string whose hash is already computed.
      let path: string;
      if (key === known[next]) {
        path = known[next] as string;
        next++;
        passed?.push(path);
      } else {
        passed ??= whole ? known.slice(0, next) : [];
        while (next < known.length && (known[next] as string) < key) next++;
        if (key === known[next]) {
          path = known[next] as string;
          next++;
        } else {
          // A whole listing remembers its keys in `listedPaths` instead.
          if (!isListedPath(key, !whole)) continue;
          path = key;
        }
        passed.push(path);
      }
      out.push({ path, version, size });
    }
    if (!sorted) return out.sort(byPath);
    if (whole) {
      if (passed === undefined && next < known.length) passed = known.slice(0, next);
      if (passed !== undefined && passed.length <= MAX_REMEMBERED_PATHS) listedPaths = passed;
    }
    return out;
  };
  const readMany = async (paths: readonly string[]): Promise<(StoredDocument | undefined)[]> => {
    const out: (StoredDocument | undefined)[] = [];
    for (let start = 0; start < paths.length; start += READ_CHUNK) {
      const chunk = paths.slice(start, start + READ_CHUNK);
      const entries = await driver.read(DOCUMENTS_NAMESPACE, chunk);
      for (let index = 0; index < chunk.length; index++) {
        const entry = entries[index];
        out.push(entry === undefined ? undefined : toDocument(chunk[index] as string, entry));
      }
    }
    return out;
  };
  let records: Promise<
    [typeof import('../verified/document-backend.js'), typeof import('../tasks/document-backend.js')]
  >;
  const recordModules = () => {
    records ??= Promise.all([import('../verified/document-backend.js'), import('../tasks/document-backend.js')]);
    return records;
  };

  const store: KitStore = {
    specificationVersion: STORE_SPECIFICATION_VERSION,
    name: driver.name,
    capabilities,
    driver,
    state: createKitState(driver, assertOpen),

    async get(path: string): Promise<StoredDocument | undefined> {
      assertOpen();
      const normalized = normalizeDocumentPath(path);
      return (await readMany([normalized]))[0];
    },

    async getMany(paths: readonly string[]): Promise<(StoredDocument | undefined)[]> {
      assertOpen();
      return readMany(paths.map(normalizeDocumentPath));
    },

    async list(prefix?: string): Promise<DocumentEntry[]> {
      assertOpen();
      return listing(normalizePrefix(prefix));
    },

    async readAll(options: ReadAllOptions = {}): Promise<StoredDocument[]> {
      assertOpen();
      const accept = options.accept ?? (() => true);
      const entries = (await listing(normalizePrefix(options.prefix))).filter((entry) =>
        accept(entry.path, entry.size),
      );
      const out: StoredDocument[] = [];
      for (let start = 0; start < entries.length; start += READ_CHUNK) {
        const chunk = entries.slice(start, start + READ_CHUNK);
        const missing = chunk.filter((entry) => cache.get(entry.path)?.version !== entry.version).map((e) => e.path);
        const fresh = new Map<string, StoredDocument | undefined>();
        const read = await readMany(missing);
        for (const [index, path] of missing.entries()) fresh.set(path, read[index]);
        for (const entry of chunk) {
          const slot = cache.get(entry.path);
          const document = fresh.has(entry.path)
            ? fresh.get(entry.path)
            : slot === undefined
              ? undefined
              : {
                  path: entry.path,
                  version: slot.version,
                  size: slot.content.byteLength,
                  content: new Uint8Array(slot.content),
                };
          if (document === undefined) continue;
          if (options.each === undefined) out.push(document);
          else options.each(document);
        }
      }
      return out;
    },

    async write(operations: readonly WriteOperation[], metadata?: WriteMetadata): Promise<WriteResult> {
      assertOpen();
      return writeDocuments(
        {
          driver,
          maxDocumentBytes,
          remember,
          listPaths: async (prefix) => (await listing(prefix)).map((entry) => entry.path),
        },
        operations,
        metadata,
      );
    },

    async revision(): Promise<string> {
      assertOpen();
      if (driver.revision !== undefined) return driver.revision.current();
      const hash = createHash('sha256');
      for (const entry of await listing('')) hash.update(`${entry.path}\0${entry.version}\n`);
      return hash.digest('hex');
    },

    async verifiedBackend(): Promise<VerifiedMemoryBackend> {
      assertOpen();
      const [verified] = await recordModules();
      return verified.createDocumentRecordBackend(store);
    },

    async taskRecordBackend(): Promise<TaskRecordBackend> {
      assertOpen();
      const [, tasks] = await recordModules();
      return tasks.createDocumentTaskRecordBackend(store);
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      cache.clear();
      await driver.close();
    },
  };
  if (driver.fullText !== undefined) {
    const fullText = driver.fullText;
    store.searchCandidates = async (query) => {
      assertOpen();
      return fullText.candidates(query);
    };
  }
  if (driver.readAll !== undefined) {
    const native = driver.readAll;
    store.readAll = async (options: ReadAllOptions = {}) => {
      assertOpen();
      return native.read({ ...options, prefix: normalizePrefix(options.prefix) });
    };
  }
  if (driver.history !== undefined) Object.assign(store, { history: driver.history });
  return store;
}
