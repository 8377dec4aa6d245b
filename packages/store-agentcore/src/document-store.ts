// Why: the MemoryStore contract on AgentCore Memory. Each document is a chain of immutable events
// in its own session (the truth, see fold.ts) and a set of memory records under
// `/{repository actorId}/documents/{escaped path}/` (a materialised copy: listings, search and
// the service's own retrieval read them). Reads and writes go to the chain, so compare-and-swap
// holds across processes without a conditional write in the service; listings read the records.

import { createHash } from 'node:crypto';
import {
  acquireKeyedMutex,
  assertNoPathTwins,
  type DocumentEntry,
  type MemoryStore,
  normalizeDocumentPath,
  normalizePrefix,
  type PreparedOperation,
  prepareWriteBatch,
  type ReadAllOptions,
  RepomemError,
  STORE_SPECIFICATION_VERSION,
  type StoreCapabilities,
  type StoredDocument,
  type StoreState,
  storeClosedError,
  type WriteConflict,
  type WriteOperation,
  type WriteResult,
} from '@repomem/core';
import type { AgentCoreConnection } from './connection.js';
import { readPayload } from './event-log.js';
import {
  escapePath,
  escapePrefix,
  hashedSessionId,
  namespaceOf,
  repositoryActorId,
  unescapePath,
} from './identifiers.js';
import { listRecords, type StoredRecord } from './records.js';
import {
  commitRegister,
  contentFromPayload,
  headVersion,
  MAX_REGISTER_BYTES,
  materialised,
  type RegisterAddress,
  type RegisterCommit,
  type RegisterView,
  readRegister,
  viewRegister,
} from './register.js';
import { createAgentCoreState } from './state.js';

/** Options of {@link createAgentCoreStore}. */
export interface AgentCoreStoreOptions {
  /** An open connection (see `openAgentCoreConnection`). */
  readonly connection: AgentCoreConnection;
  /** Repository `owner/name` the store is scoped to (its actorId holds the documents). */
  readonly repo: string;
  /** Close the connection with the store (default true). */
  readonly ownsConnection?: boolean;
}

/** A store on AgentCore Memory. */
export interface AgentCoreStore extends MemoryStore {
  /** The memory id. */
  readonly memoryId: string;
  /** Repository scope. */
  readonly repo: string;
  /** The actorId the repository maps to. */
  readonly actorId: string;
  /** The namespace under which documents are materialised (`/{actorId}/documents/`). */
  readonly documentsNamespace: string;
  /** The connection (for extraction jobs and diagnostics). */
  readonly connection: AgentCoreConnection;
  /**
   * What `get` answers for each path, in the order asked, read 16 at a time (each read is two
   * parallel requests, so a handful of paths cost one round trip).
   */
  getMany(paths: readonly string[]): Promise<(StoredDocument | undefined)[]>;
}

const CAPABILITIES: StoreCapabilities = Object.freeze({
  binarySafe: true,
  atomicDocument: true,
  atomicBatch: false,
  readYourWrites: true,
  compareAndSwap: 'emulated',
  maxDocumentBytes: MAX_REGISTER_BYTES,
});

function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Open a document store on an AgentCore memory, scoped to one repository. Nothing is sent until
 * the first call. See the package README for the guarantees and their reasons.
 */
export function createAgentCoreStore(options: AgentCoreStoreOptions): AgentCoreStore {
  const { connection, repo } = options;
  const actorId = repositoryActorId(repo);
  const documentsNamespace = namespaceOf([actorId, 'documents']);
  const views = new Map<string, RegisterView>();
  let closed = false;
  const assertOpen = (): void => {
    if (closed) throw storeClosedError('agentcore');
  };

  const namespaceFor = (path: string): string | undefined => {
    try {
      return namespaceOf([actorId, 'documents', escapePath(path)]);
    } catch {
      return undefined;
    }
  };
  const addressOf = (path: string): RegisterAddress => ({
    session: { actorId, sessionId: hashedSessionId('d', path) },
    namespace: namespaceFor(path),
    name: path,
  });
  const pathOfNamespace = (namespace: string): string | undefined => {
    if (!namespace.startsWith(documentsNamespace) || !namespace.endsWith('/')) return undefined;
    try {
      return normalizeDocumentPath(unescapePath(namespace.slice(documentsNamespace.length, -1)));
    } catch {
      return undefined;
    }
  };

  /** Every materialised document under the prefix: path -> newest complete record set. */
  const readMaterialised = async (prefix: string) => {
    // The service narrows by namespace prefix (escaping keeps prefixes), the path check below is exact.
    const records = await listRecords(connection, { namespacePath: `${documentsNamespace}${escapePrefix(prefix)}` });
    const byPath = new Map<string, StoredRecord[]>();
    for (const record of records) {
      const path = pathOfNamespace(record.namespace);
      if (path === undefined || !path.startsWith(prefix)) continue;
      const list = byPath.get(path) ?? [];
      list.push(record);
      byPath.set(path, list);
    }
    return [...byPath]
      .flatMap(([path, list]) => {
        const value = materialised(list);
        return value === undefined ? [] : [{ path, value }];
      })
      .sort((a, b) => comparePaths(a.path, b.path));
  };

  /**
   * A batch whose preconditions held when checked can still lose one document to a writer that
   * slipped in before its append. The documents it did commit are then put back as they were
   * (each with compare-and-swap on the version just written, so a later writer's edit is never
   * undone), and the batch is reported as a conflict.
   */
  const revertCommitted = async (
    batch: readonly PreparedOperation[],
    before: readonly RegisterView[],
    results: readonly RegisterCommit[],
  ): Promise<void> => {
    await Promise.all(
      batch.map(async (operation, index) => {
        const result = results[index];
        const previous = before[index];
        if (result?.status !== 'committed' || !result.changed || previous === undefined) return;
        views.delete(operation.path);
        const address = addressOf(operation.path);
        const previousVersion = headVersion(previous.head);
        const restore =
          previousVersion === null || previous.head === undefined
            ? null
            : {
                content: contentFromPayload(address, await readPayload(connection, address.session, previous.head.id)),
                version: previousVersion,
              };
        await commitRegister(connection, address, result.version, restore);
      }),
    );
  };

  const lockKey = (path: string): string => `agentcore:${connection.memoryId}:${actorId}:${path}`;

  const state: StoreState = createAgentCoreState({ connection, actorId, assertOpen });
  const store: AgentCoreStore = {
    specificationVersion: STORE_SPECIFICATION_VERSION,
    name: 'agentcore',
    capabilities: CAPABILITIES,
    memoryId: connection.memoryId,
    repo,
    actorId,
    documentsNamespace,
    connection,
    state,

    async get(path: string): Promise<StoredDocument | undefined> {
      assertOpen();
      const normalized = normalizeDocumentPath(path);
      const value = await readRegister(connection, addressOf(normalized), views.get(normalized)?.head?.height);
      views.set(normalized, value);
      const version = headVersion(value.head);
      if (version === null || value.content === undefined) return undefined;
      return { path: normalized, version, size: value.content.byteLength, content: value.content };
    },

    async getMany(paths: readonly string[]): Promise<(StoredDocument | undefined)[]> {
      assertOpen();
      const normalized = paths.map((path) => normalizeDocumentPath(path));
      const out: (StoredDocument | undefined)[] = [];
      for (let index = 0; index < normalized.length; index += 16) {
        out.push(...(await Promise.all(normalized.slice(index, index + 16).map((path) => store.get(path)))));
      }
      return out;
    },

    async list(prefix?: string): Promise<DocumentEntry[]> {
      assertOpen();
      const normalized = normalizePrefix(prefix);
      return (await readMaterialised(normalized)).map(({ path, value }) => ({
        path,
        version: value.version,
        size: value.size,
      }));
    },

    async readAll(readOptions: ReadAllOptions = {}): Promise<StoredDocument[]> {
      assertOpen();
      const normalized = normalizePrefix(readOptions.prefix);
      const out: StoredDocument[] = [];
      for (const { path, value } of await readMaterialised(normalized)) {
        if (readOptions.accept !== undefined && !readOptions.accept(path, value.size)) continue;
        const content = value.content();
        const document = { path, version: value.version, size: content.byteLength, content };
        if (readOptions.each !== undefined) readOptions.each(document);
        else out.push(document);
      }
      return out;
    },

    async write(operations: readonly WriteOperation[]): Promise<WriteResult> {
      assertOpen();
      const batch = prepareWriteBatch(operations, MAX_REGISTER_BYTES);
      for (const operation of batch) {
        if (operation.kind === 'put' && namespaceFor(operation.path) === undefined) {
          throw new RepomemError(
            'INVALID_PATH',
            `path is too long for an AgentCore namespace once escaped (at most 1,024 characters): ${operation.path.slice(0, 60)}...`,
            { details: { path: operation.path } },
          );
        }
      }
      const paths = batch.map((operation) => operation.path).sort(comparePaths);
      const releases: Array<() => void> = [];
      try {
        for (const path of paths) releases.push(await acquireKeyedMutex(lockKey(path)));
        assertOpen();
        // Check every precondition first, so a stale version writes nothing.
        const current = await Promise.all(
          batch.map(async (operation) => {
            const cached = views.get(operation.path);
            // A view this instance read or wrote saves a read; if another writer moved the head
            // since, the append loses and the commit reads again (never a wrong conflict: a
            // stale view that disagrees with the expected version is read again first).
            if (cached !== undefined) {
              const expected = operation.expectedVersion;
              if (expected === undefined || headVersion(cached.head) === expected) return cached;
            }
            return viewRegister(connection, addressOf(operation.path), cached?.head?.height);
          }),
        );
        const conflicts: WriteConflict[] = [];
        batch.forEach((operation, index) => {
          const actual = headVersion(current[index]?.head);
          if (operation.expectedVersion !== undefined && operation.expectedVersion !== actual) {
            conflicts.push({ path: operation.path, expected: operation.expectedVersion, actual });
          }
        });
        if (conflicts.length > 0) return { status: 'conflict', conflicts };
        const created = batch.filter(
          (operation, index) => operation.kind === 'put' && headVersion(current[index]?.head) === null,
        );
        if (created.length > 0) {
          const existing = (await store.list()).map((entry) => entry.path);
          const deleted = new Set(
            batch.filter((operation) => operation.kind === 'delete').map((operation) => operation.path),
          );
          assertNoPathTwins(
            created.map((operation) => operation.path),
            existing,
            deleted,
          );
        }
        const results = await Promise.all(
          batch.map((operation, index) =>
            commitRegister(
              connection,
              addressOf(operation.path),
              operation.expectedVersion,
              operation.kind === 'put' ? { content: operation.content, version: operation.version } : null,
              { known: current[index] },
            ),
          ),
        );
        const versions: Record<string, string | null> = {};
        const lost: WriteConflict[] = [];
        results.forEach((result, index) => {
          const operation = batch[index];
          if (operation === undefined) return;
          if (result.status === 'committed') {
            versions[operation.path] = result.version;
            views.set(operation.path, result.view);
          } else {
            views.delete(operation.path);
            lost.push({ path: operation.path, expected: operation.expectedVersion ?? null, actual: result.actual });
          }
        });
        if (lost.length > 0) {
          await revertCommitted(batch, current, results);
          return { status: 'conflict', conflicts: lost };
        }
        return { status: 'committed', versions };
      } finally {
        for (const release of releases.reverse()) release();
      }
    },

    async revision(): Promise<string> {
      assertOpen();
      const hash = createHash('sha256');
      for (const { path, value } of await readMaterialised('')) hash.update(`${path}\n${value.eventId}\n`);
      return hash.digest('hex');
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      views.clear();
      if (options.ownsConnection !== false) connection.close();
    },
  };
  return store;
}
