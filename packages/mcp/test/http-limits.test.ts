// Why: the HTTP server's edges under unlucky and hostile input. Every loopback address can be
// bound and named in Host (host names are case-insensitive); a body over the limit gets 413 with
// a message, whether its length is declared or not and however large (never a 500, never a
// reset connection); and a session nobody uses is closed after the configured idle time.
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StoreRegistry } from '@repomem/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpMemoryServer, isLoopbackHost, MAX_HTTP_BODY_BYTES, serveHttp } from '../src/index.js';
import { makeWorkspace, ok, type Workspace } from './helpers.js';

const REPO = 'acme/app';
const MiB = 1024 * 1024;

function registry(): StoreRegistry {
  const result = new StoreRegistry({ builtins: false });
  result.registerStoreScheme('sqlite', () => import('@repomem/store-sqlite'));
  return result;
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

interface Answer {
  readonly status: number | undefined;
  readonly body: string;
}

/**
 * POST `size` bytes of padded JSON (or `text`) to `url` with `headers`, written in 1 MiB chunks
 * (with Content-Length unless `chunked`); resolves with the answer, rejects on a reset.
 */
function send(url: string, options: { size?: number; headers?: Record<string, string>; chunked?: boolean }) {
  const size = options.size ?? 0;
  return new Promise<Answer>((resolvePromise, reject) => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(options.headers ?? {}),
    };
    const payload = size === 0 ? Buffer.from(JSON.stringify(initialize)) : undefined;
    if (options.chunked !== true) headers['content-length'] = String(payload?.length ?? size);
    const sent = request(url, { method: 'POST', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolvePromise({ status: response.statusCode, body: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    sent.on('error', reject);
    if (payload !== undefined) {
      sent.end(payload);
      return;
    }
    const chunk = Buffer.alloc(MiB, 0x20);
    let written = 0;
    const pump = (): void => {
      while (written < size) {
        const length = Math.min(MiB, size - written);
        written += length;
        if (!sent.write(length === MiB ? chunk : chunk.subarray(0, length))) {
          sent.once('drain', pump);
          return;
        }
      }
      sent.end();
    };
    pump();
  });
}

describe('loopback addresses', () => {
  it('every 127.0.0.0/8 address, ::1 and localhost in any case are loopback; others are not', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '127.255.255.254', '::1', '[::1]', '0:0:0:0:0:0:0:1', 'LOCALHOST']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['128.0.0.1', '127.0.0.256', '10.0.0.1', '::2', 'localhost.evil.example', '0.0.0.0', '']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });

  it('a server on 127.0.0.2 serves requests naming it, and Host LOCALHOST:<port> too', async () => {
    const workspace = makeWorkspace('sqlite');
    const served = await serveHttp({
      storeSpec: workspace.storeSpec,
      repo: REPO,
      registry: registry(),
      port: 0,
      host: '127.0.0.2',
    });
    try {
      expect(served.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/mcp$/);
      const port = new URL(served.url).port;
      const transport = new StreamableHTTPClientTransport(new URL(served.url));
      const client = new Client({ name: 'repomem-http-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        await ok(client, 'memory.add', { file: 'MEMORY.md', section: 'Notes', text: 'over 127.0.0.2' });
      } finally {
        await client.close();
      }
      for (const host of [`LOCALHOST:${port}`, `LocalHost:${port}`, `127.0.0.2:${port}`, `[::1]:${port}`]) {
        expect((await send(served.url, { headers: { host } })).status, host).toBe(200);
      }
      for (const host of [`evil.example:${port}`, 'localhost:1', `localhost.evil.example:${port}`, 'localhost']) {
        expect((await send(served.url, { headers: { host } })).status, host).toBe(403);
      }
    } finally {
      await served.close();
      workspace.cleanup();
    }
  });
});

describe('request limits and idle sessions', () => {
  let workspace: Workspace;
  let served: HttpMemoryServer;
  beforeAll(async () => {
    workspace = makeWorkspace('sqlite');
    served = await serveHttp({
      storeSpec: workspace.storeSpec,
      repo: REPO,
      registry: registry(),
      port: 0,
      sessionIdleTimeoutMs: 200,
    });
  });
  afterAll(async () => {
    await served?.close();
    workspace?.cleanup();
  });

  it('a body over the limit gets 413 with a message, declared or not, 5 MiB or 64 MiB', async () => {
    expect(MAX_HTTP_BODY_BYTES).toBe(4 * MiB);
    for (const [size, chunked] of [
      [5 * MiB, false],
      [5 * MiB, true],
      [64 * MiB, false],
      [64 * MiB, true],
    ] as const) {
      const answer = await send(served.url, { size, chunked });
      expect(answer.status, `${size} bytes${chunked ? ', chunked' : ''}`).toBe(413);
      expect(JSON.parse(answer.body).error.message).toMatch(/^Payload too large: a request body may be at most 4 MiB/);
    }
    expect((await send(served.url, {})).status, 'the server still answers').toBe(200);
  });

  /** Resolves once a request in session `sessionId` gets 404 (polled less often than the idle timeout). */
  async function expectExpired(sessionId: string): Promise<void> {
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    await vi.waitFor(
      async () => {
        const answer = await fetch(served.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': sessionId,
            'mcp-protocol-version': '2025-11-25',
          },
          body: JSON.stringify(list),
        });
        await answer.text();
        expect(answer.status).toBe(404);
      },
      { timeout: 10_000, interval: 500 },
    );
  }

  it('a session nobody uses for the idle timeout is closed; its id is then unknown (404)', async () => {
    const answer = await fetch(served.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    });
    await answer.text();
    expect(answer.status).toBe(200);
    const sessionId = answer.headers.get('mcp-session-id') as string;
    expect(sessionId).toEqual(expect.any(String));
    await expectExpired(sessionId);
  });

  it('a client that went away without ending its session loses it after the idle timeout', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(served.url));
    const client = new Client({ name: 'repomem-http-test', version: '1.0.0' });
    await client.connect(transport);
    const sessionId = transport.sessionId as string;
    await ok(client, 'memory.search', { query: 'anything' });
    await client.close();
    await expectExpired(sessionId);
  });

  it('refuses a session idle timeout that is not a positive number of milliseconds', async () => {
    for (const sessionIdleTimeoutMs of [0, -1, 1.5, 2 ** 31]) {
      await expect(
        serveHttp({ storeSpec: workspace.storeSpec, repo: REPO, registry: registry(), port: 0, sessionIdleTimeoutMs }),
      ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
  });
});
