// Why: public entry of @repomem/mcp: the memory tools over the Model Context Protocol, as a
// library function (mount the server in your own process) and stdio / Streamable HTTP helpers.
export type { CitationSource } from './citation-source.js';
export { DEFAULT_WATCH_INTERVAL_MS, type MemoryMcpContext, openMemoryMcpContext } from './context.js';
export {
  DEFAULT_HTTP_HOST,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  type HttpMemoryServer,
  isLoopbackHost,
  MAX_HTTP_BODY_BYTES,
  MCP_HTTP_PATH,
  type ServeHttpOptions,
  serveHttp,
} from './http.js';
export type { MemoryMcpOptions } from './options.js';
export { MEMORY_RULES, MEMORY_RULES_PROMPT } from './prompts.js';
export { readOnlyRecall } from './read-only-recall.js';
export { MEMORY_RESOURCE_PREFIX, memoryResourceUri } from './resources.js';
export { createMemoryMcpServer, createMemoryMcpServerFromContext, memoryTools } from './server.js';
export { type ServeStdioOptions, type StdioMemoryServer, serveStdio } from './stdio.js';
export { TOOL_NAME_STYLES, type ToolNameStyle, toolName, withToolNames } from './tool-names.js';
export { INTERNAL_ERROR_CODE } from './tool-result.js';
export type { DeepReadonly, ToolDefinition, ToolEntry } from './tools/define.js';
export { MCP_PROTOCOL_REVISION, MCP_SERVER_NAME, MCP_SERVER_VERSION } from './version.js';
