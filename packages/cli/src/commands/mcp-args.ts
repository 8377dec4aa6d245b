// Why: turns `repomem mcp ...` arguments into a validated request (pure, no I/O): the store, the
// repository scope, the access mode, the citation source and, for HTTP, where to listen and the
// bearer token, checked before anything is opened.
import { configuredEmbedderSpec, isMemoryMode, type MemoryMode } from '@repomem/core';
import type { ToolNameStyle } from '@repomem/mcp';
import { booleanOption, type OptionSpecs, parseArguments, parsePositiveInteger, stringOption } from '../args.js';
import { CliUsageError } from '../errors.js';
import { MCP } from '../tree/decl/mcp.js';
import { optionSpecsOf } from '../tree/help.js';

/** Options accepted by `repomem mcp`. */
export const MCP_OPTIONS: OptionSpecs = optionSpecsOf(MCP);

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

/** Parse `repomem mcp` arguments; `env` supplies `REPOMEM_MCP_TOKEN` when `--token` is absent. */
export function parseMcpArguments(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): McpRequest {
  const parsed = parseArguments(argv, MCP_OPTIONS);
  if (parsed.positionals.length > 0) {
    throw new CliUsageError(`repomem mcp takes no arguments (got ${JSON.stringify(parsed.positionals[0])})`);
  }
  const mode = stringOption(parsed, 'mode') ?? 'enabled';
  if (!isMemoryMode(mode))
    throw new CliUsageError(`--mode must be enabled, read-only or disabled (got ${JSON.stringify(mode)})`);
  const toolNames = stringOption(parsed, 'tool-names') ?? 'dotted';
  if (toolNames !== 'dotted' && toolNames !== 'underscored') {
    throw new CliUsageError(`--tool-names must be dotted or underscored (got ${JSON.stringify(toolNames)})`);
  }
  const http = booleanOption(parsed, 'http');
  const port = stringOption(parsed, 'port');
  const host = stringOption(parsed, 'host');
  const token = stringOption(parsed, 'token') ?? (env.REPOMEM_MCP_TOKEN === '' ? undefined : env.REPOMEM_MCP_TOKEN);
  const idle = stringOption(parsed, 'session-idle-timeout');
  if (
    !http &&
    (port !== undefined || host !== undefined || stringOption(parsed, 'token') !== undefined || idle !== undefined)
  ) {
    throw new CliUsageError('--port, --host, --token and --session-idle-timeout apply to --http only');
  }
  const idleSeconds = idle === undefined ? undefined : parsePositiveInteger(idle, '--session-idle-timeout');
  if (idleSeconds !== undefined && idleSeconds > MAX_IDLE_SECONDS) {
    throw new CliUsageError(`--session-idle-timeout must be at most ${MAX_IDLE_SECONDS} seconds (24 days)`);
  }
  if (http && port === undefined) throw new CliUsageError('--http needs --port <n>');
  return {
    help: booleanOption(parsed, 'help'),
    store: stringOption(parsed, 'store'),
    dir: stringOption(parsed, 'dir'),
    repo: stringOption(parsed, 'repo'),
    mode,
    source: stringOption(parsed, 'source'),
    toolNames,
    embedder: configuredEmbedderSpec(stringOption(parsed, 'embedder'), env),
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
