// Why: the usual way a client runs a memory server is as a child process speaking MCP over its
// standard input and output; this helper opens the memory, connects the server to stdio and
// closes everything when the client goes away (stdin ends) or the process is asked to stop.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { MemoryMcpOptions } from './options.js';
import { createMemoryMcpServer } from './server.js';

/** A running stdio server. */
export interface StdioMemoryServer {
  /** The SDK server. */
  readonly server: McpServer;
  /** Resolves once the server is closed (client gone, `close()` called). */
  readonly closed: Promise<void>;
  /** Close the server and the memory it opened (idempotent). */
  close(): Promise<void>;
}

/** Options of {@link serveStdio}: the memory, and the streams (default `process.stdin` / `process.stdout`). */
export interface ServeStdioOptions extends MemoryMcpOptions {
  readonly stdin?: NodeJS.ReadableStream & { on(event: 'end', listener: () => void): unknown };
  readonly stdout?: NodeJS.WritableStream;
}

/** Serve the memory over stdio. Nothing but MCP messages is written to stdout. */
export async function serveStdio(options: ServeStdioOptions): Promise<StdioMemoryServer> {
  const { stdin = process.stdin, stdout = process.stdout, ...memory } = options;
  const server = await createMemoryMcpServer(memory);
  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const previous = server.server.onclose;
  server.server.onclose = () => {
    previous?.();
    resolveClosed();
  };
  await server.connect(new StdioServerTransport(stdin as typeof process.stdin, stdout as typeof process.stdout));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= server.close().then(() => closed);
    return closing;
  };
  stdin.on('end', () => void close());
  return { server, closed, close };
}
