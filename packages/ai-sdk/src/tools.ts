// Why: an agent on the Vercel AI SDK gets repomem's memory as ordinary tools, with the exact
// schemas, descriptions and bodies of the MCP server's tools (declared once in @repomem/mcp and
// opened by the same function, so the two never drift), plus `memory_recall`. Names are
// underscored (`memory_search`): model providers accept only `[a-zA-Z0-9_-]` in tool names.
// Read-only mode lists no tool that writes.
import { type MemoryStore, RepomemError, repoSlugProblem } from '@repomem/core';
import {
  type MemoryMcpContext,
  memoryTools,
  openMemoryMcpContext,
  type ToolDefinition,
  toolName,
  withToolNames,
} from '@repomem/mcp';
import { type Tool, tool } from 'ai';
import type { z } from 'zod';
import { type RepomemToolsOptions, RepomemToolsOptionsSchema } from './options.js';
import { recallTool } from './recall-tool.js';

/** The MCP tools offered, by their published names (`memory.recall` is this package's own). */
export const REPOMEM_TOOL_NAMES = [
  'memory.search',
  'memory.add',
  'memory.replace',
  'memory.remove',
  'memory.daily_append',
  'memory.recall',
  'memory.store',
  'memory.hydrate',
  'memory.record_episode',
] as const;

/** A tool name as the model sees it (`memory_search`...). */
export type RepomemToolName =
  | 'memory_search'
  | 'memory_add'
  | 'memory_replace'
  | 'memory_remove'
  | 'memory_daily_append'
  | 'memory_recall'
  | 'memory_store'
  | 'memory_hydrate'
  | 'memory_record_episode';

/** What {@link repomemTools} returns. */
export interface RepomemTools {
  /** The tools, for `generateText({ tools })` / `streamText({ tools })` (only read tools in read-only mode). */
  readonly tools: Partial<Record<RepomemToolName, Tool>>;
  /** What the tools work on (store, memory facade, verified memory, task records). */
  readonly context: MemoryMcpContext;
  /** Close what was opened from a spec (a store passed in stays open). Idempotent. */
  close(): Promise<void>;
}

function aiTool(definition: ToolDefinition<z.ZodObject, z.ZodObject>): Tool {
  return tool({
    title: definition.title,
    description: withToolNames(definition.description, 'underscored'),
    inputSchema: definition.input,
    outputSchema: definition.output,
    execute: async (input: unknown) => definition.run(input as never),
  });
}

/**
 * Open repomem memory for an AI SDK agent: the store (`store`, or `spec` opened through core's
 * registry, default `sqlite:.repomem/repomem.db`), scoped to `repo`, in `mode` (`enabled` by
 * default, or `read-only`: no writing tool is listed).
 *
 * @example
 * ```ts
 * const memory = await repomemTools({ spec: 'sqlite:.repomem/repomem.db', repo: 'acme/app' });
 * const result = await generateText({ model, tools: memory.tools, prompt: 'What do we know about releases?' });
 * await memory.close();
 * ```
 */
export async function repomemTools(options: RepomemToolsOptions): Promise<RepomemTools> {
  const parsed = RepomemToolsOptionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `invalid repomemTools options: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'options'}: ${issue.message}`).join('; ')}`,
    );
  }
  const problem = repoSlugProblem(options.repo);
  if (problem !== undefined) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid repository ${JSON.stringify(options.repo)}: ${problem}`);
  }
  if (options.store !== undefined && options.spec !== undefined) {
    throw new RepomemError('INVALID_ARGUMENT', 'pass either store or spec, not both');
  }
  const mode = options.mode ?? 'enabled';
  const context = await openMemoryMcpContext({
    repo: options.repo,
    mode,
    ...(options.store === undefined ? {} : { store: options.store as MemoryStore }),
    ...(options.spec === undefined ? {} : { storeSpec: options.spec }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.citationReader === undefined ? {} : { citationReader: options.citationReader }),
    ...(options.verifiedBackend === undefined ? {} : { verifiedBackend: options.verifiedBackend }),
    ...(options.taskBackend === undefined ? {} : { taskBackend: options.taskBackend }),
    ...(options.registry === undefined ? {} : { registry: options.registry }),
    watchIntervalMs: 0,
  });
  const readOnly = mode === 'read-only';
  const definitions = new Map<string, ToolDefinition<z.ZodObject, z.ZodObject>>();
  for (const entry of memoryTools(context)) definitions.set(entry.name, entry.definition);
  if (context.verified !== undefined) {
    definitions.set(
      'memory.recall',
      recallTool(context.verified, context.repo, readOnly) as unknown as ToolDefinition<z.ZodObject, z.ZodObject>,
    );
  }
  const tools: Partial<Record<RepomemToolName, Tool>> = {};
  for (const name of REPOMEM_TOOL_NAMES) {
    const definition = definitions.get(name);
    if (definition === undefined || (readOnly && definition.writes)) continue;
    tools[toolName(name, 'underscored') as RepomemToolName] = aiTool(definition);
  }
  return { tools, context, close: () => context.close() };
}
