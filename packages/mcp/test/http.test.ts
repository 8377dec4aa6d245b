// Why: Streamable HTTP is how several agents share one server; it binds loopback by default,
// refuses to bind anything else without a bearer token, and rejects requests without the right
// token with 401 before any MCP message is read.
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StoreRegistry } from '@repomem/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpMemoryServer, serveHttp } from '../src/index.js';
import { makeWorkspace, ok, type Workspace } from './helpers.js';

const REPO = 'acme/app';
const TOKEN = 'test-token-0123456789abcdef';

function registry(): StoreRegistry {
  const result = new StoreRegistry({ builtins: false });
  result.registerStoreScheme('sqlite', () => import('@repomem/store-sqlite'));
  result.registerCitationReaderScheme('git', () => import('@repomem/store-git'));
  return result;
}

async function connect(url: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } },
  );
  const client = new Client({ name: 'repomem-http-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};

async function post(url: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(initialize),
  });
}

describe('Streamable HTTP', () => {
  let workspace: Workspace;
  let open: HttpMemoryServer;
  let guarded: HttpMemoryServer;
  beforeAll(async () => {
    workspace = makeWorkspace('sqlite');
    const common = {
      storeSpec: workspace.storeSpec,
      repo: REPO,
      registry: registry(),
      citationReader: workspace.source,
      port: 0,
    };
    open = await serveHttp(common);
    guarded = await serveHttp({ ...common, token: TOKEN });
  });
  afterAll(async () => {
    await open?.close();
    await guarded?.close();
    workspace?.cleanup();
  });

  it('binds 127.0.0.1 by default and serves every tool to several clients at once', async () => {
    expect(open.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const [first, second] = await Promise.all([connect(open.url), connect(open.url)]);
    try {
      expect((await first.listTools()).tools.length).toBe(19);
      await Promise.all([
        ok(first, 'memory.add', { file: 'MEMORY.md', section: 'Notes', text: 'from the first client' }),
        ok(second, 'memory.add', { file: 'MEMORY.md', section: 'Notes', text: 'from the second client' }),
      ]);
      const found = await ok(second, 'memory.search', { query: 'client' });
      expect(JSON.stringify(found)).toContain('from the first client');
      expect(JSON.stringify(found)).toContain('from the second client');
      const verification = await ok(first, 'memory.verify_citations', {
        citations: [{ path: 'src/version.ts', line_start: 1, line_end: 2 }],
      });
      expect(verification).toMatchObject({ valid: true, valid_count: 1 });
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('with a token: no token or a wrong one gets 401, the right one works', async () => {
    const missing = await post(guarded.url, {});
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect((await post(guarded.url, { authorization: 'Bearer wrong-token-0123456789ab' })).status).toBe(401);
    expect((await post(guarded.url, { authorization: TOKEN })).status).toBe(401);
    await expect(connect(guarded.url)).rejects.toThrow();
    const client = await connect(guarded.url, TOKEN);
    try {
      expect(await ok(client, 'memory.stats')).toMatchObject({ repo: REPO });
    } finally {
      await client.close();
    }
  });

  it('refuses to bind a non-loopback address without a token, before opening anything', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.10']) {
      await expect(
        serveHttp({ storeSpec: workspace.storeSpec, repo: REPO, registry: registry(), port: 0, host }),
      ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/bearer token is required/) });
    }
    await expect(
      serveHttp({ storeSpec: workspace.storeSpec, repo: REPO, registry: registry(), port: 0, token: 'short' }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('underscored tool names for clients that reject dots, in the tools, instructions and prompt', async () => {
    const served = await serveHttp({
      storeSpec: workspace.storeSpec,
      repo: REPO,
      registry: registry(),
      port: 0,
      toolNames: 'underscored',
      watchIntervalMs: 0,
    });
    try {
      const client = await connect(served.url);
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        expect(names).toContain('memory_get_recent');
        for (const name of names) expect(name).toMatch(/^memory_[a-z_]+$/);
        expect(client.getInstructions()).toContain('memory_read_citation');
        expect(client.getInstructions()).not.toMatch(/memory\.[a-z]/);
        const prompt = JSON.stringify((await client.getPrompt({ name: 'memory-rules' })).messages);
        expect(prompt).toContain('memory_read_citation');
        expect(prompt).not.toMatch(/memory\.[a-z]/);
        expect(await ok(client, 'memory_stats')).toMatchObject({ repo: REPO });
      } finally {
        await client.close();
      }
    } finally {
      await served.close();
    }
  });

  async function statusWith(headers: Record<string, string>): Promise<number | undefined> {
    return new Promise<number | undefined>((resolve, reject) => {
      const sent = request(
        open.url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode);
        },
      );
      sent.on('error', reject);
      sent.end(JSON.stringify(initialize));
    });
  }

  it('a request naming a foreign host or coming from a foreign page is refused (DNS rebinding protection)', async () => {
    expect(await statusWith({ host: 'evil.example' })).toBe(403);
    expect(await statusWith({ origin: 'https://evil.example' })).toBe(403);
    expect(await statusWith({ origin: 'http://localhost:5173' })).toBe(200);
  });
});
