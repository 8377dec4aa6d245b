// Why: the memory tree's documents (MEMORY.md, PROJECT.md, daily logs, mirror files) are offered
// as resources, so a client can attach them without a tool call; a resource list-changed
// notification is sent when the store's revision moves (another client, another process or a
// person changed the memory).
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { type MemoryStore, normalizeDocumentPath, RepomemError } from '@repomem/core';
import { isInternalPath } from './scope.js';

/** URI prefix of memory documents: `repomem://memory/MEMORY.md`, `repomem://memory/daily/2026-01-02.md`. */
export const MEMORY_RESOURCE_PREFIX = 'repomem://memory/';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The resource URI of a document path (each segment percent-encoded). */
export function memoryResourceUri(path: string): string {
  return MEMORY_RESOURCE_PREFIX + path.split('/').map(encodeURIComponent).join('/');
}

function mimeType(path: string): string {
  if (path.endsWith('.md')) return 'text/markdown';
  if (path.endsWith('.json')) return 'application/json';
  return 'text/plain';
}

function pathOf(uri: URL): string {
  const text = uri.href;
  if (!text.startsWith(MEMORY_RESOURCE_PREFIX)) {
    throw new RepomemError('INVALID_ARGUMENT', `not a memory resource: ${text}`);
  }
  return normalizeDocumentPath(text.slice(MEMORY_RESOURCE_PREFIX.length).split('/').map(decodeURIComponent).join('/'));
}

async function readDocument(store: MemoryStore, uri: URL): Promise<ReadResourceResult> {
  const path = pathOf(uri);
  const document = isInternalPath(path) ? undefined : await store.get(path);
  if (document === undefined) throw new RepomemError('NOT_FOUND', `no memory document ${path}`);
  try {
    return { contents: [{ uri: uri.href, mimeType: mimeType(path), text: utf8.decode(document.content) }] };
  } catch {
    return {
      contents: [
        { uri: uri.href, mimeType: 'application/octet-stream', blob: Buffer.from(document.content).toString('base64') },
      ],
    };
  }
}

/** Register the memory documents of `store` as resources of `server`. */
export function registerMemoryResources(server: McpServer, store: MemoryStore): void {
  const template = new ResourceTemplate(`${MEMORY_RESOURCE_PREFIX}{+path}`, {
    list: async () => {
      const entries = await store.list('');
      return {
        resources: entries
          .filter((entry) => !isInternalPath(entry.path))
          .map((entry) => ({
            uri: memoryResourceUri(entry.path),
            name: entry.path,
            mimeType: mimeType(entry.path),
            size: entry.size,
          })),
      };
    },
  });
  server.registerResource(
    'memory-document',
    template,
    { title: 'Memory document', description: 'A document of the repository memory tree.' },
    (uri) => readDocument(store, uri),
  );
}

/**
 * Check the store's revision every `intervalMs` and send a resource list-changed notification
 * when it moves. Returns the function that stops watching (also stopped when the server closes).
 */
export function watchStoreRevision(server: McpServer, store: MemoryStore, intervalMs: number): () => void {
  if (intervalMs <= 0) return () => {};
  let last: string | undefined;
  let busy = false;
  const check = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      const revision = await store.revision();
      if (last !== undefined && revision !== last && server.isConnected()) server.sendResourceListChanged();
      last = revision;
    } catch {
      // A store that cannot answer now (closed, busy) is asked again at the next tick.
    } finally {
      busy = false;
    }
  };
  void check();
  const timer = setInterval(() => void check(), intervalMs);
  timer.unref();
  const stop = (): void => clearInterval(timer);
  const previous = server.server.onclose;
  server.server.onclose = () => {
    stop();
    previous?.();
  };
  return stop;
}
