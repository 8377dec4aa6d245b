// Why: what every test of the server needs: real stores in temporary directories (SQLite file,
// memory directory, git repository), a git worktree with code to cite, and an official SDK
// client connected over stdio to a spawned server process.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The stdio server entry the tests spawn. */
export const SERVE_STDIO = fileURLToPath(new URL('./fixtures/serve-stdio.mjs', import.meta.url));

/** The store kinds every tool is exercised on. */
export const STORE_KINDS = ['sqlite', 'dir', 'git'] as const;
/** One store kind. */
export type StoreKind = (typeof STORE_KINDS)[number];

/** A temporary workspace: a git repository with code to cite, and a store spec of the chosen kind. */
export interface Workspace {
  readonly root: string;
  /** Git repository holding `src/version.ts` (the cited code). */
  readonly code: string;
  readonly storeSpec: string;
  readonly source: string;
  cleanup(): void;
}

/** Run git in `cwd` with a fixed test identity; returns its trimmed standard output. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
    },
  }).trim();
}

/** Lines of the cited file. */
export const CODE_LINES = ['// version of the API', "export const API_VERSION = '2';", 'export const NAME = "app";'];

/** Create a workspace with a store of `kind`. */
export function makeWorkspace(kind: StoreKind): Workspace {
  const root = mkdtempSync(join(tmpdir(), `repomem-mcp-${kind}-`));
  const code = join(root, 'code');
  mkdirSync(join(code, 'src'), { recursive: true });
  writeFileSync(join(code, 'src', 'version.ts'), `${CODE_LINES.join('\n')}\n`);
  git(code, 'init', '-q', '-b', 'main');
  git(code, 'add', '.');
  git(code, 'commit', '-q', '-m', 'code');
  let storeSpec: string;
  if (kind === 'sqlite') storeSpec = `sqlite:${join(root, 'memory.db')}`;
  else if (kind === 'dir') {
    mkdirSync(join(root, 'memory'));
    storeSpec = `dir:${join(root, 'memory')}`;
  } else storeSpec = `git:${code}#agent/memory`;
  return {
    root,
    code,
    storeSpec,
    source: `git:${code}`,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Spawn a stdio server with `options` and connect an SDK client to it. */
export async function connectStdio(options: Record<string, unknown>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVE_STDIO, JSON.stringify(options)],
    stderr: 'inherit',
  });
  const client = new Client({ name: 'repomem-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** Call a tool and return its result (typed). */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** Call a tool that must succeed and return its structured content. */
export async function ok(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const result = await call(client, name, args);
  if (result.isError === true) {
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    throw new Error(`${name} failed: ${text}`);
  }
  if (result.structuredContent === undefined) throw new Error(`${name} returned no structured content`);
  return result.structuredContent;
}

/** The text of a tool error. */
export function errorText(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}
