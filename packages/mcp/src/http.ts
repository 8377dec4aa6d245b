// Why: some clients (and several agents sharing one server) connect over Streamable HTTP. The
// server binds 127.0.0.1 by default; binding anything else exposes the memory to the network,
// so a bearer token is then required on every request (and checked in constant time), and
// requests to a loopback server must name a loopback host and come from no page or a page on this
// machine (the specification's DNS rebinding protection: Host and Origin are checked).
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { RepomemError } from '@repomem/core';
import { openMemoryMcpContext } from './context.js';
import type { MemoryMcpOptions } from './options.js';
import { createMemoryMcpServerFromContext } from './server.js';

/** Default address of the HTTP server. */
export const DEFAULT_HTTP_HOST = '127.0.0.1';
/** Path the MCP endpoint is served at. */
export const MCP_HTTP_PATH = '/mcp';

/** Options of {@link serveHttp}: the memory, and where to listen. */
export interface ServeHttpOptions extends MemoryMcpOptions {
  /** TCP port (0: any free port; see `url` of the result). */
  readonly port: number;
  /** Address to bind (default 127.0.0.1). Anything but a loopback address requires `token`. */
  readonly host?: string;
  /** Bearer token every request must carry (`Authorization: Bearer <token>`). */
  readonly token?: string;
}

/** A running HTTP server. */
export interface HttpMemoryServer {
  /** The endpoint, e.g. `http://127.0.0.1:4319/mcp`. */
  readonly url: string;
  /** The Node HTTP server. */
  readonly http: Server;
  /** Stop listening, close every session and the memory (idempotent). */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** True for an address only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** True when a request has no Origin (not a browser) or a loopback one (a page served on this machine). */
function loopbackOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    const hostname = new URL(origin).hostname.replace(/^\[(.*)\]$/, '$1');
    return isLoopbackHost(hostname);
  } catch {
    return false;
  }
}

function tokenMatches(header: string | undefined, token: string): boolean {
  if (header === undefined || !header.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function reply(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > 4 * 1024 * 1024) throw new RepomemError('INVALID_ARGUMENT', 'request body larger than 4 MiB');
    chunks.push(buffer);
  }
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function checkListenOptions(options: ServeHttpOptions): string {
  const host = options.host ?? DEFAULT_HTTP_HOST;
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new RepomemError('INVALID_ARGUMENT', `port must be an integer from 0 to 65535 (got ${String(options.port)})`);
  }
  if (options.token !== undefined && options.token.length < 16) {
    throw new RepomemError('INVALID_ARGUMENT', 'the bearer token must be at least 16 characters');
  }
  if (!isLoopbackHost(host) && options.token === undefined) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `binding ${host} exposes the memory beyond this machine: a bearer token is required (--token or REPOMEM_MCP_TOKEN)`,
    );
  }
  return host;
}

/**
 * Serve the memory over Streamable HTTP at `/mcp`, one MCP session per client (all sessions share
 * one opened store). Refuses to start on a non-loopback address without a token.
 */
export async function serveHttp(options: ServeHttpOptions): Promise<HttpMemoryServer> {
  const host = checkListenOptions(options);
  const { port, token, host: _host, ...memory } = options;
  const context = await openMemoryMcpContext(memory);
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let loopbackHosts: string[] = [];

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (token !== undefined && !tokenMatches(request.headers.authorization, token)) {
      reply(response, 401, 'Unauthorized: a valid bearer token is required', { 'www-authenticate': 'Bearer' });
      return;
    }
    if (isLoopbackHost(host) && !loopbackHosts.includes(request.headers.host ?? '')) {
      reply(response, 403, `Forbidden: host ${JSON.stringify(request.headers.host ?? '')} is not this loopback server`);
      return;
    }
    if (isLoopbackHost(host) && !loopbackOrigin(request.headers.origin)) {
      reply(response, 403, `Forbidden: origin ${JSON.stringify(request.headers.origin)} is not on this machine`);
      return;
    }
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== MCP_HTTP_PATH) {
      reply(response, 404, `Not found: the MCP endpoint is ${MCP_HTTP_PATH}`);
      return;
    }
    const header = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    const existing = sessionId === undefined ? undefined : transports.get(sessionId);
    if (existing !== undefined) {
      await existing.handleRequest(request, response, request.method === 'POST' ? await readJson(request) : undefined);
      return;
    }
    if (request.method !== 'POST') {
      reply(
        response,
        sessionId === undefined ? 400 : 404,
        sessionId === undefined ? 'Bad request: no session' : 'Session not found',
      );
      return;
    }
    const body = await readJson(request);
    if (sessionId !== undefined || !isInitializeRequest(body)) {
      reply(
        response,
        sessionId === undefined ? 400 : 404,
        sessionId === undefined ? 'Bad request: no session' : 'Session not found',
      );
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
    };
    const server = createMemoryMcpServerFromContext(context);
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  };

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) {
        response.end();
        return;
      }
      reply(response, error instanceof SyntaxError ? 400 : 500, error instanceof Error ? error.message : String(error));
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(port, host, () => {
        http.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await context.close();
    throw error;
  }
  const actualPort = (http.address() as AddressInfo).port;
  loopbackHosts = [`127.0.0.1:${actualPort}`, `localhost:${actualPort}`, `[::1]:${actualPort}`];
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${actualPort}${MCP_HTTP_PATH}`,
    http,
    close() {
      closing ??= (async () => {
        await Promise.allSettled([...transports.values()].map((transport) => transport.close()));
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
        await context.close();
      })();
      return closing;
    },
  };
}
