// Why: some clients (and several agents sharing one server) connect over Streamable HTTP. The
// server binds 127.0.0.1 by default; binding anything else exposes the memory to the network,
// so a bearer token is then required on every request (and checked in constant time), and
// requests to a loopback server must name a loopback host and come from no page or a page on this
// machine (the specification's DNS rebinding protection: Host and Origin are checked). Bodies
// over the limit are answered 413 at once (never buffered, never a reset connection), and a
// session nobody has used for a while is closed, so abandoned clients do not pile up.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, isIPv4, isIPv6 } from 'node:net';
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
/** Largest request body accepted, in bytes (4 MiB); larger ones get 413. */
export const MAX_HTTP_BODY_BYTES = 4 * 1024 * 1024;
/** Longest timer Node keeps (about 24.8 days); a longer one would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;
/** Default {@link ServeHttpOptions.sessionIdleTimeoutMs}: 30 minutes. */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60 * 1000;

/** Options of {@link serveHttp}: the memory, and where to listen. */
export interface ServeHttpOptions extends MemoryMcpOptions {
  /** TCP port (0: any free port; see `url` of the result). */
  readonly port: number;
  /** Address to bind (default 127.0.0.1). Anything but a loopback address requires `token`. */
  readonly host?: string;
  /** Bearer token every request must carry (`Authorization: Bearer <token>`). */
  readonly token?: string;
  /**
   * A session with no request in flight for this long is closed (its client must initialize
   * again), in milliseconds. Default {@link DEFAULT_SESSION_IDLE_TIMEOUT_MS}.
   */
  readonly sessionIdleTimeoutMs?: number;
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

/**
 * True for an address only this machine can reach: `localhost` (any case), 127.0.0.0/8 and ::1
 * (in any spelling, brackets allowed, also as an IPv4-mapped address).
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost') return true;
  if (isIPv4(name)) return name.startsWith('127.');
  if (!isIPv6(name)) return false;
  // The URL parser writes an IPv6 address in its shortest form (`::1`, `::ffff:7f00:1`).
  const canonical = new URL(`http://[${name}]/`).hostname.slice(1, -1);
  if (canonical === '::1') return true;
  const mapped = /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.exec(canonical);
  return mapped !== null;
}

/** True when a Host header names a loopback host and this server's port (`LOCALHOST:4319`, `[::1]:4319`). */
function loopbackHostHeader(header: string | undefined, port: number): boolean {
  if (header === undefined) return false;
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(header.trim());
  if (match === null) return false;
  return Number(match[2]) === port && isLoopbackHost(match[1] as string);
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

/** A request body: parsed JSON (`undefined` when empty), or too large to accept. */
type BodyRead = { readonly kind: 'json'; readonly value: unknown } | { readonly kind: 'too_large' };

/**
 * Read and parse a request body of at most `limit` bytes. A larger one (declared or sent) is not
 * kept: the rest is discarded as it arrives (never destroyed, which would reset the connection
 * before the client reads the answer) and `too_large` is returned at once.
 */
function readJson(request: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    request.resume();
    return Promise.resolve({ kind: 'too_large' });
  }
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      request.off('data', onData);
      request.off('end', onEnd);
      chunks.length = 0;
      request.resume();
      resolvePromise({ kind: 'too_large' });
    };
    const onEnd = (): void => {
      try {
        const text = Buffer.concat(chunks).toString('utf8');
        resolvePromise({ kind: 'json', value: chunks.length === 0 ? undefined : JSON.parse(text) });
      } catch (error) {
        reject(error);
      }
    };
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('error', reject);
  });
}

function tooLarge(response: ServerResponse): void {
  reply(
    response,
    413,
    `Payload too large: a request body may be at most ${MAX_HTTP_BODY_BYTES / (1024 * 1024)} MiB (${MAX_HTTP_BODY_BYTES} bytes)`,
  );
}

function checkListenOptions(options: ServeHttpOptions): string {
  const host = options.host ?? DEFAULT_HTTP_HOST;
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new RepomemError('INVALID_ARGUMENT', `port must be an integer from 0 to 65535 (got ${String(options.port)})`);
  }
  const idle = options.sessionIdleTimeoutMs;
  if (idle !== undefined && (!Number.isSafeInteger(idle) || idle <= 0 || idle > MAX_TIMER_MS)) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `sessionIdleTimeoutMs must be an integer from 1 to ${MAX_TIMER_MS} (got ${String(idle)})`,
    );
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
 * When a session last had a request in flight: `expire` runs once no request has been in flight
 * for `idleMs` (an open event stream counts as one in flight).
 */
class SessionActivity {
  #inFlight = 0;
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;
  readonly #idleMs: number;
  readonly #expire: () => void;

  constructor(idleMs: number, expire: () => void) {
    this.#idleMs = idleMs;
    this.#expire = expire;
    this.#arm();
  }

  begin(): void {
    this.#inFlight += 1;
    this.#disarm();
  }

  end(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    if (this.#inFlight === 0) this.#arm();
  }

  stop(): void {
    this.#stopped = true;
    this.#disarm();
  }

  #arm(): void {
    this.#disarm();
    if (this.#stopped) return;
    this.#timer = setTimeout(this.#expire, this.#idleMs);
    this.#timer.unref();
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/**
 * Serve the memory over Streamable HTTP at `/mcp`, one MCP session per client (all sessions share
 * one opened store). Refuses to start on a non-loopback address without a token.
 */
export async function serveHttp(options: ServeHttpOptions): Promise<HttpMemoryServer> {
  const host = checkListenOptions(options);
  const { port, token, host: _host, sessionIdleTimeoutMs, ...memory } = options;
  const idleMs = sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS;
  const context = await openMemoryMcpContext(memory);
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const sessions = new Map<StreamableHTTPServerTransport, SessionActivity>();
  let actualPort = 0;

  /** Count a request of `transport`'s session as in flight until its response closes. */
  const track = (transport: StreamableHTTPServerTransport, response: ServerResponse): void => {
    const activity = sessions.get(transport);
    if (activity === undefined) return;
    activity.begin();
    response.once('close', () => activity.end());
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (token !== undefined && !tokenMatches(request.headers.authorization, token)) {
      reply(response, 401, 'Unauthorized: a valid bearer token is required', { 'www-authenticate': 'Bearer' });
      return;
    }
    if (isLoopbackHost(host) && !loopbackHostHeader(request.headers.host, actualPort)) {
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
      track(existing, response);
      const body = request.method === 'POST' ? await readJson(request, MAX_HTTP_BODY_BYTES) : undefined;
      if (body?.kind === 'too_large') {
        tooLarge(response);
        return;
      }
      await existing.handleRequest(request, response, body?.value);
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
    const read = await readJson(request, MAX_HTTP_BODY_BYTES);
    if (read.kind === 'too_large') {
      tooLarge(response);
      return;
    }
    const body = read.value;
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
      sessions.get(transport)?.stop();
      sessions.delete(transport);
    };
    sessions.set(transport, new SessionActivity(idleMs, () => void transport.close()));
    track(transport, response);
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
  actualPort = (http.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${actualPort}${MCP_HTTP_PATH}`,
    http,
    close() {
      closing ??= (async () => {
        for (const activity of sessions.values()) activity.stop();
        await Promise.allSettled([...transports.values()].map((transport) => transport.close()));
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
        await context.close();
      })();
      return closing;
    },
  };
}
