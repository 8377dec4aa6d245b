// Why: `repomem mcp --http --host 127.0.0.2` must serve, not refuse every request it gets
// (every loopback address is this machine), and the binary takes `--session-idle-timeout`.
// Run against the built `repomem` binary as a client configuration starts it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, ok, type Workspace } from './helpers.js';

const REPOMEM = fileURLToPath(new URL('../../cli/bin/repomem.js', import.meta.url));

describe('repomem mcp --http on another loopback address', () => {
  let workspace: Workspace;
  beforeAll(() => {
    workspace = makeWorkspace('sqlite');
  });
  afterAll(() => workspace?.cleanup());

  it('serves on 127.0.0.2 with a session idle timeout', async () => {
    const args = ['mcp', '--store', workspace.storeSpec, '--repo', 'acme/app', '--source', workspace.source];
    const child = spawn(
      process.execPath,
      [REPOMEM, ...args, '--http', '--port', '0', '--host', '127.0.0.2', '--session-idle-timeout', '60'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
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
      expect(url).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/mcp$/);
      const client = new Client({ name: 'repomem-cli-http-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        expect(await ok(client, 'memory.stats')).toMatchObject({ repo: 'acme/app' });
      } finally {
        await client.close();
      }
    } finally {
      child.kill('SIGTERM');
    }
  });
});
