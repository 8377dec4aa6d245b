// Why: every tool is declared the same way (name, schemas, whether it changes memory, hints,
// body), and registered by one function that derives the MCP annotations from the declaration
// and applies the access mode, so no tool can forget its hints or slip past read-only mode.
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { MemoryMode } from '@repomem/core';
import type { z } from 'zod';
import { type ToolNameStyle, toolName, withToolNames } from '../tool-names.js';
import { runTool } from '../tool-result.js';

/** A declared tool, ready to register. */
export interface ToolEntry {
  /** Tool name (`memory.store`). */
  readonly name: string;
  /** True when the tool changes memory (hidden and refused in read-only mode). */
  readonly writes: boolean;
  /** The declaration (schemas, description, body), for hosts other than an MCP server (`@repomem/ai-sdk`). */
  readonly definition: ToolDefinition<z.ZodObject, z.ZodObject>;
  /**
   * Register on `server` with names in `style`; in read-only mode a writing tool is registered
   * disabled (not listed, refused).
   */
  register(server: McpServer, mode: MemoryMode, style?: ToolNameStyle): RegisteredTool;
}

/** `T` with every array and object readonly (what core returns is assignable to the output shape). */
export type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** Declaration of one tool. */
export interface ToolDefinition<I extends z.ZodObject, O extends z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: I;
  readonly output: O;
  /** Changes memory. */
  readonly writes: boolean;
  /** Can remove or overwrite what is stored (default false). */
  readonly destructive?: boolean;
  /** Calling again with the same arguments has no further effect. */
  readonly idempotent: boolean;
  /** Reaches a system outside the machine (citations read from GitHub). */
  readonly openWorld?: boolean;
  /** The tool's body: a structured value, or a thrown error (a tool error with its code). */
  readonly run: (args: z.output<I>) => Promise<DeepReadonly<z.input<O>>>;
}

/** Declare a tool. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(definition: ToolDefinition<I, O>): ToolEntry {
  return {
    name: definition.name,
    writes: definition.writes,
    definition: definition as unknown as ToolDefinition<z.ZodObject, z.ZodObject>,
    register(server, mode, style = 'dotted') {
      const registered = server.registerTool<z.ZodObject, z.ZodObject>(
        toolName(definition.name, style),
        {
          title: definition.title,
          description: withToolNames(definition.description, style),
          inputSchema: definition.input as z.ZodObject,
          outputSchema: definition.output as z.ZodObject,
          annotations: {
            title: definition.title,
            readOnlyHint: !definition.writes,
            destructiveHint: definition.writes && definition.destructive === true,
            idempotentHint: definition.idempotent,
            openWorldHint: definition.openWorld === true,
          },
        },
        (args: unknown) => runTool(async () => (await definition.run(args as z.output<I>)) as Record<string, unknown>),
      );
      if (definition.writes && mode !== 'enabled') registered.disable();
      return registered;
    },
  };
}
