// Why: `repomem mcp`, declared once.
import { defineCommand } from '../types.js';
import { DIR, EMBEDDER, REPO, SOURCE, STORE } from './common.js';

/** `repomem mcp`. */
export const MCP = defineCommand({
  name: 'mcp',
  usage: [
    '[--store <spec> | --dir <path>] [--repo <owner/name>] [--mode enabled|read-only|disabled]',
    ' [--source <spec>] [--tool-names dotted|underscored] [--embedder <spec>]',
    ' [--http --port <n> [--host <address>] [--token <token>] [--session-idle-timeout <s>]]',
  ],
  description: `Serves the repository memory to MCP clients (Claude Code, Codex, Cursor, VS Code...): the
verified-memory tools (memory.store, memory.get_recent, memory.verify_citations...), the bullet
tools (memory.add, memory.replace, memory.remove, memory.daily_append, memory.search), history
tools on stores that keep history, the memory documents as resources and the memory rules as a
prompt. Speaks MCP over stdin/stdout by default; nothing else is written to stdout.`,
  options: {
    store: { ...STORE, description: 'Store (see repomem --help for the order; default sqlite:.repomem/repomem.db)' },
    dir: { ...DIR, description: 'Memory directory (same as --store dir:<path>)' },
    repo: {
      ...REPO,
      description: "Repository every tool is scoped to (default $GITHUB_REPOSITORY, then the origin remote's)",
    },
    mode: {
      type: 'string',
      value: 'mode',
      choices: ['enabled', 'read-only', 'disabled'],
      description:
        'enabled (default); read-only: tools that change memory are not offered; disabled: the server starts and offers nothing, saying why',
    },
    source: SOURCE,
    'tool-names': {
      type: 'string',
      value: 's',
      choices: ['dotted', 'underscored'],
      description:
        'dotted (memory.store, default) or underscored (memory_store) for clients that reject dots in tool names',
    },
    embedder: {
      ...EMBEDDER,
      description:
        'memory.search and memory.hydrate rank by meaning too: local, openai:<model>, bedrock:<model> (default $REPOMEM_EMBEDDER; none: words only)',
    },
    http: { type: 'boolean', description: 'Serve Streamable HTTP at http://<host>:<port>/mcp instead of stdio' },
    port: { type: 'string', value: 'n', description: 'HTTP port (0: any free port, printed on stderr)' },
    host: {
      type: 'string',
      value: 'address',
      description: 'Address to bind (default 127.0.0.1, any 127.x.y.z or ::1 too); any other address requires a token',
    },
    token: {
      type: 'string',
      value: 'token',
      description: 'Bearer token every HTTP request must carry (or $REPOMEM_MCP_TOKEN; 16+ characters)',
    },
    'session-idle-timeout': {
      type: 'integer',
      value: 's',
      description:
        'Close an HTTP session no request has used for this many seconds (default 1800); request bodies over 4 MiB get 413',
    },
  },
  examples: [
    {
      command: 'mcp --store sqlite:.repomem/repomem.db',
      description: 'Serve over stdio (claude mcp add repomem -- repomem mcp)',
    },
    {
      command: 'mcp --http --port 0 --mode read-only',
      description: 'Serve read-only tools over HTTP on a free local port',
    },
  ],
  load: async () => (await import('../../commands/mcp.js')).runMcpCommand,
});
