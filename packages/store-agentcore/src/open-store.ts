// Why: the one call most users need: connect to a memory and open the document store for a
// repository, closing the client with the store.
import { type AgentCoreConnectionOptions, openAgentCoreConnection } from './connection.js';
import { type AgentCoreStore, createAgentCoreStore } from './document-store.js';

/** Options of {@link openAgentCoreStore}: how to reach the memory, and the repository scope. */
export interface OpenAgentCoreStoreOptions extends AgentCoreConnectionOptions {
  /** Repository `owner/name` the store is scoped to. */
  readonly repo: string;
}

/**
 * Open a document store on an AgentCore memory (no request is sent until the first call).
 *
 * @example
 * ```ts
 * const store = await openAgentCoreStore({ memoryId: 'repomem-a1b2c3d4e5', region: 'us-east-1', repo: 'acme/app' });
 * ```
 */
export async function openAgentCoreStore(options: OpenAgentCoreStoreOptions): Promise<AgentCoreStore> {
  const connection = openAgentCoreConnection(options);
  return createAgentCoreStore({ connection, repo: options.repo });
}
