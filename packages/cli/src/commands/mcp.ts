// Why: `repomem mcp`: serves the repository memory to MCP clients (stdio by default, Streamable
// HTTP with --http) through @repomem/mcp, on the store chosen like every other command and
// opened through the CLI's registry, so the bundled stores load. Runs until the client goes away
// or the process is asked to stop.
import { serveHttp, serveStdio } from '@repomem/mcp';
import { ExitCode } from '../errors.js';
import { CLI_MAX_CONNECTIONS } from '../open-chosen-store.js';
import { cliRegistry } from '../store-registry.js';
import { chooseRepo, chooseStore } from '../store-selection.js';
import { commandRunner } from '../tree/command-runner.js';
import { MCP } from '../tree/decl/mcp.js';
import type { CommandRunner } from '../tree/types.js';
import { mcpRequestOf } from './mcp-args.js';

/** Resolves on SIGINT or SIGTERM. */
function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

/** Run `repomem mcp <argv...>`; returns the exit code once the server has stopped. */
export const runMcpCommand: CommandRunner = commandRunner(
  MCP,
  async (args, io) => {
    const request = mcpRequestOf(args, io.env);
    const chosen = await chooseStore(request, io);
    const embedder =
      request.embedder === undefined
        ? undefined
        : await (await import('../open-embedder.js')).openCliEmbedder(request.embedder, io);
    const repo = chooseRepo(request.repo, io);
    const options = {
      storeSpec: chosen.resolved,
      repo,
      mode: request.mode,
      toolNames: request.toolNames,
      registry: cliRegistry,
      cwd: io.cwd,
      env: io.env,
      ...(request.source === undefined ? {} : { citationReader: request.source }),
      ...(embedder === undefined ? {} : { embedder }),
    };
    if (request.http === undefined) {
      // One client over stdio: one server connection, as for any other command.
      const served = await serveStdio({ ...options, maxConnections: CLI_MAX_CONNECTIONS });
      await Promise.race([served.closed, stopSignal()]);
      await served.close();
      return ExitCode.ok;
    }
    const served = await serveHttp({
      ...options,
      port: request.http.port,
      ...(request.http.host === undefined ? {} : { host: request.http.host }),
      ...(request.http.token === undefined ? {} : { token: request.http.token }),
      ...(request.http.sessionIdleTimeoutMs === undefined
        ? {}
        : { sessionIdleTimeoutMs: request.http.sessionIdleTimeoutMs }),
    });
    io.stderr.write(
      `repomem MCP server for ${repo} (${chosen.label}, mode ${request.mode}) listening at ${served.url}\n`,
    );
    await stopSignal();
    await served.close();
    return ExitCode.ok;
  },
  { positionals: 'own' },
);
