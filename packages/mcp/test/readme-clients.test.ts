// Why: a user connects a client by pasting the README's configuration block, so each block must
// parse in the format its client documents (JSON for Claude Code, Cursor and VS Code, TOML for
// Codex), name the repomem command, and its arguments must start a working server.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeWorkspace } from './helpers.js';

const README = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const REPOMEM = fileURLToPath(new URL('../../cli/bin/repomem.js', import.meta.url));

/** The fenced block right after `<!-- client: name -->`. */
function block(client: string): { language: string; text: string } {
  const match = new RegExp(`<!-- client: ${client} -->\\n\`\`\`(\\w+)\\n([\\s\\S]*?)\\n\`\`\``).exec(README);
  if (match === null) throw new Error(`no configuration block for ${client} in the README`);
  return { language: match[1] as string, text: match[2] as string };
}

const ServerEntry = z.object({ command: z.string(), args: z.array(z.string()), type: z.string().optional() });
type ServerEntry = z.infer<typeof ServerEntry>;
const servers = (key: string) => z.object({ [key]: z.object({ repomem: ServerEntry }) });

function entryOf(client: string): ServerEntry {
  const { language, text } = block(client);
  switch (client) {
    case 'codex': {
      expect(language).toBe('toml');
      return servers('mcp_servers').parse(parseToml(text)).mcp_servers?.repomem as ServerEntry;
    }
    case 'vscode': {
      expect(language).toBe('json');
      const entry = servers('servers').parse(JSON.parse(text)).servers?.repomem as ServerEntry;
      expect(entry.type).toBe('stdio');
      return entry;
    }
    default: {
      expect(language).toBe('json');
      return servers('mcpServers').parse(JSON.parse(text)).mcpServers?.repomem as ServerEntry;
    }
  }
}

describe('client configuration blocks of the README', () => {
  it.each(['claude-code', 'codex', 'cursor', 'vscode'])('%s: parses and runs `repomem mcp`', (client) => {
    const entry = entryOf(client);
    expect(entry.command).toBe('npx');
    expect(entry.args.slice(0, 3)).toEqual(['-y', '@repomem/cli', 'mcp']);
  });

  it('the arguments of the blocks start a server that lists the memory tools', async () => {
    const workspace = makeWorkspace('sqlite');
    try {
      const args = entryOf('claude-code').args.slice(2);
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [REPOMEM, ...args],
        cwd: workspace.code,
      });
      const client = new Client({ name: 'readme-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        expect(client.getInstructions()).toContain('acme/app');
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('memory.store');
      } finally {
        await client.close();
      }
    } finally {
      workspace.cleanup();
    }
  });
});
