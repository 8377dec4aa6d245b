// Why: the MCP server offers verified memories only through hydration and raw listings, while an
// AI SDK agent often wants just "what do we know that still holds?": core's `recall`, which
// re-reads every cited line now and returns only memories whose code still says so. Declared
// like the MCP tools (the same `ToolDefinition`), so it is turned into an AI SDK tool the same
// way. Read-only mode checks without recording (the MCP server's `readOnlyRecall`).
import { MAX_RECALL_LIMIT, type VerifiedMemoryService } from '@repomem/core';
import { readOnlyRecall, type ToolDefinition } from '@repomem/mcp';
import { z } from 'zod';

/** Input of `memory.recall`. */
export const RecallInput = z.object({
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_RECALL_LIMIT)
    .optional()
    .describe('Most memories to consider, most recent first (default 50).'),
  ref: z.string().min(1).optional().describe('Git revision to check the cited code at (default HEAD).'),
});

/** Output of `memory.recall`: the memories verified now, and how many were left out and why. */
export const RecallOutput = z.object({
  memories: z.array(z.looseObject({ id: z.string(), subject: z.string(), fact: z.string() })),
  invalidated: z.number().int().describe('Memories whose cited code no longer supports them (now invalidated).'),
  unverified: z.number().int().describe('Memories that could not be checked now (not returned).'),
});

/** `memory.recall` over a verified-memory service, for `repo`. */
export function recallTool(
  service: VerifiedMemoryService,
  repo: string,
  readOnly: boolean,
): ToolDefinition<typeof RecallInput, typeof RecallOutput> {
  const recall = readOnly ? readOnlyRecall(service) : service;
  return {
    name: 'memory.recall',
    title: 'Recall verified memories',
    description:
      'The verified memories of this repository that still hold: each cited code location is re-read now, memories whose code moved are re-anchored, and those the code no longer supports are left out' +
      (readOnly ? ' (read-only here: nothing is recorded).' : ' and invalidated.'),
    input: RecallInput,
    output: RecallOutput,
    writes: !readOnly,
    idempotent: readOnly,
    async run(input) {
      const result = await recall.recall(repo, {
        ...(input.limit === undefined ? {} : { limit: input.limit }),
        ...(input.ref === undefined ? {} : { ref: input.ref }),
      });
      return {
        memories: result.memories.map((memory) => ({ ...memory })),
        invalidated: result.invalidated.length,
        unverified: result.unverified.length,
      };
    },
  };
}
