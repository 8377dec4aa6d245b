// Why: the MemoryStore contract on AgentCore Memory is core's store kit over the AgentCore driver
// (driver.ts): the kit supplies paths, validation, the credential scan, path twins, batches with
// put-back, conflicts, state values and caching; this adds the members callers use to reach the
// memory itself (extraction jobs, diagnostics, the batch-race test's second writer).
import { createStore, type KitStore, type StoredDocument } from '@repomem/core';
import type { AgentCoreConnection } from './connection.js';
import { createAgentCoreDriver } from './driver.js';

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
export interface AgentCoreStore extends KitStore {
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

/**
 * Open a document store on an AgentCore memory, scoped to one repository. Nothing is sent until
 * the first call. See the package README for the guarantees and their reasons.
 */
export function createAgentCoreStore(options: AgentCoreStoreOptions): AgentCoreStore {
  const driver = createAgentCoreDriver(options);
  const { memoryId, repo, actorId, documentsNamespace, connection } = driver;
  const store = createStore(driver);
  // The chain fold is safe against every writer using this adapter, not against foreign writers
  // of the same sessions: `emulated`, as before the kit (which otherwise declares `native`).
  const capabilities = Object.freeze({ ...store.capabilities, compareAndSwap: 'emulated' as const });
  // createStore always supplies getMany (optional only in the MemoryStore contract).
  return Object.assign(store, {
    capabilities,
    memoryId,
    repo,
    actorId,
    documentsNamespace,
    connection,
  }) as AgentCoreStore;
}
