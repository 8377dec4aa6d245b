// Why: users start the server as `repomem mcp`, and debug it with the MCP Inspector's CLI; both
// are exercised here against the built `repomem` binary, exactly as a client configuration runs it.
import { execFile, spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, ok, type Workspace } from './helpers.js';

const run = promisify(execFile);
const REPOMEM = fileURLToPath(new URL('../../cli/bin/repomem.js', import.meta.url));
const INSPECTOR = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/inspector-cli/build/cli.js', import.meta.url),
);
const TEST_DIR = fileURLToPath(new URL('.', import.meta.url));

/** The JSON document the Inspector printed (after any banner it writes first). */
function inspectorJson(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout.slice(stdout.indexOf('{'))) as Record<string, unknown>;
}

describe('the repomem mcp binary', () => {
  let workspace: Workspace;
  let store: string[];
  beforeAll(() => {
    workspace = makeWorkspace('sqlite');
    store = ['--store', workspace.storeSpec, '--repo', 'acme/app', '--source', workspace.source];
  });
  afterAll(() => workspace?.cleanup());

  it('the MCP Inspector CLI lists its tools and calls one', async () => {
    // The Inspector starts `node`: the same Node as this test. Its package lookup reads
    // ../package.json relative to the working directory, so it runs from this test folder.
    const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
    const target = ['--cli', process.execPath, REPOMEM, 'mcp', ...store];
    const listed = await run(process.execPath, [INSPECTOR, ...target, '--method', 'tools/list'], {
      env,
      cwd: TEST_DIR,
    });
    const tools = inspectorJson(listed.stdout).tools as { name: string }[];
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['memory.store', 'memory.add', 'memory.search']),
    );
    const called = await run(
      process.execPath,
      [
        INSPECTOR,
        ...target,
        '--method',
        'tools/call',
        '--tool-name',
        'memory.add',
        '--tool-arg',
        'file=MEMORY.md',
        'section=Notes',
        'text=from the inspector',
      ],
      { env, cwd: TEST_DIR },
    );
    expect(inspectorJson(called.stdout).structuredContent).toMatchObject({
      kind: 'added',
      bullet: '- from the inspector',
    });
  });

  it('serves stdio to the SDK client, read-only when asked', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [REPOMEM, 'mcp', ...store, '--mode', 'read-only'],
      stderr: 'inherit',
    });
    const client = new Client({ name: 'repomem-cli-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe('repomem');
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('memory.search');
      expect(names).not.toContain('memory.add');
      const found = await ok(client, 'memory.search', { query: 'inspector' });
      expect(JSON.stringify(found)).toContain('from the inspector');
    } finally {
      await client.close();
    }
  });

  it('serves Streamable HTTP on 127.0.0.1 and refuses another address without a token', async () => {
    const child = spawn(
      process.execPath,
      [REPOMEM, 'mcp', ...store, '--tool-names', 'underscored', '--http', '--port', '0'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stderr.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          const match = /listening at (\S+)/.exec(text);
          if (match?.[1] !== undefined) resolve(match[1]);
        });
        child.once('exit', () => reject(new Error(`repomem mcp exited: ${text}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = new Client({ name: 'repomem-cli-http-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        expect(await ok(client, 'memory_stats')).toMatchObject({ repo: 'acme/app' });
      } finally {
        await client.close();
      }
    } finally {
      child.kill('SIGTERM');
    }
    const refused = await run(process.execPath, [
      REPOMEM,
      'mcp',
      ...store,
      '--http',
      '--port',
      '0',
      '--host',
      '0.0.0.0',
    ]).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused?.code).not.toBe(0);
    expect(refused?.stderr).toMatch(/bearer token is required/);
  });
});
