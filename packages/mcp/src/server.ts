// Why: the library entry: one function builds an MCP server (the official SDK's McpServer) over
// a memory context, with the tools the store supports, the documents as resources and the
// memory rules as a prompt, so a framework can mount it in its own process on any transport.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { type MemoryMcpContext, openMemoryMcpContext } from './context.js';
import { serverInstructions } from './instructions.js';
import type { MemoryMcpOptions } from './options.js';
import { registerMemoryPrompts } from './prompts.js';
import { registerMemoryResources, watchStoreRevision } from './resources.js';
import { bulletTools } from './tools/bullet-tools.js';
import type { ToolEntry } from './tools/define.js';
import { historyTools } from './tools/history-tools.js';
import { ruleTools } from './tools/rule-tools.js';
import { taskTools } from './tools/task-tools.js';
import { verifiedTools } from './tools/verified-tools.js';
import { MCP_SERVER_NAME, MCP_SERVER_VERSION } from './version.js';

/** The tools a context offers (all of them, writing ones included; the mode is applied at registration). */
export function memoryTools(context: MemoryMcpContext): ToolEntry[] {
  const tools: ToolEntry[] = [];
  if (context.verified !== undefined) tools.push(...verifiedTools(context, context.verified));
  if (context.memory !== undefined) {
    const { store, semantic } = context;
    tools.push(
      ...bulletTools(context.memory, store !== undefined && semantic !== undefined ? { store, semantic } : undefined),
    );
  }
  if (context.store?.history !== undefined) tools.push(...historyTools(context.store.history));
  if (context.tasks !== undefined && context.verified !== undefined) {
    tools.push(...taskTools(context, context.tasks, context.verified));
    tools.push(...ruleTools(context, context.tasks));
  }
  return tools;
}

function emptyServer(context: MemoryMcpContext): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    { instructions: serverInstructions(context, false), capabilities: { tools: {}, resources: {}, prompts: {} } },
  );
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
  server.server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
  server.server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [] }));
  return server;
}

/** Build a server over an open context (shared by several servers, e.g. one per HTTP session; not closed with them). */
export function createMemoryMcpServerFromContext(context: MemoryMcpContext): McpServer {
  if (context.mode === 'disabled' || context.store === undefined) return emptyServer(context);
  const store = context.store;
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    {
      instructions: serverInstructions(context, store.history !== undefined),
      capabilities: { resources: { listChanged: true }, tools: { listChanged: false } },
    },
  );
  for (const tool of memoryTools(context)) tool.register(server, context.mode, context.toolNames);
  registerMemoryResources(server, store);
  registerMemoryPrompts(server, context.toolNames);
  watchStoreRevision(server, store, context.watchIntervalMs);
  return server;
}

/**
 * Open the store named by `options` and build a memory MCP server over it (the official SDK's
 * `McpServer`; connect it to any transport). Closing the server closes what was opened for it.
 *
 * @example
 * ```ts
 * const server = await createMemoryMcpServer({ storeSpec: 'sqlite:.repomem/repomem.db', repo: 'acme/app' });
 * await server.connect(new StdioServerTransport());
 * ```
 */
export async function createMemoryMcpServer(options: MemoryMcpOptions): Promise<McpServer> {
  const context = await openMemoryMcpContext(options);
  const server = createMemoryMcpServerFromContext(context);
  const previous = server.server.onclose;
  server.server.onclose = () => {
    previous?.();
    void context.close();
  };
  return server;
}
