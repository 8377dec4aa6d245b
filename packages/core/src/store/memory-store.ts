// Why: the reference implementation of the store contract, with no I/O: tests of the memory
// facade, the search engine and third-party code run against it, and it is the simplest reading
// of what the contract means (exact versions, all-or-nothing batches, a revision per write).
import { randomBytes } from 'node:crypto';
import { RepomemError } from '../errors.js';
import { contentVersion } from './content-version.js';
import {
  type DocumentEntry,
  type MemoryStore,
  STORE_SPECIFICATION_VERSION,
  type StoreCapabilities,
  type StoredDocument,
  type WriteConflict,
  type WriteOperation,
  type WriteResult,
} from './contract.js';
import { createInMemoryState } from './memory-state.js';
import { assertNoPathTwins } from './path-twins.js';
import { normalizeDocumentPath, normalizePrefix } from './paths.js';
import { DEFAULT_MAX_DOCUMENT_BYTES, storeClosedError } from './store-closed.js';
import { expectationHolds, prepareWriteBatch } from './write-batch.js';

/** Options of {@link createInMemoryStore}. */
export interface InMemoryStoreOptions {
  /** Largest document accepted, in bytes (default 16 MiB). */
  readonly maxDocumentBytes?: number;
  /** Documents the store starts with (text is stored as UTF-8). Paths are normalised. */
  readonly initialDocuments?: Readonly<Record<string, string | Uint8Array>>;
}

interface Slot {
  readonly content: Uint8Array;
  readonly version: string;
}

/**
 * Create an empty (or seeded) in-memory store.
 *
 * Guarantees: versions are the SHA-256 of the content; every committed write (even a no-op)
 * produces a new revision; a batch is checked and applied synchronously, so it is atomic and
 * isolated against every other call in the process; content is copied in and out, so callers
 * cannot alias stored bytes; state values live beside the documents. Nothing survives the
 * process, and no history is kept.
 */
export function createInMemoryStore(options: InMemoryStoreOptions = {}): MemoryStore {
  const maxDocumentBytes = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  if (!Number.isSafeInteger(maxDocumentBytes) || maxDocumentBytes <= 0) {
    throw new RepomemError('INVALID_ARGUMENT', `maxDocumentBytes must be a positive integer, got ${maxDocumentBytes}`);
  }
  const capabilities: StoreCapabilities = Object.freeze({
    binarySafe: true,
    atomicDocument: true,
    atomicBatch: true,
    readYourWrites: true,
    compareAndSwap: 'native',
    maxDocumentBytes,
  });
  const documents = new Map<string, Slot>();
  const instance = randomBytes(6).toString('hex');
  let counter = 0;
  let closed = false;

  for (const [rawPath, value] of Object.entries(options.initialDocuments ?? {})) {
    const content = typeof value === 'string' ? new TextEncoder().encode(value) : new Uint8Array(value);
    if (content.byteLength > maxDocumentBytes) {
      throw new RepomemError('FILE_TOO_LARGE', `initial document too large: ${rawPath} (${content.byteLength} bytes)`);
    }
    documents.set(normalizeDocumentPath(rawPath), { content, version: contentVersion(content) });
  }

  const currentRevision = (): string => `${instance}-${counter}`;
  const assertOpen = (): void => {
    if (closed) throw storeClosedError('memory');
  };

  return {
    specificationVersion: STORE_SPECIFICATION_VERSION,
    name: 'memory',
    capabilities,
    state: createInMemoryState(assertOpen),

    async get(path: string): Promise<StoredDocument | undefined> {
      assertOpen();
      const normalized = normalizeDocumentPath(path);
      const slot = documents.get(normalized);
      if (slot === undefined) return undefined;
      return {
        path: normalized,
        version: slot.version,
        size: slot.content.byteLength,
        content: new Uint8Array(slot.content),
      };
    },

    async list(prefix?: string): Promise<DocumentEntry[]> {
      assertOpen();
      const normalized = normalizePrefix(prefix);
      const entries: DocumentEntry[] = [];
      for (const [path, slot] of documents) {
        if (path.startsWith(normalized)) entries.push({ path, version: slot.version, size: slot.content.byteLength });
      }
      return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },

    async write(operations: readonly WriteOperation[]): Promise<WriteResult> {
      assertOpen();
      const batch = prepareWriteBatch(operations, maxDocumentBytes);
      // Check and apply without awaiting in between: nothing else in the process can interleave.
      const conflicts: WriteConflict[] = [];
      for (const operation of batch) {
        const actual = documents.get(operation.path)?.version ?? null;
        if (!expectationHolds(operation.expectedVersion, actual)) {
          conflicts.push({ path: operation.path, expected: operation.expectedVersion ?? null, actual });
        }
      }
      if (conflicts.length > 0) return { status: 'conflict', conflicts };
      const created = batch.filter((operation) => operation.kind === 'put' && !documents.has(operation.path));
      if (created.length > 0) {
        const deleted = new Set(
          batch.filter((operation) => operation.kind === 'delete').map((operation) => operation.path),
        );
        assertNoPathTwins(
          created.map((operation) => operation.path),
          documents.keys(),
          deleted,
        );
      }
      const versions: Record<string, string | null> = {};
      for (const operation of batch) {
        if (operation.kind === 'put') {
          documents.set(operation.path, { content: operation.content, version: operation.version });
          versions[operation.path] = operation.version;
        } else {
          documents.delete(operation.path);
          versions[operation.path] = null;
        }
      }
      counter += 1;
      return { status: 'committed', versions };
    },

    async revision(): Promise<string> {
      assertOpen();
      return currentRevision();
    },

    async close(): Promise<void> {
      closed = true;
      documents.clear();
    },
  };
}
