// Why: turns `repomem mcp ...` arguments into a validated request (pure, no I/O): the store, the
// repository scope, the access mode, the citation source and, for HTTP, where to listen and the
// bearer token, checked before anything is opened.
import { configuredEmbedderSpec, isMemoryMode, type MemoryMode } from '@repomem/core';
import type { ToolNameStyle } from '@repomem/mcp';
import { parsePositiveInteger } from '../args.js';
import { CliUsageError } from '../errors.js';
import { MCP } from '../tree/decl/mcp.js';
import { parseCommand } from '../tree/parse-command.js';
import type { ArgsOf } from '../tree/types.js';

/** Longest `--session-idle-timeout`, in seconds (Node's longest timer). */
const MAX_IDLE_SECONDS = 24 * 24 * 60 * 60;

/** A parsed `repomem mcp` request. */
export interface McpRequest {
  readonly help: boolean;
  readonly store: string | undefined;
  readonly dir: string | undefined;
  readonly repo: string | undefined;
  readonly mode: MemoryMode;
  readonly source: string | undefined;
  /** Tool names: `memory.store` (dotted, default) or `memory_store` (underscored). */
  readonly toolNames: ToolNameStyle;
  /** Embedder spec (`--embedder`, else `$REPOMEM_EMBEDDER`): search and hydrate rank by meaning too. */
  readonly embedder: string | undefined;
  /** Absent: stdio. */
  readonly http:
    | {
        readonly port: number;
        readonly host: string | undefined;
        readonly token: string | undefined;
        /** `--session-idle-timeout` in milliseconds (absent: the server's default). */
        readonly sessionIdleTimeoutMs: number | undefined;
      }
    | undefined;
}

/**
 * The request of `mcp`'s typed arguments (parsed with `{ positionals: 'own' }`); `env` supplies
 * `REPOMEM_MCP_TOKEN` when `--token` is absent.
 */
export function mcpRequestOf(
  { options, positionals, given }: ArgsOf<typeof MCP.options>,
  env: Readonly<Record<string, string | undefined>>,
): McpRequest {
  if (positionals.length > 0) {
    throw new CliUsageError(`repomem mcp takes no arguments (got ${JSON.stringify(positionals[0])})`);
  }
  const mode = options.mode ?? 'enabled';
  if (!isMemoryMode(mode))
    throw new CliUsageError(`--mode must be enabled, read-only or disabled (got ${JSON.stringify(mode)})`);
  const toolNames = options.toolNames ?? 'dotted';
  if (toolNames !== 'dotted' && toolNames !== 'underscored') {
    throw new CliUsageError(`--tool-names must be dotted or underscored (got ${JSON.stringify(toolNames)})`);
  }
  const http = options.http;
  const port = options.port;
  const host = options.host;
  const token = options.token ?? (env.REPOMEM_MCP_TOKEN === '' ? undefined : env.REPOMEM_MCP_TOKEN);
  const idleSeconds = options.sessionIdleTimeout;
  if (!http && (port !== undefined || host !== undefined || options.token !== undefined || idleSeconds !== undefined)) {
    throw new CliUsageError('--port, --host, --token and --session-idle-timeout apply to --http only');
  }
  if (idleSeconds !== undefined && idleSeconds > MAX_IDLE_SECONDS) {
    throw new CliUsageError(`--session-idle-timeout must be at most ${MAX_IDLE_SECONDS} seconds (24 days)`);
  }
  if (http && port === undefined) throw new CliUsageError('--http needs --port <n>');
  return {
    help: given.has('help'),
    store: options.store,
    dir: options.dir,
    repo: options.repo,
    mode,
    source: options.source,
    toolNames,
    embedder: configuredEmbedderSpec(options.embedder, env),
    http: http
      ? {
          port: port === '0' ? 0 : parsePositiveInteger(port as string, '--port'),
          host,
          token,
          sessionIdleTimeoutMs: idleSeconds === undefined ? undefined : idleSeconds * 1000,
        }
      : undefined,
  };
}

/** Parse `repomem mcp` arguments (see {@link mcpRequestOf}). */
export function parseMcpArguments(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): McpRequest {
  return mcpRequestOf(parseCommand(MCP, argv, { positionals: 'own' }), env);
}
